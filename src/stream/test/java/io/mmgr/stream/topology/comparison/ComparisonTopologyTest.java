package io.mmgr.stream.topology.comparison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.ComparisonResult;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.leaderboard.AlertRule;
import io.mmgr.stream.topology.EchoTask;
import io.mmgr.stream.topology.Fixtures;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.topology.TopologyRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint comparison on its own ({@link ComparisonTopology#build} called directly, beside the global
 * benchmark table): 20 items, the first checkpoint passing 18, the second only the first 6 of those, so the
 * 12 discordant pairs all go one way (exact McNemar: p = 2 / 2^12) and the drop is an alert.
 */
@Tag("topology")
class ComparisonTopologyTest {

    static final int ITEMS = 20;
    static final String RUN = "run-c";

    @TempDir
    Path dir;

    TopologyFixture fx;
    TestInputTopic<SampleKey, SampleScore> scores;
    TestOutputTopic<LeaderboardKey, CheckpointComparison> comparisons;
    TestOutputTopic<LeaderboardKey, Alert> alerts;

    static Topic<SampleKey, SampleScore> scoreTopic(ScorerContext ctx) {
        return new Topic<>("c.test-scores", ctx.serdes().forKeys(SampleKey.class), ctx.serdes().forValues(SampleScore.class));
    }

    @BeforeEach
    void start() {
        fx = TopologyFixture.builder("c.", dir)
                .context(c -> c.comparisons(new ComparisonSettings(new AlertRule(0.01, 0.05, 20), Duration.ofMillis(500))))
                .subFlows((builder, ctx) -> {
                    TopologyFixture.benchmarkTable(builder, ctx);
                    Topic<SampleKey, SampleScore> s = scoreTopic(ctx);
                    ComparisonTopology.build(builder, ctx.comparisonDeps(), builder.stream(s.name(), s.consumed("test-scores-source")));
                });
        scores = fx.input(scoreTopic(fx.context));
        comparisons = fx.output(fx.topics.comparisons);
        alerts = fx.output(fx.topics.alerts);
        for (int i = 0; i < ITEMS; i++) {
            fx.item(Fixtures.item(EchoTask.TASK, "s" + i, 1));
        }
    }

    @AfterEach
    void close() {
        fx.close();
    }

    void checkpoint(String checkpoint, long step, int passing) {
        for (int i = 0; i < ITEMS; i++) {
            String sample = "s" + i;
            scores.pipeInput(new SampleKey(RUN, checkpoint, EchoTask.TASK, sample, 0),
                    TopologyRecords.score(RUN, checkpoint, step, EchoTask.TASK, sample, i < passing ? 1 : 0));
        }
        fx.driver.advanceWallClockTime(Duration.ofSeconds(1));
    }

    @Test
    void aCheckpointIsComparedWithThePreviousOnePairedBySampleAndASignificantDropIsAnAlert() {
        checkpoint("c1", 100, 18);
        checkpoint("c2", 200, 6);

        Map<LeaderboardKey, CheckpointComparison> latest = comparisons.readKeyValuesToMap();
        CheckpointComparison first = latest.get(new LeaderboardKey(RUN, "c1", EchoTask.TASK));
        assertThat(first.getRate()).isCloseTo(0.9, within(1e-12));
        assertThat(first.getSamplesExpected()).isEqualTo(ITEMS);
        assertThat(first.getVsPrevious()).as("nothing before the first checkpoint").isNull();

        CheckpointComparison second = latest.get(new LeaderboardKey(RUN, "c2", EchoTask.TASK));
        assertThat(second.getSamplesWithPrimary()).isEqualTo(ITEMS);
        ComparisonResult vs = second.getVsPrevious();
        assertThat(vs.getBaselineCheckpointId()).isEqualTo("c1");
        assertThat(vs.getSamples()).isEqualTo(ITEMS);
        assertThat(vs.getRate()).isCloseTo(0.3, within(1e-12));
        assertThat(vs.getBaselineRate()).isCloseTo(0.9, within(1e-12));
        assertThat(vs.getDifference()).isCloseTo(-0.6, within(1e-12));
        assertThat(vs.getPValue()).isCloseTo(2.0 / (1 << 12), within(1e-12));
        assertThat(vs.getSignificantDrop()).isTrue();

        assertThat(alerts.readKeyValuesToMap()).containsKey(new LeaderboardKey(RUN, "c2", EchoTask.TASK))
                .doesNotContainKey(new LeaderboardKey(RUN, "c1", EchoTask.TASK));
    }
}
