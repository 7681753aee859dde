package io.mmgr.stream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mmgr run} with its embedded broker as a child process, under a steady load: killed with
 * SIGKILL, stopped cleanly, and started without its local state. What is asserted does not depend on
 * the machine's speed: every restart scores again, a clean restart restores nothing, a crash
 * restores less than a start from nothing, and a restart with local state builds its topology and
 * checks that state while the broker starts. The times are printed beside the load average; the
 * figures for docs/benchmarks.md come from {@code bin/mmgr bench restart} on a quiet machine. Not {@code alone}: it
 * holds no latency bound (its deadlines are minutes), and its child JVM leaves half the CPU idle, so it runs
 * beside the other integration tests (in this module, not the bench module, whose other tests take seconds).
 */
@Tag("integration")
class RestartBenchTest {

    @TempDir
    Path dir;

    @Test
    void aCleanRestartRestoresNothingAndACrashLessThanAStartFromNothing() throws Exception {
        // enough samples that the large stores flush their 512 KiB write buffers a few times
        // a second of load between restarts; no reference broker start (bin/mmgr bench restart measures it for
        // docs/benchmarks.md): nothing here is asserted against it, and its JVM and broker start cost seconds
        RestartBench.Settings s = new RestartBench.Settings(dir.resolve("run"), 6, 2, 4000, 1, true, true, 20,
                Duration.ofSeconds(1), 0, 0, List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), List.of(),
                Duration.ofMinutes(5), false);
        StringWriter text = new StringWriter();
        List<RestartBench.Restart> restarts = RestartBench.run(s, new PrintWriter(text, true));
        System.out.print(text);
        System.out.println(RestartBench.header());
        restarts.forEach(r -> System.out.println(r.row()));

        Map<String, RestartBench.Restart> byKind = restarts.stream()
                .collect(Collectors.toMap(RestartBench.Restart::kind, Function.identity()));
        RestartBench.Restart crash = byKind.get("kill -9");
        RestartBench.Restart clean = byKind.get("clean");
        RestartBench.Restart empty = byKind.get("no state");
        assertThat(restarts).allSatisfy(r -> assertThat(r.toScore()).as("%s: scoring again", r.kind())
                .isPositive().isLessThan(Duration.ofMinutes(5)));
        assertThat(clean.restoredRecords()).as("records restored after a clean stop").isZero();
        assertThat(empty.restoredRecords()).as("records restored into an empty state directory").isPositive();
        assertThat(crash.restoredRecords()).as("records restored after kill -9, against a start from nothing")
                .isNotNegative().isLessThan(empty.restoredRecords());
        // a restart builds its topology and checks its local state while the broker starts; without
        // local state (and the record limits kept beside it) it waits for the broker first
        assertThat(crash.startup()).as("kill -9 restart's start-up steps").contains("prepared while the broker started")
                .contains("local-state-check").contains("broker");
        assertThat(clean.startup()).contains("prepared while the broker started");
        assertThat(empty.startup()).as("start without local state").isNotBlank().doesNotContain("prepared while");
    }
}
