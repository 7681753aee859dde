package io.mmgr.stream.leaderboard;

import io.mmgr.stream.contract.SampleStatus;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.MetricStat;
import io.mmgr.stream.avro.MetricSum;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.ScoreAggregate;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Additive leaderboard state. Every contribution is a {@link ScoreAggregate}; adding and
 * subtracting them is exact for counts, so a re-scored sample replaces its old contribution.
 * Three levels: a sample's contribution, a benchmark item's (its seeds, giving pass@k), and a
 * task's contribution to the all-tasks row of its checkpoint.
 */
public final class Aggregates {

    /** Gate results enter the metric means under this prefix. */
    public static final String GATE_PREFIX = "gate.";

    private Aggregates() {
    }

    /**
     * The constructor, not the builder: a builder fills unset fields by deep-copying the schema's defaults,
     * and this runs several times per sample (a JFR profile of bench load put the builders at 4 % of the
     * stream threads).
     */
    public static ScoreAggregate empty() {
        return new ScoreAggregate(null, 0L, 0L, 0L, 0L, 0L, 0L, 0.0, 0L, new HashMap<>(), 0L, new HashMap<>(),
                new HashMap<>(), 0L, new HashMap<>(), new HashMap<>());
    }

    /** What one sample score adds to its item. */
    public static ScoreAggregate ofScore(SampleScore s) {
        ScoreAggregate a = empty();
        a.setModel(s.getModel());
        a.setTrainingStep(s.getTrainingStep());
        if (SampleStatus.PENDING.is(s.getStatus())) {
            a.setPending(1);
            return a;
        }
        a.setScored(1);
        a.setFailed(SampleStatus.FAILED.is(s.getStatus()) ? 1 : 0);
        a.setPartial(SampleStatus.PARTIAL.is(s.getStatus()) ? 1 : 0);
        // non-finite numbers never enter a sum: one Infinity would make every mean of the row Infinity or NaN
        if (s.getPrimary() != null && Double.isFinite(s.getPrimary())) {
            a.setPrimaryCount(1);
            a.setPrimarySum(s.getPrimary());
            a.setSuccesses(s.getPrimary() == 1.0 ? 1 : 0);
        }
        Map<String, MetricSum> sums = new HashMap<>();
        s.getMetrics().forEach((k, v) -> {
            if (v != null && Double.isFinite(v)) {
                sums.put(k, new MetricSum(v, 1L));
            }
        });
        s.getGates().forEach((k, v) -> {
            if (v != null && Double.isFinite(v)) {
                sums.put(GATE_PREFIX + k, new MetricSum(v, 1L));
            }
        });
        a.setMetricSums(sums);
        return a;
    }

    /** What an item (all seeds of one sample id) adds to its task row: its sums, one item, and pass@k. */
    public static ScoreAggregate ofItem(ScoreAggregate item) {
        ScoreAggregate a = copy(item);
        a.setItems(item.getScored() > 0 ? 1 : 0);
        Map<String, MetricSum> pass = new HashMap<>();
        long n = item.getPrimaryCount();
        if (n >= 2) { // pass@k only where several seeds exist
            for (int k = 1; k <= Math.min(n, PassAtK.MAX_K); k++) {
                pass.put(String.valueOf(k), new MetricSum(PassAtK.estimate(n, item.getSuccesses(), k), 1L));
            }
        }
        a.setPassAtK(pass);
        return a;
    }

    /** What a task row adds to the all-tasks row of its checkpoint: its sums plus its own primary. */
    public static ScoreAggregate ofTask(String task, ScoreAggregate taskRow) {
        ScoreAggregate a = copy(taskRow);
        Map<String, MetricSum> perTask = new HashMap<>();
        perTask.put(task, new MetricSum(taskRow.getPrimarySum(), taskRow.getPrimaryCount()));
        a.setTaskPrimary(perTask);
        return a;
    }

    public static ScoreAggregate add(ScoreAggregate a, ScoreAggregate b) {
        return combine(a, b, 1);
    }

    public static ScoreAggregate subtract(ScoreAggregate a, ScoreAggregate b) {
        return combine(a, b, -1);
    }

