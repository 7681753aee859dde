package io.mmgr.stream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** How the load runner turns score records and leaderboard counts into per-sample latencies. */
@Tag("unit")
class LoadRunnerTrackerTest {

    static SampleScore score(long producedAt, long scoredAt, Double primary) {
        return SampleScore.newBuilder().setRunId("r").setModel("m").setCheckpointId("c").setTrainingStep(1).setTask("t")
                .setSampleId("s").setSeed(0).setModality("ui").setGenerationId("g").setStatus("COMPLETE").setPrimary(primary)
                .setPrimarySource(null).setMetrics(Map.of()).setGates(Map.of()).setFailedChecks(List.of())
                .setMissingChecks(List.of()).setPartsUsed(List.of()).setPending(Map.of()).setErrors(Map.of())
                .setJustifications(Map.of()).setProducedAt(Instant.ofEpochMilli(producedAt))
                .setScoredAt(Instant.ofEpochMilli(scoredAt)).build();
    }

    @Test
    void eachSampleWaitsForItsRowToCountItsRank() {
        LoadRunner.Tracker t = new LoadRunner.Tracker("r", 4);
        LeaderboardKey c1 = new LeaderboardKey("r", "c1", "mind2web");
        LeaderboardKey c2 = new LeaderboardKey("r", "c2", "mind2web");
        assertThat(t.score(new SampleKey("r", "c1", "mind2web", "a", 0), () -> score(1000, 1100, 1.0))).isTrue();
        assertThat(t.score(new SampleKey("r", "c1", "mind2web", "a", 0), () -> score(1000, 1300, 1.0)))
                .as("a second record of a sample is not a new sample").isFalse();
        assertThat(t.score(new SampleKey("other", "c1", "mind2web", "a", 0), () -> score(0, 0, 0.0)))
                .as("another run's score").isFalse();
        t.score(new SampleKey("r", "c1", "mind2web", "b", 0), () -> score(1010, 1200, 0.0));
        t.score(new SampleKey("r", "c2", "mind2web", "a", 0), () -> score(1020, 1150, null));
        assertThat(t.boardComplete()).isFalse();
        t.board(c1, 1, 1500);
        t.board(c2, 1, 1600);
        assertThat(t.boardComplete()).as("c1 counts 1 of its 2").isFalse();
        t.board(c1, 2, 1900);
        assertThat(t.boardComplete()).isTrue();
        assertThat(t.scored()).isEqualTo(3);
        assertThat(t.scoreLatencies()).containsExactly(100, 190, 130);
        assertThat(t.boardLatencies()).containsExactly(1500 - 1000, 1900 - 1010, 1600 - 1020);
        assertThat(t.meanPrimary()).isEqualTo(0.5);
    }

    @Test
    void aRowThatJumpsSeveralCountsAtOnceReachesEachOfThemThen() {
        LoadRunner.Tracker t = new LoadRunner.Tracker("r", 3);
        for (String s : List.of("a", "b", "c")) {
            t.score(new SampleKey("r", "c1", "x", s, 0), () -> score(100, 150, 1.0));
        }
        t.board(new LeaderboardKey("r", "c1", "x"), 3, 700);
        assertThat(t.boardLatencies()).containsExactly(600, 600, 600);
        assertThat(LoadReport.percentile(new long[] {5, 1, 3, 2, 4}, 50)).isEqualTo(3);
        assertThat(LoadReport.percentile(new long[] {5, 1, 3, 2, 4}, 100)).isEqualTo(5);
        assertThat(LoadReport.percentile(new long[0], 50)).isEqualTo(-1);
    }
}
