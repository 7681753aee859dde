package io.mmgr.stream.demo;

import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.cli.ConsoleLogs;
import io.mmgr.stream.cli.WebAccessOptions;
import java.awt.Desktop;
import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr demo}: a simulated training run scored live, watched on the dashboard. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start an embedded broker, registry and scorer, generate a small benchmark (mazes, Magma episodes, "
                + "clicks and robot trials, and any other simulated family installed), then simulate a training run whose "
                + "checkpoints get better with the step, and open the dashboard.",
                "It is a scorer like 'run': the same port and data-directory flags, and the same endpoints file, so every "
                        + "client command (leaderboard, publish, report, ...) works against it with the same --data-dir.",
                "Judge-dependent metrics show as unavailable (no judge configured). Ctrl-C stops it within 5 s."})
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--data-dir", defaultValue = "${env:MMGR_DATA_DIR:-.mmgr}",
            description = "broker, registry, scorer state, generated files and the endpoints file that client commands "
                    + "read, as with 'run' (default: ${DEFAULT-VALUE}; env MMGR_DATA_DIR)")
    Path dataDir;

    @Option(names = "--web-port", defaultValue = "${env:MMGR_WEB_PORT:-8080}",
            description = "dashboard, REST API, live updates and /metrics port (default: ${DEFAULT-VALUE}; busy or 0: any free port; "
                    + "env MMGR_WEB_PORT)")
    int webPort;

    @Option(names = "--broker-port", defaultValue = "9092",
            description = "embedded broker port on first start (default: ${DEFAULT-VALUE}; busy: any free port)")
    int brokerPort;

    @Option(names = "--registry-port", defaultValue = "8081",
            description = "embedded registry port (default: ${DEFAULT-VALUE}; busy: any free port)")
    int registryPort;

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

    @Option(names = "--verbose", description = "also show the broker's and the Kafka clients' own log lines on the console "
            + "(they always go to " + ConsoleLogs.FILE + " in the data directory)")
    boolean verbose;

    @CommandLine.Mixin
    WebAccessOptions webAccess;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** How long Ctrl-C waits for an orderly stop before the process exits anyway: with the JVM's own exit, within 5 s. */
    static final Duration STOP_BUDGET = Duration.ofMillis(3500);

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        io.mmgr.stream.web.WebAccess access = webAccess.forBind("127.0.0.1", spec.commandLine()); // the demo serves loopback only
        ConsoleLogs.route(dataDir, verbose);
        DemoSettings settings = new DemoSettings(dataDir, free(webPort) ? webPort : 0, brokerPort, registryPort, families,
                items, seeds, Math.max(1, checkpoints), stepSize, interval, regressAt > checkpoints ? 0 : regressAt, seed);
        out.println("mmgr demo: data in " + dataDir.toAbsolutePath() + " (Kafka and client logs: "
                + dataDir.resolve(ConsoleLogs.FILE).toAbsolutePath() + ")");
        out.flush();
        AtomicReference<DemoRun> running = new AtomicReference<>();
        CountDownLatch stopRequested = new CountDownLatch(1);
        // registered first, so that Ctrl-C during start-up also stops whatever has started
        Thread hook = new Thread(() -> {
            stopRequested.countDown();
            DemoRun demo = running.get();
            if (demo != null) {
                stopWithin(demo, STOP_BUDGET, out);
            }
        }, "mmgr-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        DemoRun demo = DemoRun.start(settings, out, access);
        running.set(demo);
        out.printf("mmgr demo running, run %s%n", demo.runId());
        out.printf("  Kafka bootstrap servers : %s (embedded broker, data in %s)%n", demo.stack().bootstrapServers(),
                dataDir.resolve("broker").toAbsolutePath());
        out.printf("  Schema registry         : %s (embedded)%n", demo.stack().registryUrl());
        out.printf("  Dashboard               : %s (REST under /api, metrics at /metrics%s)%n", demo.url(),
                access.required() ? "; the page asks for the access token once, or open it as URL#token=TOKEN" : "");
        out.printf("  Endpoints file          : %s (client commands find the demo through --data-dir %s)%n",
                dataDir.resolve(Endpoints.FILE).toAbsolutePath(), dataDir);
        out.println("Try 'bin/mmgr leaderboard --metrics" + dataDirFlag() + "' or 'bin/mmgr report --run " + demo.runId()
                + dataDirFlag() + " --out report.html' beside it.");
        out.println("Generating the benchmark:");
        out.flush();
        demo.publishBenchmark(out);
        demo.awaitBenchmarkLoaded(Duration.ofSeconds(30));
        if (!noOpen) {
            open(demo.url(), out);
        }
        out.println("Simulating the training run:");
        out.flush();
        demo.simulate(out);
        if (stopRequested.getCount() == 0) {
            return 0; // Ctrl-C: the hook stops everything
        }
        if (exitWhenDone) {
            demo.awaitScored(Duration.ofSeconds(60));
            out.println("All checkpoints scored. Stopping ...");
            out.flush();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // already shutting down: the hook stops it
                return 0;
            }
            stopWithin(demo, STOP_BUDGET, out);
            return 0;
        }
        out.println("All checkpoints published. The dashboard stays up; press Ctrl-C to stop.");
        out.flush();
        stopRequested.await();
        return 0;
    }

    private String dataDirFlag() {
        return dataDir.normalize().equals(Path.of(".mmgr")) ? "" : " --data-dir " + dataDir;
    }

    /**
     * Closes the demo (the scorer leaves its group, then the broker and registry stop) and waits at most
     * {@code budget}; what is not closed by then is left to the next start's recovery, as after a crash.
     */
    static void stopWithin(DemoRun demo, Duration budget, PrintWriter out) {
        long t0 = System.nanoTime();
        out.println("Stopping the demo: the simulation, the scorer, then the broker and registry ...");
        out.flush();
        Thread closer = new Thread(demo::close, "mmgr-demo-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(budget.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        double s = (System.nanoTime() - t0) / 1e9;
        out.println(closer.isAlive()
                ? String.format(java.util.Locale.ROOT, "Not stopped after %.1f s; exiting anyway (the next start recovers the data directory).", s)
                : String.format(java.util.Locale.ROOT, "Stopped in %.1f s.", s));
        out.flush();
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
}