    private static ScoreAggregate combine(ScoreAggregate a, ScoreAggregate b, int sign) {
        ScoreAggregate r = copy(a);
        if (sign > 0 && b.getModel() != null) {
            r.setModel(b.getModel());
            r.setTrainingStep(Math.max(a.getTrainingStep(), b.getTrainingStep()));
        }
        r.setScored(a.getScored() + sign * b.getScored());
        r.setFailed(a.getFailed() + sign * b.getFailed());
        r.setPartial(a.getPartial() + sign * b.getPartial());
        r.setPending(a.getPending() + sign * b.getPending());
        r.setPrimaryCount(a.getPrimaryCount() + sign * b.getPrimaryCount());
        r.setPrimarySum(a.getPrimarySum() + sign * b.getPrimarySum());
        r.setSuccesses(a.getSuccesses() + sign * b.getSuccesses());
        r.setItems(a.getItems() + sign * b.getItems());
        r.setExpected(a.getExpected() + sign * b.getExpected());
        r.setMetricSums(combine(a.getMetricSums(), b.getMetricSums(), sign));
        r.setPassAtK(combine(a.getPassAtK(), b.getPassAtK(), sign));
        r.setTaskPrimary(combine(a.getTaskPrimary(), b.getTaskPrimary(), sign));
        return r;
    }

    private static Map<String, MetricSum> combine(Map<String, MetricSum> a, Map<String, MetricSum> b, int sign) {
        Map<String, MetricSum> out = new HashMap<>();
        a.forEach((k, v) -> out.put(k, new MetricSum(v.getSum(), v.getCount())));
        b.forEach((k, v) -> {
            MetricSum cur = out.getOrDefault(k, new MetricSum(0.0, 0L));
            MetricSum next = new MetricSum(cur.getSum() + sign * v.getSum(), cur.getCount() + sign * v.getCount());
            if (next.getCount() == 0) {
                out.remove(k); // gone entirely: drop it, and the rounding residue of its sum with it
            } else {
                out.put(k, next);
            }
        });
        return out;
    }

    /**
     * A copy whose fields and maps can be set and changed without touching {@code a}. The maps' values are
     * shared: no code changes a {@code MetricSum}, {@code PairCounts} or {@code FrechetStat} in place (each
     * change puts a new one), so a deep copy (what {@code newBuilder(a)} makes) bought nothing and cost a
     * schema walk per call.
     */
    public static ScoreAggregate copy(ScoreAggregate a) {
        return new ScoreAggregate(a.getModel(), a.getTrainingStep(), a.getScored(), a.getFailed(), a.getPartial(),
                a.getPending(), a.getPrimaryCount(), a.getPrimarySum(), a.getSuccesses(), new HashMap<>(a.getMetricSums()),
                a.getItems(), new HashMap<>(a.getPassAtK()), new HashMap<>(a.getTaskPrimary()), a.getExpected(),
                new HashMap<>(a.getAgreement()), new HashMap<>(a.getFrechet()));
    }

    /** The published row. */
    public static LeaderboardRow toRow(String runId, String checkpointId, String task, ScoreAggregate a, Instant now) {
        Double rate = null;
        Double low = null;
        Double high = null;
        if (a.getPrimaryCount() > 0 && Double.isFinite(a.getPrimarySum())) {
            rate = a.getPrimarySum() / a.getPrimaryCount();
            double[] ci = Wilson.interval(rate, a.getPrimaryCount(), Wilson.Z95);
            low = ci[0];
            high = ci[1];
        }
        return LeaderboardRow.newBuilder()
                .setRunId(runId)
                .setModel(a.getModel())
                .setCheckpointId(checkpointId)
                .setTrainingStep(a.getTrainingStep())
                .setTask(task)
                .setSamplesExpected(a.getExpected())
                .setSamplesScored(a.getScored())
                .setSamplesFailed(a.getFailed())
                .setSamplesPartial(a.getPartial())
                .setSamplesPending(a.getPending())
                .setPrimaryCount(a.getPrimaryCount())
                .setPrimarySuccesses(a.getSuccesses())
                .setPrimaryRate(rate)
                .setPrimaryCiLow(low)
                .setPrimaryCiHigh(high)
                .setMetrics(means(a.getMetricSums(), ""))
                .setPassAtK(means(a.getPassAtK(), "pass@"))
                .setTaskPrimaryRates(means(a.getTaskPrimary(), ""))
                .setUpdatedAt(now)
                .setFrechet(new HashMap<>(a.getFrechet()))
                .build();
    }

    private static Map<String, MetricStat> means(Map<String, MetricSum> sums, String prefix) {
        Map<String, MetricStat> out = new TreeMap<>();
        sums.forEach((k, v) -> {
            if (v.getCount() > 0 && Double.isFinite(v.getSum())) {
                out.put(prefix + k, new MetricStat(v.getSum() / v.getCount(), v.getCount()));
            }
        });
        return new HashMap<>(out);
    }
}
