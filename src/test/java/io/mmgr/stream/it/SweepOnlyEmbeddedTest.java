package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hanging-transaction sweep (raw WriteTxnMarkers frames, reads of {@code __transaction_state}) runs only
 * beside the embedded broker: {@code mmgr run} on its own stack starts it before the scorer says it runs;
 * {@code mmgr run --bootstrap-servers} on a cluster it is given never does. Two child JVMs as a user starts them.
 */
@Tag("integration")
class SweepOnlyEmbeddedTest {

    /** HangingTransactions' line when a sweep starts; the scorer starts it before the ready line, or never. */
    static final String SWEEP = "sweeping the scorer's partitions for hanging transactions every 10 s (embedded broker)";
    static final String READY = "mmgr-stream scorer running";
    static final Duration START = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    @Test
    void theEmbeddedStackSweepsAndAGivenClusterIsLeftAlone() throws Exception {
        try (Infrastructure cluster = new Infrastructure(dir.resolve("cluster"));
             ChildScorer external = new ChildScorer("external", dir.resolve("external"), List.of(
                     "--bootstrap-servers", cluster.bootstrapServers(), "--schema-registry-url", cluster.registryUrl(),
                     "--partitions", "2", "--replication-factor", "1", "--no-web"), Map.of());
             ChildScorer embedded = ChildScorer.embedded("embedded", dir.resolve("embedded"), List.of("--partitions", "2", "--no-web"),
                     READY)) {
            // side by side: most of a start is waiting
            CompletableFuture.allOf(CompletableFuture.runAsync(() -> start(external)),
                    CompletableFuture.runAsync(() -> start(embedded))).join();

            String withStack = embedded.log();
            assertThat(withStack).as("the embedded stack's run").contains(SWEEP, "(embedded broker, started in ");
            assertThat(withStack.indexOf(SWEEP)).as("the sweep starts before the scorer says it runs")
                    .isLessThan(withStack.indexOf(READY));

            String onCluster = external.log();
            assertThat(onCluster).as("the run on a given cluster, up").contains(READY)
                    .contains("Kafka bootstrap servers : " + cluster.bootstrapServers() + "\n")
                    .doesNotContain(SWEEP);
        }
    }

    private static void start(ChildScorer scorer) {
        try {
            scorer.start(START);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
