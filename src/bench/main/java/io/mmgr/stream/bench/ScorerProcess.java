package io.mmgr.stream.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code mmgr run} (or {@code mmgr judge-worker}, {@link #judgeWorker}) as a child JVM on this JVM's class path,
 * on one data directory: started, killed with SIGKILL (no shutdown hook, the embedded broker dies with it),
 * stopped with SIGTERM, started again. Started from {@code bin/mmgr}, the child is {@code bin/mmgr run} (the JVM
 * options go to {@code MMGR_JAVA_OPTS}); in tests, a JVM on the test class path.
 * Each start logs to its own file in the data directory. No child outlives this JVM: a shutdown hook kills
 * whatever is still running.
 */
public final class ScorerProcess implements AutoCloseable {

    public static final String READY = "mmgr-stream scorer running";
    /** What {@code mmgr judge-worker} prints once it runs. */
    public static final String JUDGE_WORKER_READY = "judge worker running";

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "kill-mmgr-children"));
    }

    private final String command;
    private final String readyText;
    private final Path dataDir;
    private final List<String> jvmOptions;
    private final List<String> args;
    private final Map<String, String> env;
    private Process process;
    private Path log;
    private int starts;

    /**
     * @param jvmOptions e.g. {@code -Xmx1g}
     * @param args       {@code run}'s arguments after {@code --data-dir}
     */
    public ScorerProcess(Path dataDir, List<String> jvmOptions, List<String> args) {
        this("run", READY, dataDir, jvmOptions, args, Map.of());
    }

    private ScorerProcess(String command, String readyText, Path dataDir, List<String> jvmOptions, List<String> args,
                          Map<String, String> env) {
        this.command = command;
        this.readyText = readyText;
        this.dataDir = dataDir;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.args = List.copyOf(args);
        this.env = Map.copyOf(env);
    }

    /**
     * {@code mmgr judge-worker} the same way, ready once it says it runs.
     *
     * @param env variables of the child beyond this JVM's (whose MMGR_* ones are left out: only what the arguments
     *            and this map say configures it), e.g. the one holding the judge's key
     */
    public static ScorerProcess judgeWorker(Path dataDir, List<String> jvmOptions, List<String> args,
                                            Map<String, String> env) {
        return new ScorerProcess("judge-worker", JUDGE_WORKER_READY, dataDir, jvmOptions, args, env);
    }

    /**
     * Any {@code mmgr} command the same way, ready once its output shows {@code readyText}; with MMGR_DATA_DIR in
     * {@code env} no {@code --data-dir} is passed (configured by environment, as a container is).
     */
    public static ScorerProcess of(String command, String readyText, Path dataDir, List<String> jvmOptions, List<String> args,
                                   Map<String, String> env) {
        return new ScorerProcess(command, readyText, dataDir, jvmOptions, args, env);
    }

    /** This JVM's java launcher, which children run on. */
    public static String java() {
        return jdkTool("java");
    }

    /** A tool of this JVM's JDK ({@code java}, {@code jstack}). */
    private static String jdkTool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }

    /** The class path children run on: the test class path under Surefire/Failsafe, else this JVM's. */
    public static String classpath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** Starts the JVM; returns once it printed its banner. */
    public Duration start(Duration timeout) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        starts++;
        Files.createDirectories(dataDir);
        log = dataDir.resolve(command + "-" + starts + ".log");
        Optional<Path> launcher = launcher();
        List<String> cmd = new ArrayList<>();
        if (launcher.isPresent()) {
            // started from bin/mmgr: the child is what a user runs, with the launcher's JVM options for run
            cmd.add(launcher.get().toString());
        } else {
            cmd.add(java());
            cmd.addAll(jvmOptions);
            cmd.add("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.mmgr.stream.avro");
            cmd.addAll(List.of("-cp", classpath(), "io.mmgr.stream.cli.Main"));
        }
        cmd.add(command);
        if (!env.containsKey("MMGR_DATA_DIR")) {
            cmd.addAll(List.of("--data-dir", dataDir.toString()));
        }
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("MMGR_")); // only what the arguments say
        launcher.ifPresent(l -> pb.environment().put("MMGR_JAVA_OPTS", String.join(" ", jvmOptions)));
        pb.environment().putAll(env);
        process = pb.start();
        LIVE.add(process);
        long deadline = t0 + timeout.toNanos();
        while (!log().contains(readyText)) {
            if (!process.isAlive()) {
                LIVE.remove(process);
                throw new IllegalStateException("mmgr " + command + " exited with " + process.exitValue() + " while starting:\n"
                        + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("mmgr " + command + " did not start within " + timeout + ":\n" + tail());
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
            LIVE.remove(process);
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
        LIVE.remove(process);
        return process.exitValue();
    }

    /** CPU time the current (or last) process has used so far, user and system; zero where the OS does not say. */
    public Duration cpu() {
        return process == null ? Duration.ZERO : process.info().totalCpuDuration().orElse(Duration.ZERO);
    }

    public boolean alive() {
        return process != null && process.isAlive();
    }

    /**
     * The running JVM's threads as {@code jstack} prints them (the JDK's, beside this JVM's {@code java}), into
     * {@code file}: where its threads wait during a stall. False when it is not running or the dump failed.
     */
    public boolean threadDump(Path file) throws InterruptedException {
        if (!alive()) {
            return false;
        }
        try {
            Process p = new ProcessBuilder(jdkTool("jstack"), String.valueOf(process.pid()))
                    .redirectErrorStream(true).redirectOutput(file.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The current (or last) start's console log. */
    public Path logFile() {
        return log;
    }

    /** How many times it was started. */
    public int starts() {
        return starts;
    }

    /** What the current (or last) start wrote. */
    public String log() {
        try {
            return log == null || !Files.exists(log) ? "" : Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Everything every start wrote, in order. */
    public String allLogs() {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= starts; i++) {
            Path p = dataDir.resolve(command + "-" + i + ".log");
            try {
                if (Files.exists(p)) {
                    b.append(Files.readString(p, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return b.toString();
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
