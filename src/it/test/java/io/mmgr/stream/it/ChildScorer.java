package io.mmgr.stream.it;

import io.mmgr.stream.bench.ScorerProcess;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code mmgr run} as a separate JVM on this test's classpath, through the bench harness's {@link ScorerProcess}
 * (start, SIGKILL, SIGTERM, restart on the same data directory, no child outliving the test JVM), with what the
 * tests read of it beside: its warnings, the console's foreign logger lines, Kafka's lines in mmgr.log.
 */
final class ChildScorer implements AutoCloseable {

    /**
     * The client compiler alone, and the serial collector: the tests' children are started and stopped far more than
     * they score (a demo start to its simulation took 12 CPU-s so against 22-30; a --help JVM 1.2-1.5 against 2.6-2.8).
     */
    static final List<String> FAST_START = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final List<String> JVM = java.util.stream.Stream.concat(java.util.stream.Stream.of("-Xmx384m"),
            FAST_START.stream()).toList();

    private final String name;
    private final Path dataDir;
    private final ScorerProcess process;

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
        this("run", ScorerProcess.READY, name, dataDir, args, env, jvmArgs);
    }

    private ChildScorer(String command, String readyText, String name, Path dataDir, List<String> args, Map<String, String> env,
                        List<String> jvmArgs) {
        this.name = name;
        this.dataDir = dataDir;
        List<String> all = new ArrayList<>(args);
        if (command.equals("run") && !env.containsKey("MMGR_WEB_PORT") && !args.contains("--web-port") && !args.contains("--no-web")) {
            // several instances on one machine: each serves its dashboard on a port of its own
            all.addAll(List.of("--web-port", "0"));
        }
        List<String> jvm = new ArrayList<>(JVM);
        jvm.addAll(jvmArgs);
        this.process = ScorerProcess.of(command, readyText, dataDir, jvm, all, env);
    }

    /** {@code mmgr judge-worker} instead of {@code run}, the same way (ready when it says it runs). */
    static ChildScorer judgeWorker(String name, Path dataDir, List<String> args, Map<String, String> env, List<String> jvmArgs) {
        return new ChildScorer("judge-worker", ScorerProcess.JUDGE_WORKER_READY, name, dataDir, args, env, jvmArgs);
    }

    /** {@code mmgr run} on its own embedded broker and registry (ports chosen free), ready once {@code readyText} shows. */
    static ChildScorer embedded(String name, Path dataDir, List<String> args, String readyText) {
        List<String> all = new ArrayList<>(List.of("--broker-port", "0", "--registry-port", "0"));
        all.addAll(args);
        return new ChildScorer("run", readyText, name, dataDir, all, Map.of(), List.of());
    }

    static String classpath() {
        return ScorerProcess.classpath();
    }

    static String java() {
        return ScorerProcess.java();
    }

    /** Starts the JVM and waits until the scorer says it runs; fails with the log's tail otherwise. */
    ChildScorer start(Duration timeout) throws IOException, InterruptedException {
        if (process.alive()) {
            throw new IllegalStateException(name + " is already running");
        }
        try {
            process.start(timeout);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
        return this;
    }

    /** SIGKILL: no shutdown hook, no leaving the group, an open transaction left behind. */
    void kill() throws InterruptedException {
        process.kill();
    }

    /** SIGTERM: the scorer's shutdown hook closes it cleanly. */
    int stop() throws InterruptedException {
        return process.stop();
    }

    boolean alive() {
        return process.alive();
    }

    int starts() {
        return process.starts();
    }

    /** Everything the current (or last) JVM wrote to stdout and stderr. */
    String log() {
        return process.log();
    }

    /** Every log this scorer wrote, over all its starts. */
    String allLogs() {
        return process.allLogs();
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

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
