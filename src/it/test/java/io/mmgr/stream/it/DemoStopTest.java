package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on {@code bin/mmgr demo} (issue 15): the demo, a child JVM as a user runs it, gets the signal while it
 * publishes checkpoints. It says what it is doing and is gone within 5 s; the next start on the same data
 * directory comes up again (what the stop left unfinished is recovered as after a crash).
 */
@Tag("integration")
@Tag("alone")
class DemoStopTest {

    static final String SIMULATING = "Simulating the training run:";
    /** The simulation's line for its first checkpoint, printed once that checkpoint's generations are published. */
    static final String FIRST_CHECKPOINT = "  ckpt-1000 (";

    @TempDir
    Path dir;

    @Test
    void ctrlCSaysWhatItStopsAndExitsWithinFiveSeconds() throws Exception {
        Path data = dir.resolve("data");
        for (int start = 1; start <= 2; start++) {
            Path log = dir.resolve("demo-" + start + ".log");
            Process demo = startDemo(data, log);
            try {
                awaitLine(demo, log, SIMULATING, Duration.ofMinutes(3));
                // a checkpoint on its way: published, and being scored (awaited, not a fixed 1.5 s sleep)
                awaitLine(demo, log, FIRST_CHECKPOINT, Duration.ofMinutes(1));
                long t0 = System.nanoTime();
                // SIGTERM, which the JVM handles as it does Ctrl-C's SIGINT (the same shutdown hooks): a build
                // started as a background job inherits SIGINT ignored, and the JVM then leaves it ignored
                Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(demo.pid())).inheritIO().start();
                assertThat(kill.waitFor()).as("kill -TERM").isZero();
                boolean exited = demo.waitFor(10, TimeUnit.SECONDS);
                double seconds = (System.nanoTime() - t0) / 1e9;
                String text = Files.readString(log, StandardCharsets.UTF_8);
                System.out.printf("demo start %d: exited %.2f s after SIGTERM (load average %s)%n", start, seconds,
                        Files.readString(Path.of("/proc/loadavg")).trim());
                assertThat(exited).as("the demo exited after SIGTERM; its output:\n%s", text).isTrue();
                assertThat(text).contains("Stopping the demo: the simulation, the scorer, then the broker and registry ...");
                assertThat(text).containsPattern("Stopped in \\d+\\.\\d s\\.|Not stopped after \\d+\\.\\d s; exiting anyway");
                assertThat(seconds).as("seconds from SIGTERM to exit").isLessThanOrEqualTo(5.0);
            } finally {
                demo.destroyForcibly().waitFor();
            }
        }
        assertThat(data.resolve("endpoints.properties")).as("the endpoints file client commands read").exists();
    }

    static Process startDemo(Path data, Path log) throws IOException {
        // started as ChildScorer's children are (the stop took the same with either JVM; MMGR_JAVA_OPTS offers users this)
        List<String> cmd = new ArrayList<>(List.of(ChildScorer.java(), "-Xmx768m"));
        cmd.addAll(ChildScorer.FAST_START);
        cmd.addAll(List.of("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.mmgr.stream.avro", "-cp", ChildScorer.classpath(),
                "io.mmgr.stream.cli.Main", "demo", "--data-dir", data.toString(), "--web-port", "0",
                "--broker-port", "0", "--registry-port", "0", "--no-open", "--items", "4", "--checkpoints", "20",
                "--interval", "PT1S", "--tasks", "magma"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("MMGR_"));
        return pb.start();
    }

    static void awaitLine(Process p, Path log, String line, Duration timeout) {
        java.util.concurrent.Callable<String> output = () -> Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        Awaitility.await("'" + line + "' in the demo's output").atMost(timeout).pollInSameThread().pollDelay(Duration.ZERO)
                .failFast("the demo exited", () -> assertThat(p.isAlive()).as("the demo is running; its output:\n%s", output.call()).isTrue())
                .until(output, text -> text.contains(line));
    }
}
