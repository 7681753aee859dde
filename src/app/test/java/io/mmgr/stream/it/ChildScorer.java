package io.mmgr.stream.it;

import io.mmgr.stream.cli.ConsoleLogs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code mmgr run} as a separate JVM on this test's classpath: started against existing Kafka and
 * registry, killed with SIGKILL ({@link #kill()}) or stopped with SIGTERM, and restarted on the same
 * data directory. No child outlives the test JVM: every live process is destroyed by a shutdown hook.
 */
final class ChildScorer implements AutoCloseable {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "kill-child-scorers"));
    }

    private final String command;
    private final String readyText;
    private final String name;
    private final Path dataDir;
    private final List<String> args;
    private final Map<String, String> env;
    private final List<String> jvmArgs;
    private Process process;
    private Path log;
    private int starts;

    /**
     * @param args {@code run}'s arguments after the data directory (endpoints, application id, -P ...)
     */
    ChildScorer(String name, Path dataDir, List<String> args, Map<String, String> env) {
        this(name, dataDir, args, env, List.of());
    }

    /**
     * @param env     environment of the JVM; with MMGR_DATA_DIR set, no --data-dir is passed (configuration by environment)
     * @param jvmArgs extra JVM options (system properties, ...)
     */
    ChildScorer(String name, Path dataDir, List<String> args, Map<String, String> env, List<String> jvmArgs) {
        this("run", "mmgr-stream scorer running", name, dataDir, args, env, jvmArgs);
    }

    private ChildScorer(String command, String readyText, String name, Path dataDir, List<String> args, Map<String, String> env,
                        List<String> jvmArgs) {
        this.command = command;
        this.readyText = readyText;
        this.name = name;
        this.dataDir = dataDir;
        this.args = List.copyOf(args);
        this.env = Map.copyOf(env);
        this.jvmArgs = List.copyOf(jvmArgs);
    }

    /** {@code mmgr judge-worker} instead of {@code run}, the same way (ready when it says it runs). */
    static ChildScorer judgeWorker(String name, Path dataDir, List<String> args, Map<String, String> env, List<String> jvmArgs) {
        return new ChildScorer("judge-worker", "judge worker running", name, dataDir, args, env, jvmArgs);
    }

    /** {@code mmgr run} on its own embedded broker and registry (ports chosen free), ready once {@code readyText} shows. */
    static ChildScorer embedded(String name, Path dataDir, List<String> args, String readyText) {
        List<String> all = new ArrayList<>(List.of("--broker-port", "0", "--registry-port", "0"));
        all.addAll(args);
        return new ChildScorer("run", readyText, name, dataDir, all, Map.of(), List.of());
    }

    static String classpath() {
        // surefire runs tests from a manifest-only jar; it also publishes the real classpath
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Starts the JVM and waits until the scorer says it runs; fails with the log's tail otherwise. */
    ChildScorer start(Duration timeout) throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running");
        }
        starts++;
        Files.createDirectories(dataDir);
        log = dataDir.resolve("scorer-" + starts + ".log");
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.mmgr.stream.avro"));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", classpath(), "io.mmgr.stream.cli.Main", command));
        if (!env.containsKey("MMGR_DATA_DIR")) {
            cmd.addAll(List.of("--data-dir", dataDir.toString()));
        }
        cmd.addAll(args);
        if (command.equals("run") && !env.containsKey("MMGR_WEB_PORT") && !args.contains("--web-port") && !args.contains("--no-web")) {
            // several instances on one machine: each serves its dashboard on a port of its own
            cmd.addAll(List.of("--web-port", "0"));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        // only what the test sets: MMGR_* variables of the machine running the tests do not leak in
        pb.environment().keySet().removeIf(k -> k.startsWith("MMGR_"));
        pb.environment().putAll(env);
        process = pb.start();
        LIVE.add(process);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!log().contains(readyText)) {
            if (!process.isAlive()) {
                LIVE.remove(process);
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " while starting:\n" + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not start within " + timeout + ":\n" + tail());
            }
            Thread.sleep(100);
        }
        return this;
    }

    /** SIGKILL: no shutdown hook, no leaving the group, an open transaction left behind. */
    void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
            LIVE.remove(process);
        }
    }

    /** SIGTERM: the scorer's shutdown hook closes it cleanly. */
    int stop() throws InterruptedException {
        if (process == null) {
            return 0;
        }
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        LIVE.remove(process);
        return process.exitValue();
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    int starts() {
        return starts;
    }

    /** Everything the current (or last) JVM wrote to stdout and stderr. */
    String log() {
        try {
            return log == null || !Files.exists(log) ? "" : Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Every log this scorer wrote, over all its starts. */
    String allLogs() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= starts; i++) {
            Path p = dataDir.resolve("scorer-" + i + ".log");
            if (Files.exists(p)) {
                sb.append(Files.readString(p, StandardCharsets.UTF_8));
            }
        }
        return sb.toString();
    }

    /** A WARN or ERROR line of the console's layout (log4j2.xml) or of mmgr.log's (ConsoleLogs): [date] time, level. */
    private static final Pattern WARNING = Pattern.compile("(\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (WARN|ERROR) ");

    /**
     * The scorer's last warnings and errors, one line each and each message once, for a failure message: the
     * plain tail of a stuck scorer's log is mostly the same INFO line repeated. They are read from mmgr.log in
     * its data directory, which alone holds the Kafka clients' and Streams' lines (the console gets only ours),
     * or from the console's log when a log4j2 configuration of its own left no mmgr.log.
     */
    String problems() {
        Path file = dataDir.resolve(ConsoleLogs.FILE);
        String text;
        try {
            text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : log();
        } catch (IOException e) {
            text = log();
        }
        LinkedHashMap<String, String> last = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = WARNING.matcher(line);
            if (m.lookingAt()) {
                String message = line.substring(m.end()).replaceAll("\\d+", "#");
                last.remove(message); // keep the latest occurrence, in order
                // a client's line starts with its long client and transactional ids and ends with the error: keep both ends
                last.put(message, line.length() <= 300 ? line : line.substring(0, 90) + " … " + line.substring(line.length() - 200));
            }
        }
        List<String> lines = new ArrayList<>(last.values());
        return name + "'s last warnings:\n  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 12), lines.size()));
    }

    /** A logger line of the console's layout (log4j2.xml): time, level, thread, the logger's short name. */
    static final Pattern CONSOLE_LOGGER = Pattern.compile("(?m)^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} +(?:TRACE|DEBUG|INFO|WARN|ERROR) +\\[[^\\]]*\\] (\\S+) - ");

    /**
     * The console's logger lines that are not the scorer's own: mmgr.log names each logger in full, so a console
     * line whose short name stands there only under another package came from Kafka (or another library).
     */
    List<String> foreignConsoleLines() throws IOException {
        Path file = dataDir.resolve(ConsoleLogs.FILE);
        String full = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        List<String> foreign = new ArrayList<>();
        Matcher m = CONSOLE_LOGGER.matcher(log());
        while (m.find()) {
            if (!Pattern.compile("\\] io\\.mmgr\\.[\\w.]*\\b" + Pattern.quote(m.group(1)) + " - ").matcher(full).find()) {
                foreign.add(m.group());
            }
        }
        return foreign;
    }

    /** The WARN and ERROR lines of Kafka's own loggers in mmgr.log. */
    long kafkaWarningsInFile() throws IOException {
        Path file = dataDir.resolve(ConsoleLogs.FILE);
        if (!Files.exists(file)) {
            return 0;
        }
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(l -> l.matches("\\d{4}-\\d\\d-\\d\\d \\S+ (WARN|ERROR) +\\[[^\\]]*\\] org\\.apache\\.kafka\\..*")).count();
    }

    private String tail() {
        String all = log();
        return all.length() <= 4000 ? all : all.substring(all.length() - 4000);
    }

    @Override
    public void close() throws InterruptedException {
        if (alive()) {
            kill();
        }
    }
}
