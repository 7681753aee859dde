package io.mmgr.stream.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.leaderboard.Aggregates;
import io.mmgr.stream.topology.TopologyRecords;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cluster run's recomputation of a leaderboard row from sample scores, done on its own: it agrees with the
 * row the leaderboard's aggregation publishes for the same scores, and tells a row that counted a sample twice,
 * missed one or holds another mean.
 */
@Tag("unit")
class ClusterChecksTest {

    static final List<SampleScore> SCORES = List.of(
            TopologyRecords.score("r", "c", 1, "t", "a", 1.0),
            TopologyRecords.score("r", "c", 1, "t", "b", 0.0),
            TopologyRecords.score("r", "c", 1, "t", "d", 1.0),
            pending(TopologyRecords.score("r", "c", 1, "t", "e", 1.0)));

    static SampleScore pending(SampleScore s) {
        s.setStatus("PENDING");
        s.setPrimary(null);
        return s;
    }

    static LeaderboardRow published(List<SampleScore> scores) {
        ScoreAggregate sum = Aggregates.empty();
        for (SampleScore s : scores) {
            sum = Aggregates.add(sum, Aggregates.ofScore(s));
        }
        return Aggregates.toRow("r", "c", "t", sum, Instant.EPOCH);
    }

    static ClusterChecks.Recomputed recomputed(List<SampleScore> scores) {
        ClusterChecks.Recomputed r = new ClusterChecks.Recomputed();
        scores.forEach(r::add);
        return r;
    }

    @Test
    void theRowTheLeaderboardPublishesMatches() {
        assertThat(recomputed(SCORES).differenceFrom(published(SCORES))).isNull();
    }

    @Test
    void aRowCountingASampleTwiceOrMissingOneOrWithAnotherMeanDoesNot() {
        List<SampleScore> twice = new java.util.ArrayList<>(SCORES);
        twice.add(TopologyRecords.score("r", "c", 1, "t", "a", 1.0));
        assertThat(recomputed(SCORES).differenceFrom(published(twice))).contains("scored 4 != 3", "primary count/successes 4/3 != 3/2");
        assertThat(recomputed(SCORES).differenceFrom(published(SCORES.subList(1, 4)))).contains("scored 2 != 3");

        LeaderboardRow shifted = published(SCORES);
        shifted.setPrimaryRate(shifted.getPrimaryRate() + 0.01);
        assertThat(recomputed(SCORES).differenceFrom(shifted)).startsWith("primary rate");
        assertThat(recomputed(SCORES).differenceFrom(null)).isEqualTo("no row");
    }
}
