package io.mmgr.stream.bench;

import io.mmgr.stream.embedded.EmbeddedKafka;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The reference a restart is compared with on a shared machine: a new JVM that starts the embedded
 * broker in an empty directory (formatting included) and nothing else. Run as a child by
 * {@link #measure}; it prints when the broker answered, in wall and CPU seconds since its JVM started.
 */
public final class BrokerColdStart {

    private static final String PREFIX = "broker cold start: ";

    /** Wall and CPU time from the JVM's start to a broker answering metadata requests. */
    public record Result(double wallSeconds, double cpuSeconds) {
        public String describe() {
            return String.format(Locale.ROOT, "%.1f s (CPU %.1f s)", wallSeconds, cpuSeconds);
        }
    }

    private BrokerColdStart() {
    }

    /** Child entry point: {@code BrokerColdStart DIR}. */
    public static void main(String[] args) {
        EmbeddedKafka.start(Path.of(args[0]), 0);
        double wall = (System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime()) / 1000.0;
        double cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
        System.out.printf(Locale.ROOT, "%s%.3f %.3f%n", PREFIX, wall, cpu);
        System.out.flush();
        Runtime.getRuntime().halt(0); // a clean broker stop would only add to the measurement's run time
    }

    /** Runs the reference once in a new JVM with {@code jvmOptions}, in a new directory under {@code parent}. */
    public static Result measure(List<String> jvmOptions, Path parent, Duration timeout) throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(parent), "reference-broker-");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                BrokerColdStart.class.getName(), dir.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            StringBuilder seen = new StringBuilder();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                int at = line.indexOf(PREFIX);
                if (at >= 0) {
                    String[] f = line.substring(at + PREFIX.length()).trim().split(" ");
                    return new Result(Double.parseDouble(f[0]), Double.parseDouble(f[1]));
                }
                seen.append(line).append('\n');
            }
            throw new IllegalStateException("the reference broker did not start:\n" + seen);
        } finally {
            p.destroyForcibly();
            p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            RestartBench.deleteRecursively(dir);
        }
    }
}
