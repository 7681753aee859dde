package io.mmgr.stream.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.MetricSum;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.ScoreAggregate;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The additive leaderboard state: sample -> item (pass@k) -> task row -> all-tasks row, and replacing a score. */
@Tag("unit")
class AggregatesTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    static SampleScore score(String sample, int seed, String status, Double primary, Map<String, Double> metrics,
                             Map<String, Double> gates) {
        return SampleScore.newBuilder()
                .setRunId("run").setModel("m").setCheckpointId("c1").setTrainingStep(100).setTask("maze")
                .setSampleId(sample).setSeed(seed).setModality("image").setGenerationId("g-" + sample + "-" + seed)
                .setStatus(status).setPrimary(primary)
                .setMetrics(new HashMap<>(metrics)).setGates(new HashMap<>(gates))
                .setProducedAt(T).setScoredAt(T)
                .build();
    }

    static SampleScore complete(String sample, int seed, double primary) {
        return score(sample, seed, "COMPLETE", primary, Map.of("maze-pixel.iou", primary / 2), Map.of("overall", primary));
    }

    static ScoreAggregate sum(List<SampleScore> scores) {
        ScoreAggregate a = Aggregates.empty();
        for (SampleScore s : scores) {
            a = Aggregates.add(a, Aggregates.ofScore(s));
        }
        return a;
    }

    @Test
    void emptyIsTheSchemasDefaultAndACopyIsEqualButIndependent() {
        assertThat(Aggregates.empty()).isEqualTo(ScoreAggregate.newBuilder().build());
        ScoreAggregate a = sum(List.of(complete("a", 0, 1.0), complete("b", 0, 0.0)));
        a.setAgreement(new HashMap<>(Map.of("judge_vs_human", new io.mmgr.stream.avro.PairCounts(1L, 2L, 3L, 4L))));
        ScoreAggregate before = ScoreAggregate.newBuilder(a).build(); // the builder's deep copy, for comparison
        ScoreAggregate c = Aggregates.copy(a);
        assertThat(c).isEqualTo(a).isNotSameAs(a);
        c.getMetricSums().put("new", new MetricSum(1.0, 1L));
        c.getMetricSums().remove("gate.overall");
        c.getPassAtK().put("1", new MetricSum(1.0, 1L));
        c.getTaskPrimary().put("t", new MetricSum(1.0, 1L));
        c.getAgreement().clear();
        c.getFrechet().put("fid", null);
        c.setScored(99L);
        assertThat(a).as("changing the copy leaves the original").isEqualTo(before);
        assertThat(Aggregates.add(a, Aggregates.ofScore(complete("c", 0, 1.0))).getScored()).isEqualTo(3);
        assertThat(a).as("adding leaves its operands").isEqualTo(before);
    }

    @Test
    void aPendingSampleCountsOnlyAsPending() {
        ScoreAggregate a = Aggregates.ofScore(score("s", 0, "PENDING", 1.0, Map.of("cv.x", 1.0), Map.of("overall", 1.0)));

        assertThat(a.getPending()).isEqualTo(1);
        assertThat(a.getScored()).isZero();
        assertThat(a.getPrimaryCount()).isZero();
        assertThat(a.getMetricSums()).isEmpty();
    }

    @Test
    void statusesCountSeparately() {
        ScoreAggregate a = sum(List.of(score("a", 0, "COMPLETE", 1.0, Map.of(), Map.of()),
                score("b", 0, "FAILED", 0.0, Map.of(), Map.of()),
                score("c", 0, "PARTIAL", 1.0, Map.of(), Map.of()),
                score("d", 0, "PENDING", null, Map.of(), Map.of())));

        assertThat(a.getScored()).isEqualTo(3);
        assertThat(a.getFailed()).isEqualTo(1);
        assertThat(a.getPartial()).isEqualTo(1);
        assertThat(a.getPending()).isEqualTo(1);
        assertThat(a.getPrimaryCount()).isEqualTo(3);
        assertThat(a.getSuccesses()).isEqualTo(2);
        assertThat(a.getPrimarySum()).isEqualTo(2.0);
    }

    @Test
    void gatesEnterTheMeansUnderTheirPrefixAndNonFiniteValuesNowhere() {
        Map<String, Double> metrics = new HashMap<>();
        metrics.put("cv.x", 0.25);
        metrics.put("cv.inf", Double.POSITIVE_INFINITY);
        metrics.put("cv.nan", Double.NaN);
        metrics.put("cv.none", null);
        ScoreAggregate a = Aggregates.ofScore(score("s", 0, "COMPLETE", Double.NaN, metrics, Map.of("overall", 0.0)));

        assertThat(a.getScored()).isEqualTo(1);
        assertThat(a.getPrimaryCount()).as("a NaN primary is not averaged").isZero();
        assertThat(a.getMetricSums()).containsOnlyKeys("cv.x", "gate.overall");
        assertThat(a.getMetricSums().get("cv.x")).isEqualTo(new MetricSum(0.25, 1L));
    }

    @Test
    void aFractionalPrimaryIsSummedButIsNoSuccess() {
        ScoreAggregate a = Aggregates.ofScore(score("s", 0, "COMPLETE", 0.75, Map.of(), Map.of()));
        assertThat(a.getPrimarySum()).isEqualTo(0.75);
        assertThat(a.getSuccesses()).isZero();
    }

    @Test
    void reScoringReplacesTheOldContribution() {
        SampleScore first = score("s", 0, "COMPLETE", 0.0, Map.of("cv.only-first", 3.0, "cv.x", 0.0), Map.of());
        SampleScore again = score("s", 0, "COMPLETE", 1.0, Map.of("cv.x", 1.0), Map.of());
        ScoreAggregate other = Aggregates.ofScore(complete("t", 0, 1.0));

        ScoreAggregate before = Aggregates.add(other, Aggregates.ofScore(first));
        ScoreAggregate after = Aggregates.add(Aggregates.subtract(before, Aggregates.ofScore(first)), Aggregates.ofScore(again));
        ScoreAggregate fresh = Aggregates.add(other, Aggregates.ofScore(again));

        assertThat(after.getScored()).isEqualTo(2);
        assertThat(after.getSuccesses()).isEqualTo(2);
        assertThat(after.getPrimarySum()).isEqualTo(2.0);
        assertThat(after.getMetricSums()).as("a metric no sample has any more is gone, not a zero count")
                .doesNotContainKey("cv.only-first").isEqualTo(fresh.getMetricSums());
        assertThat(after.getMetricSums().get("cv.x")).isEqualTo(new MetricSum(1.0, 1L));
    }

    @Test
    void anItemOfSeveralSeedsGivesPassAtK() {
        // seeds 1, 0, 1: n = 3, c = 2 -> pass@1 = 2/3, pass@2 = 1 - C(1,2)/C(3,2) = 1, pass@3 = 1
        ScoreAggregate item = Aggregates.ofItem(sum(List.of(complete("a", 0, 1.0), complete("a", 1, 0.0),
                complete("a", 2, 1.0))));

        assertThat(item.getItems()).isEqualTo(1);
        assertThat(item.getPassAtK()).containsOnlyKeys("1", "2", "3");
        assertThat(item.getPassAtK().get("1").getSum()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(item.getPassAtK().get("2").getSum()).isEqualTo(1.0);
        assertThat(item.getPassAtK().get("3").getSum()).isEqualTo(1.0);
        assertThat(item.getPassAtK().values()).allSatisfy(m -> assertThat(m.getCount()).isEqualTo(1));
    }

    @Test
    void aSingleSeedOrAnUnscoredItemHasNoPassAtK() {
        assertThat(Aggregates.ofItem(sum(List.of(complete("a", 0, 1.0)))).getPassAtK()).isEmpty();
        ScoreAggregate pendingOnly = Aggregates.ofItem(sum(List.of(score("a", 0, "PENDING", null, Map.of(), Map.of()))));
        assertThat(pendingOnly.getItems()).as("an item with nothing scored is not counted").isZero();
    }

    @Test
    void aTaskRowAveragesPerSampleAndPassAtKPerItem() {
        // item a: seeds 1, 0, 1; item b: seeds 0, 0, 0 -> 2 of 6 samples pass
        ScoreAggregate a = Aggregates.ofItem(sum(List.of(complete("a", 0, 1.0), complete("a", 1, 0.0), complete("a", 2, 1.0))));
        ScoreAggregate b = Aggregates.ofItem(sum(List.of(complete("b", 0, 0.0), complete("b", 1, 0.0), complete("b", 2, 0.0))));
        ScoreAggregate task = Aggregates.add(Aggregates.add(Aggregates.empty(), a), b);
        task.setExpected(8);

        LeaderboardRow row = Aggregates.toRow("run", "c1", "maze", task, T);

        assertThat(row.getSamplesExpected()).isEqualTo(8);
        assertThat(row.getSamplesScored()).isEqualTo(6);
        assertThat(row.getPrimarySuccesses()).isEqualTo(2);
        assertThat(row.getPrimaryRate()).isCloseTo(1.0 / 3, within(1e-12));
        // Wilson 1927 at z = 1.959964, p = 1/3, n = 6, worked out separately
        assertThat(row.getPrimaryCiLow()).isCloseTo(0.0967714111, within(1e-9));
        assertThat(row.getPrimaryCiHigh()).isCloseTo(0.7000066849, within(1e-9));
        // per item: pass@1 (2/3 + 0) / 2, pass@2 (1 + 0) / 2, pass@3 (1 + 0) / 2
        assertThat(row.getPassAtK()).containsOnlyKeys("pass@1", "pass@2", "pass@3");
        assertThat(row.getPassAtK().get("pass@1").getMean()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(row.getPassAtK().get("pass@2").getMean()).isEqualTo(0.5);
        assertThat(row.getPassAtK().get("pass@3").getCount()).isEqualTo(2);
        // iou = primary / 2: 2 * 0.5 / 6
        assertThat(row.getMetrics().get("maze-pixel.iou").getMean()).isCloseTo(1.0 / 6, within(1e-12));
        assertThat(row.getMetrics().get("gate.overall").getMean()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(row.getModel()).isEqualTo("m");
        assertThat(row.getTrainingStep()).isEqualTo(100);
    }

    @Test
    void theAllTasksRowKeepsEachTasksPrimary() {
        ScoreAggregate maze = Aggregates.ofItem(sum(List.of(complete("a", 0, 1.0), complete("b", 0, 1.0))));
        ScoreAggregate arc = Aggregates.ofItem(sum(List.of(complete("x", 0, 0.0), complete("y", 0, 1.0),
                complete("z", 0, 0.0), complete("w", 0, 0.0))));
        ScoreAggregate all = Aggregates.add(Aggregates.ofTask("maze", maze), Aggregates.ofTask("arc", arc));

        LeaderboardRow row = Aggregates.toRow("run", "c1", "*", all, T);

        assertThat(row.getSamplesScored()).isEqualTo(6);
        assertThat(row.getPrimaryRate()).isCloseTo(3.0 / 6, within(1e-12));
        assertThat(row.getTaskPrimaryRates()).containsOnlyKeys("maze", "arc");
        assertThat(row.getTaskPrimaryRates().get("maze").getMean()).isEqualTo(1.0);
        assertThat(row.getTaskPrimaryRates().get("arc").getMean()).isEqualTo(0.25);
        assertThat(row.getTaskPrimaryRates().get("arc").getCount()).isEqualTo(4);
    }

    @Test
    void aRowWithoutPrimariesHasNoRateAndAddingKeepsTheLatestStep() {
        ScoreAggregate early = Aggregates.ofScore(score("a", 0, "PENDING", null, Map.of(), Map.of()));
        SampleScore later = score("b", 0, "PENDING", null, Map.of(), Map.of());
        later.setModel("m2");
        later.setTrainingStep(200);
        ScoreAggregate both = Aggregates.add(Aggregates.ofScore(later), early);

        LeaderboardRow row = Aggregates.toRow("run", "c1", "maze", both, T);

        assertThat(row.getPrimaryRate()).isNull();
        assertThat(row.getPrimaryCiLow()).isNull();
        assertThat(row.getSamplesPending()).isEqualTo(2);
        assertThat(row.getTrainingStep()).isEqualTo(200);
    }
}
