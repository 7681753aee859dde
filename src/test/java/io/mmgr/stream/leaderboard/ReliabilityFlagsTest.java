package io.mmgr.stream.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.MetricStat;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReliabilityFlagsTest {

    static LeaderboardRow row(long scored, long partial, long pending, long failed, long primaries, Map<String, MetricStat> metrics) {
        return LeaderboardRow.newBuilder().setRunId("r").setCheckpointId("c").setTrainingStep(1).setTask("t")
                .setSamplesExpected(100).setSamplesScored(scored).setSamplesPartial(partial).setSamplesPending(pending)
                .setSamplesFailed(failed).setPrimaryCount(primaries).setPrimarySuccesses(0).setMetrics(metrics)
                .setUpdatedAt(Instant.EPOCH).build();
    }

    @Test
    void aCleanLargeRowHasNoFlags() {
        assertThat(ReliabilityFlags.builtIn(row(100, 0, 0, 0, 100, Map.of()))).isEmpty();
    }

    @Test
    void eachReasonForCareIsFlaggedWithItsCount() {
        var flags = ReliabilityFlags.builtIn(row(40, 12, 3, 2, 25,
                Map.of("robot-trials.trial_count_mismatch", new MetricStat(0.5, 4L))));
        assertThat(flags).extracting(ReliabilityFlags.Flag::code)
                .containsExactly("partial", "pending", "failed", "small-sample", "trial-protocol");
        assertThat(flags.get(0).text()).startsWith("12 samples");
        assertThat(flags.get(1).text()).startsWith("3 samples");
        assertThat(flags.get(2).level()).isEqualTo("warn");
        assertThat(flags.get(3).text()).contains("only 25 samples");
    }

    @Test
    void aRobotSuiteRunToProtocolIsNotFlagged() {
        assertThat(ReliabilityFlags.builtIn(row(100, 0, 0, 0, 100,
                Map.of("robot-trials.trial_count_mismatch", new MetricStat(0.0, 4L))))).isEmpty();
    }
}
