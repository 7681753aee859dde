package io.mmgr.stream.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code mmgr run} as a child JVM on this JVM's class path, on one data directory: started, killed with
 * SIGKILL (no shutdown hook, the embedded broker dies with it), stopped with SIGTERM, started again.
 * Started from {@code bin/mmgr}, the child is {@code bin/mmgr run} (the JVM options go to
 * {@code MMGR_JAVA_OPTS}); in tests, a JVM on the test class path.
 * Each start logs to its own file in the data directory.
 */
public final class ScorerProcess implements AutoCloseable {

    public static final String READY = "mmgr-stream scorer running";

    private final Path dataDir;
    private final List<String> jvmOptions;
    private final List<String> args;
    private Process process;
    private Path log;
    private int starts;

    /**
     * @param jvmOptions e.g. {@code -Xmx1g}
     * @param args       {@code run}'s arguments after {@code --data-dir}
     */
    public ScorerProcess(Path dataDir, List<String> jvmOptions, List<String> args) {
        this.dataDir = dataDir;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.args = List.copyOf(args);
    }

    /** Starts the JVM; returns once it printed its banner. */
    public Duration start(Duration timeout) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        starts++;
        Files.createDirectories(dataDir);
        log = dataDir.resolve("run-" + starts + ".log");
        Optional<Path> launcher = launcher();
        List<String> cmd = new ArrayList<>();
        if (launcher.isPresent()) {
            // started from bin/mmgr: the child is what a user runs, with the launcher's JVM options for run
            cmd.add(launcher.get().toString());
        } else {
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(jvmOptions);
            cmd.add("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.mmgr.stream.avro");
            cmd.addAll(List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                    "io.mmgr.stream.cli.Main"));
        }
        cmd.addAll(List.of("run", "--data-dir", dataDir.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("MMGR_")); // only what the arguments say
        launcher.ifPresent(l -> pb.environment().put("MMGR_JAVA_OPTS", String.join(" ", jvmOptions)));
        process = pb.start();
        long deadline = t0 + timeout.toNanos();
        while (!log().contains(READY)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the scorer exited with " + process.exitValue() + " while starting:\n" + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the scorer did not start within " + timeout + ":\n" + tail());
            }
            Thread.sleep(20);
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /**
     * {@code bin/mmgr} when this JVM was started by it (it says where it lives in {@code mmgr.home}):
     * the launcher execs its JVM, so the process started is the scorer's JVM itself.
     */
    static Optional<Path> launcher() {
        String home = System.getProperty("mmgr.home");
        return Optional.ofNullable(home).map(h -> Path.of(h, "bin", "mmgr")).filter(Files::isExecutable);
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** SIGTERM (a clean stop through the shutdown hook); returns the exit status. */
    public int stop() throws InterruptedException {
        if (process == null) {
            return 0;
        }
        process.destroy();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        return process.exitValue();
    }

    /** CPU time the current (or last) process has used so far, user and system; zero where the OS does not say. */
    public Duration cpu() {
        return process == null ? Duration.ZERO : process.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** What the current (or last) start wrote. */
    public String log() {
        try {
            return log == null || !Files.exists(log) ? "" : Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The end of this start's output, then of the broker's and registry's log: a failed start is diagnosed from both. */
    private String tail() {
        String out = end(log());
        Path side = dataDir.resolve("mmgr.log");
        try {
            if (Files.exists(side)) {
                out += "\n--- " + side + " (end) ---\n" + end(Files.readString(side, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            out += "\n(" + side + " unreadable: " + e.getMessage() + ")";
        }
        return out;
    }

    private static String end(String text) {
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
