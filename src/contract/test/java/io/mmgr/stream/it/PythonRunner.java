package io.mmgr.stream.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs Debian's python3 with the repository's Python client on its path (clients/python), as a training
 * job would. The client needs python3-confluent-kafka and python3-avro (.ci/run installs them); without
 * them a test fails in CI and is skipped elsewhere (see {@link SystemPackages}).
 */
public final class PythonRunner {

    public static final Path CLIENT = Path.of("clients", "python").toAbsolutePath();
    static final String SETUP = " Install the Debian packages python3-confluent-kafka, python3-avro, python3-numpy, python3-pil, python3-boto3 "
            + "and python3-pip (.ci/run does: it runs apt-get for them).";

    private PythonRunner() {
    }

    /** Debian's python3 (the packages install for it), not whatever python3 a version manager puts first. */
    public static String python() {
        return System.getProperty("mmgr.python", Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3");
    }

    /** Skips (or in CI fails) the test when the client's packages cannot be imported. */
    public static void requireClient() throws InterruptedException {
        Result check = run(List.of("-c", "import confluent_kafka, avro, numpy, PIL; print(confluent_kafka.version()[0])"),
                Map.of(), Path.of("."));
        SystemPackages.require(check.code() == 0, python() + " cannot import confluent_kafka/avro/numpy/PIL: " + check.out().trim()
                + "." + SETUP, "mmgr.interop.required");
    }

    public record Result(int code, String out, Duration took) {
    }

    public static Result run(List<String> args, Map<String, String> env, Path workDir) throws InterruptedException {
        return run(args, env, workDir, Duration.ofMinutes(2));
    }

    /** Runs {@code python3 ARGS} with stdout and stderr together; a process over the time limit is killed (code -1). */
    public static Result run(List<String> args, Map<String, String> env, Path workDir, Duration limit) throws InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(python());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true);
        String path = pb.environment().get("PYTHONPATH");
        pb.environment().put("PYTHONPATH", CLIENT + (path == null || path.isEmpty() ? "" : java.io.File.pathSeparator + path));
        pb.environment().put("PYTHONUNBUFFERED", "1");
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        try {
            Process p = pb.start();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Thread reader = new Thread(() -> {
                try {
                    p.getInputStream().transferTo(out);
                } catch (IOException ignored) {
                    // the process ended
                }
            });
            reader.start();
            boolean done = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            reader.join(10_000);
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            String text = out.toString(StandardCharsets.UTF_8);
            return done ? new Result(p.exitValue(), text, took)
                    : new Result(-1, text + "\n[killed after " + limit.toSeconds() + " s: " + String.join(" ", cmd) + "]", took);
        } catch (IOException e) {
            return new Result(-1, e.getMessage(), Duration.ofNanos(System.nanoTime() - t0));
        }
    }
}
