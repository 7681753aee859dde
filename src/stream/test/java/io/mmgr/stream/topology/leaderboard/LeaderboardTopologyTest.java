package io.mmgr.stream.topology.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.topology.EchoTask;
import io.mmgr.stream.topology.Fixtures;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.topology.TopologyRecords;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leaderboard on its own ({@link LeaderboardTopology#build} called directly, beside the global
 * benchmark table): sample scores and Fréchet distances are piped in as assembly and the Fréchet sub-flow
 * publish them, with primaries chosen here, so every count and rate on the rows is known.
 */
@Tag("topology")
class LeaderboardTopologyTest {

    static final String TASK = EchoTask.TASK;
    static final LeaderboardKey ROW = new LeaderboardKey("run", "c1", TASK);
    static final LeaderboardKey ALL = new LeaderboardKey("run", "c1", SampleKeys.ALL_TASKS);

    @TempDir
    Path dir;

    TopologyFixture fx;
    TestInputTopic<SampleKey, SampleScore> scores;
    TestInputTopic<LeaderboardKey, FrechetStat> distances;
    TestOutputTopic<LeaderboardKey, LeaderboardRow> board;
    final Map<LeaderboardKey, LeaderboardRow> rows = new HashMap<>();

    /** Assembly's scores and the Fréchet sub-flow's distances, as topics of this test. */
    static Topic<SampleKey, SampleScore> scoreTopic(ScorerContext ctx) {
        return new Topic<>("l.test-scores", ctx.serdes().forKeys(SampleKey.class), ctx.serdes().forValues(SampleScore.class));
    }

    static Topic<LeaderboardKey, FrechetStat> distanceTopic(ScorerContext ctx) {
        return new Topic<>("l.test-frechet", ctx.stores().frechetStats.keySerde(), ctx.stores().frechetStats.valueSerde());
    }

    @BeforeEach
    void start() {
        fx = TopologyFixture.builder("l.", dir).subFlows((builder, ctx) -> {
            TopologyFixture.benchmarkTable(builder, ctx);
            Topic<SampleKey, SampleScore> s = scoreTopic(ctx);
            Topic<LeaderboardKey, FrechetStat> f = distanceTopic(ctx);
            LeaderboardTopology.build(builder, ctx.leaderboardDeps(), builder.table(s.name(), s.consumed("test-scores-source"),
                            ctx.stores().sampleScores.materialized().withCachingDisabled()),
                    builder.table(f.name(), f.consumed("test-frechet-source"), ctx.stores().frechetStats.materialized()));
        });
        scores = fx.input(scoreTopic(fx.context));
        distances = fx.input(distanceTopic(fx.context));
        board = fx.output(fx.topics.leaderboard);
        for (int i = 0; i < 4; i++) {
            fx.item(Fixtures.item(TASK, "s" + i, 1));
        }
    }

    @AfterEach
    void close() {
        fx.close();
    }

    void score(String sample, double primary) {
        SampleScore s = TopologyRecords.score("run", "c1", 100, TASK, sample, primary);
        scores.pipeInput(new SampleKey("run", "c1", TASK, sample, 0), s);
    }

    LeaderboardRow row(LeaderboardKey k) {
        rows.putAll(board.readKeyValuesToMap());
        return rows.get(k);
    }

    @Test
    void rowsCountTheScoredSamplesAgainstTheBenchmarkAndAReScoreReplacesItsContribution() {
        score("s0", 1);
        score("s1", 0);
        score("s2", 1);
        LeaderboardRow task = row(ROW);
        assertThat(task.getSamplesExpected()).isEqualTo(4);
        assertThat(task.getSamplesScored()).isEqualTo(3);
        assertThat(task.getPrimaryCount()).isEqualTo(3);
        assertThat(task.getPrimarySuccesses()).isEqualTo(2);
        assertThat(task.getModel()).isEqualTo("m");
        LeaderboardRow all = row(ALL);
        assertThat(all.getSamplesExpected()).as("every sample of the benchmark").isEqualTo(4);
        assertThat(all.getPrimarySuccesses()).isEqualTo(2);

        score("s1", 1);
        task = row(ROW);
        assertThat(task.getSamplesScored()).as("replaced, not added").isEqualTo(3);
        assertThat(task.getPrimarySuccesses()).isEqualTo(3);
        assertThat(row(ALL).getPrimarySuccesses()).isEqualTo(3);

        assertThat(fx.store(fx.stores.leaderboardRows).get(ROW)).as("the store the REST API reads holds the row as published")
                .isEqualTo(task);
    }

    /**
     * Items that come after the row's count was cached (within its second) still count once their samples
     * are scored: a row never shows more samples scored than expected because of the cache.
     */
    @Test
    void itemsAddedAfterTheCountWasCachedCountOnceTheirSamplesAreScored() {
        for (int i = 0; i < 4; i++) {
            score("s" + i, 1);
        }
        assertThat(row(ROW).getSamplesExpected()).isEqualTo(4);
        fx.item(Fixtures.item(TASK, "s4", 1));
        fx.item(Fixtures.item(TASK, "s5", 1));
        score("s4", 1);
        score("s5", 0);
        LeaderboardRow task = row(ROW);
        assertThat(task.getSamplesScored()).isEqualTo(6);
        assertThat(task.getSamplesExpected()).isEqualTo(6);
        assertThat(row(ALL).getSamplesExpected()).isEqualTo(6);
    }

    @Test
    void aRowCarriesItsLatestFrechetDistance() {
        score("s0", 1);
        distances.pipeInput(ROW, FrechetStat.newBuilder().setMetric("fid").setFeature("inception").setValue(12.5)
                .setSamples(1).setDims(16).setComputedAt(Instant.ofEpochMilli(1_700_000_005_000L)).build());
        LeaderboardRow task = row(ROW);
        assertThat(task.getFrechet()).containsKey("fid");
        assertThat(task.getFrechet().get("fid").getValue()).isEqualTo(12.5);
        assertThat(task.getSamplesScored()).isEqualTo(1);
    }
}
