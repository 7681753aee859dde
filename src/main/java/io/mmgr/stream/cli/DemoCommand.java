package io.mmgr.stream.cli;

import io.mmgr.stream.demo.DemoRun;
import io.mmgr.stream.demo.DemoSettings;
import java.awt.Desktop;
import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr demo}: a simulated training run scored live, watched on the dashboard. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start an embedded broker, registry and scorer, generate a small benchmark (mazes, Magma episodes, "
                + "clicks and robot trials, and any other simulated family installed), then simulate a training run whose "
                + "checkpoints get better with the step, and open the dashboard.",
                "Judge-dependent metrics show as pending (no judge configured). Ctrl-C stops it."})
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--data-dir", description = "where the broker, registry and generated files live (default: a fresh temporary directory, deleted on exit)")
    Path dataDir;

    @Option(names = "--port", defaultValue = "8080", description = "dashboard port (default: ${DEFAULT-VALUE}; busy: any free port)")
    int port;

    @Option(names = "--tasks", split = ",", description = "simulated families to include, e.g. maze,magma (default: all)")
    List<String> families = new ArrayList<>();

    @Option(names = "--items", defaultValue = "16", description = "benchmark items per task (default: ${DEFAULT-VALUE})")
    int items;

    @Option(names = "--seeds", defaultValue = "1", description = "samples per item and checkpoint (default: ${DEFAULT-VALUE})")
    int seeds;

    @Option(names = "--checkpoints", defaultValue = "8", description = "checkpoints of the simulated run (default: ${DEFAULT-VALUE})")
    int checkpoints;

    @Option(names = "--step-size", defaultValue = "1000", description = "training steps between checkpoints (default: ${DEFAULT-VALUE})")
    long stepSize;

    @Option(names = "--interval", defaultValue = "PT3S", description = "pause between checkpoints (default: ${DEFAULT-VALUE})")
    Duration interval;

    @Option(names = "--regress-at", defaultValue = "5",
            description = "checkpoint (1-based) made worse on purpose, to show an alert; 0 for none (default: ${DEFAULT-VALUE})")
    int regressAt;

    @Option(names = "--seed", defaultValue = "7", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--no-open", description = "do not open a browser")
    boolean noOpen;

    @Option(names = "--exit-when-done", description = "stop after the last checkpoint is published and scored")
    boolean exitWhenDone;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        boolean temporary = dataDir == null;
        Path dir = temporary ? Files.createTempDirectory("mmgr-demo-") : dataDir;
        int webPort = free(port) ? port : 0;
        DemoSettings settings = new DemoSettings(dir, webPort, families, items, seeds, Math.max(1, checkpoints), stepSize,
                interval, regressAt > checkpoints ? 0 : regressAt, seed);
        out.println("Starting the embedded broker, schema registry and scorer in " + dir.toAbsolutePath() + " ...");
        out.flush();
        DemoRun demo = DemoRun.start(settings);
        CountDownLatch stopRequested = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            demo.stop();
            stopRequested.countDown();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mmgr-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            out.println("Dashboard: " + demo.url() + "   (run " + demo.runId() + ")");
            out.println("Generating the benchmark:");
            out.flush();
            demo.publishBenchmark(out);
            if (!noOpen) {
                open(demo.url(), out);
            }
            out.println("Simulating the training run:");
            out.flush();
            demo.simulate(out);
            if (exitWhenDone) {
                Thread.sleep(3000); // let the last scores and comparisons land
            } else {
                out.println("All checkpoints published. The dashboard stays up; press Ctrl-C to stop.");
                out.flush();
                stopRequested.await();
            }
            return 0;
        } finally {
            demo.close();
            if (temporary) {
                deleteRecursively(dir);
            }
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // already shutting down
            }
        }
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void open(String url, PrintWriter out) {
        try {
            if (!GraphicsEnvironment.isHeadless() && Desktop.isDesktopSupported()
                    && Desktop.getDesktop().isSupported(Desktop.Action.BROWSE)) {
                Desktop.getDesktop().browse(URI.create(url));
                return;
            }
        } catch (IOException | UnsupportedOperationException e) {
            // fall through to the message
        }
        out.println("Open " + url + " in a browser.");
    }

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory; the OS cleans what is left
        }
    }
}
