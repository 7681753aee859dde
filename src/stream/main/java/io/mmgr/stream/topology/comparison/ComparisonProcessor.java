package io.mmgr.stream.topology.comparison;

import io.mmgr.stream.contract.ComparisonKeys;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.SampleStatus;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.ComparisonResult;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.MetricSum;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleOutcome;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.leaderboard.Aggregates;
import io.mmgr.stream.leaderboard.AlertRule;
import io.mmgr.stream.leaderboard.Difference;
import io.mmgr.stream.leaderboard.ProportionTests;
import io.mmgr.stream.contract.BenchmarkSeeds;
import io.mmgr.stream.contract.SampleKeys;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps every sample's latest primary per checkpoint (a re-scored sample replaces its outcome, so
 * nothing counts twice), per-checkpoint sums, and notes what changed. A wall-clock punctuation then
 * recomputes only the comparisons whose inputs changed: a changed checkpoint against its previous and
 * best earlier checkpoints, and the checkpoints that use it as their baseline. Emits each new
 * comparison and an alert when a comparison turns into a significant drop.
 */
final class ComparisonProcessor implements Processor<SampleKey, SampleOutcome, LeaderboardKey, SpecificRecord> {

    static final String DROP_VS_PREVIOUS = "DROP_VS_PREVIOUS";
    static final String DROP_VS_BEST = "DROP_VS_BEST";

    private final ComparisonSettings settings;
    private final StringSerializer prefix = new StringSerializer();
    private ProcessorContext<LeaderboardKey, SpecificRecord> context;
    private KeyValueStore<String, Double> outcomes;
    private KeyValueStore<String, ScoreAggregate> checkpoints;
    /** Checkpoints changed since the last comparison run. Not stored: after a restart everything is compared once. */
    private final Set<String> dirty = new TreeSet<>();
    private boolean compareAll = true;
    private KeyValueStore<String, CheckpointComparison> results;
    private KeyValueStore<String, Alert> alerts;
    private BenchmarkSeeds seeds;

    private final ComparisonTopology.OwnStores stores;
    private final Store<String, BenchmarkItem> benchmarkItems;

    /** {@code benchmarkItems}: the global table intake builds, for the samples a checkpoint expects. */
    ComparisonProcessor(ComparisonSettings settings, ComparisonTopology.OwnStores stores, Store<String, BenchmarkItem> benchmarkItems) {
        this.stores = stores;
        this.benchmarkItems = benchmarkItems;
        this.settings = settings;
    }

    @Override
    public void init(ProcessorContext<LeaderboardKey, SpecificRecord> context) {
        this.context = context;
        outcomes = stores.outcomes().in(context);
        checkpoints = stores.checkpoints().in(context);
        results = stores.results().in(context);
        alerts = stores.alerts().in(context);
        // read at each comparison run, not cached: a count cached before the last items arrived would mark a
        // comparison complete (and keep its expected count) while the checkpoint is still short of samples
        seeds = BenchmarkSeeds.uncached(context.getStateStore(benchmarkItems.name()));
        context.schedule(settings.interval(), PunctuationType.WALL_CLOCK_TIME, this::compareChanged);
    }

    @Override
    public void process(Record<SampleKey, SampleOutcome> record) {
        SampleKey k = record.key();
        SampleOutcome o = record.value();
        if (k == null || o == null) {
            return;
        }
        String sampleKey = ComparisonKeys.sample(k);
        String ckptKey = ComparisonKeys.checkpoint(k.getRunId(), k.getTask(), k.getCheckpointId());
        Double old = outcomes.get(sampleKey);
        // a pending sample has no outcome yet; one without a primary cannot be compared
        Double now = SampleStatus.PENDING.is(o.getStatus()) ? null : o.getPrimary();
        ScoreAggregate sums = checkpoints.get(ckptKey);
        if (Objects.equals(old, now) && sums != null && sums.getTrainingStep() == o.getTrainingStep()) {
            return;
        }
        if (sums == null) {
            sums = Aggregates.empty();
        }
        if (old != null) {
            sums.setPrimaryCount(sums.getPrimaryCount() - 1);
            sums.setPrimarySum(sums.getPrimarySum() - old);
            sums.setSuccesses(sums.getSuccesses() - (old == 1.0 ? 1 : 0));
        }
        if (now != null) {
            sums.setPrimaryCount(sums.getPrimaryCount() + 1);
            sums.setPrimarySum(sums.getPrimarySum() + now);
            sums.setSuccesses(sums.getSuccesses() + (now == 1.0 ? 1 : 0));
            outcomes.put(sampleKey, now);
        } else if (old != null) {
            outcomes.delete(sampleKey);
        }
        if (sums.getPrimaryCount() == 0) {
            sums.setPrimarySum(0.0); // no rounding residue once empty
        }
        if (SampleKeys.ALL_TASKS.equals(k.getTask())) {
            countTask(sums, ComparisonKeys.taskOfAllTasksSample(k.getSampleId()), old, now);
        }
        sums.setTrainingStep(o.getTrainingStep());
        sums.setModel(o.getModel());
        checkpoints.put(ckptKey, sums);
        dirty.add(ckptKey);
    }

    /** All-tasks sums keep each task's samples with a primary, so that their expected count is known. */
    private static void countTask(ScoreAggregate sums, String task, Double old, Double now) {
        Map<String, MetricSum> perTask = new HashMap<>(sums.getTaskPrimary());
        MetricSum m = perTask.getOrDefault(task, new MetricSum(0.0, 0L));
        double sum = m.getSum() - (old == null ? 0 : old) + (now == null ? 0 : now);
        long count = m.getCount() - (old == null ? 0 : 1) + (now == null ? 0 : 1);
        if (count == 0) {
            perTask.remove(task);
        } else {
            perTask.put(task, new MetricSum(sum, count));
        }
        sums.setTaskPrimary(perTask);
    }

    /**
     * Samples a checkpoint should have: its task's items x seeds; for all tasks, the whole benchmark's
     * (as the all-tasks leaderboard row counts them), so that an all-tasks comparison stays partial
     * until every task has been scored.
     */
    private long expected(String task) {
        return SampleKeys.ALL_TASKS.equals(task) ? seeds.total() : seeds.expected(task);
    }

    /** Recomputes the comparisons touched since the last run, per run x task. */
    void compareChanged(long timestamp) {
        if (compareAll) {
            // after a start or restart the changes since the last comparison are unknown: all of this task's checkpoints
            try (KeyValueIterator<String, ScoreAggregate> it = checkpoints.all()) {
                it.forEachRemaining(kv -> dirty.add(kv.key));
            }
            compareAll = false;
        }
        Map<String, Set<String>> byRunTask = new LinkedHashMap<>();
        for (String key : dirty) {
            List<String> p = ComparisonKeys.parts(key);
            byRunTask.computeIfAbsent(ComparisonKeys.runTask(p.get(0), p.get(1)), x -> new TreeSet<>()).add(p.get(2));
        }
        dirty.clear();
        Instant at = Instant.ofEpochMilli(timestamp);
        byRunTask.forEach((runTask, changed) -> compareRunTask(runTask, changed, at));
    }

    private record Ckpt(String id, String key, ScoreAggregate sums) {
        long step() {
            return sums.getTrainingStep();
        }

        Double rate() {
            return sums.getPrimaryCount() == 0 ? null : sums.getPrimarySum() / sums.getPrimaryCount();
        }
    }

    private void compareRunTask(String runTask, Set<String> changed, Instant at) {
        List<Ckpt> list = new ArrayList<>();
        try (KeyValueIterator<String, ScoreAggregate> it = checkpoints.prefixScan(runTask, prefix)) {
            while (it.hasNext()) {
                KeyValue<String, ScoreAggregate> kv = it.next();
                List<String> p = ComparisonKeys.parts(kv.key);
                if (p.size() == 3) {
                    list.add(new Ckpt(p.get(2), kv.key, kv.value));
                }
            }
        }
        list.sort(Comparator.comparingLong(Ckpt::step).thenComparing(Ckpt::id));
        List<String> p = ComparisonKeys.parts(runTask);
        String run = p.get(0);
        String task = p.get(1);
        AlertRule rule = settings.rule();
        long expected = expected(task);
        Ckpt best = null;
        for (int i = 0; i < list.size(); i++) {
            Ckpt x = list.get(i);
            Ckpt prev = i > 0 ? list.get(i - 1) : null;
            Ckpt bestBefore = best;
            if (x.rate() != null && x.sums().getPrimaryCount() >= rule.minSamples()
                    && (best == null || x.rate() > best.rate())) {
                best = x;
            }
            Ckpt bestBaseline = bestBefore == null || bestBefore == prev ? null : bestBefore;
            CheckpointComparison old = results.get(x.key());
            boolean needed = old == null || changed.contains(x.id())
                    || (prev != null && changed.contains(prev.id()))
                    || (bestBaseline != null && changed.contains(bestBaseline.id()))
                    || !sameBaseline(old.getVsPrevious(), prev) || !sameBaseline(old.getVsBest(), bestBaseline);
            if (!needed) {
                continue;
            }
            CheckpointComparison c = CheckpointComparison.newBuilder()
                    .setRunId(run).setTask(task).setCheckpointId(x.id()).setTrainingStep(x.step())
                    .setSamplesWithPrimary(x.sums().getPrimaryCount()).setSamplesExpected(expected)
                    .setRate(x.rate())
                    .setVsPrevious(prev == null ? null : compare(x, prev, expected, expected))
                    .setVsBest(bestBaseline == null ? null : compare(x, bestBaseline, expected, expected))
                    .setUpdatedAt(at)
                    .build();
            results.put(x.key(), c);
            LeaderboardKey key = new LeaderboardKey(run, x.id(), task);
            context.forward(new Record<>(key, c, at.toEpochMilli()));
            // a one-task checkpoint's all-tasks comparison is its task's: its alert would say the same thing twice
            if (!SampleKeys.ALL_TASKS.equals(task) || x.sums().getTaskPrimary().size() > 1) {
                updateAlert(key, x.key(), DROP_VS_PREVIOUS, c.getVsPrevious(), at);
                updateAlert(key, x.key(), DROP_VS_BEST, c.getVsBest(), at);
            }
        }
    }

    private static boolean sameBaseline(ComparisonResult r, Ckpt baseline) {
        return r == null ? baseline == null : baseline != null && r.getBaselineCheckpointId().equals(baseline.id());
    }

    /**
     * Keeps the alert of one checkpoint and kind in line with its comparison: raised when the comparison
     * becomes a significant drop, brought up to date (same key, revision + 1) whenever its figures change,
     * the last time when both checkpoints are complete, and withdrawn (cleared) when it stops being one.
     * A partial alert says so; the final one's text depends on the scores alone.
     */
    private void updateAlert(LeaderboardKey key, String ckptKey, String kind, ComparisonResult now, Instant at) {
        String alertKey = ComparisonKeys.alert(ckptKey, kind);
        Alert before = alerts.get(alertKey);
        boolean drop = now != null && now.getSignificantDrop();
        if (!drop) {
            if (before != null) {
                Alert cleared = Alert.newBuilder(before).setRevision(before.getRevision() + 1).setCleared(true)
                        .setUpdatedAt(at).setMessage(before.getMessage() + "; withdrawn: "
                                + (now == null ? "no comparison any more" : "the up-to-date figures are no significant drop ("
                                + figures(now) + ")"))
                        .build();
                alerts.delete(alertKey);
                context.forward(new Record<>(key, cleared, at.toEpochMilli()));
            }
            return;
        }
        Alert alert = Alert.newBuilder()
                .setRunId(key.getRunId()).setTask(key.getTask()).setKind(kind)
                .setCheckpointId(key.getCheckpointId()).setBaselineCheckpointId(now.getBaselineCheckpointId())
                .setRate(now.getRate()).setBaselineRate(now.getBaselineRate()).setDifference(now.getDifference())
                .setCiLow(now.getCiLow()).setCiHigh(now.getCiHigh()).setPValue(now.getPValue())
                .setSamples(now.getSamples()).setPartial(now.getPartial())
                .setMessage(message(key, kind, now))
                .setRaisedAt(before == null ? at : before.getRaisedAt())
                .setRevision(before == null ? 1 : before.getRevision())
                .setUpdatedAt(before == null ? at : before.getUpdatedAt())
                .build();
        if (alert.equals(before)) {
            return; // same figures: nothing new to say
        }
        if (before != null) {
            alert.setRevision(before.getRevision() + 1);
            alert.setUpdatedAt(at);
        }
        alerts.put(alertKey, alert);
        context.forward(new Record<>(key, alert, at.toEpochMilli()));
    }

    /** The alert's text: from the comparison's figures only, so that the same scores give the same words. */
    private static String message(LeaderboardKey key, String kind, ComparisonResult r) {
        String what = kind.equals(DROP_VS_PREVIOUS) ? "the previous checkpoint" : "the best earlier checkpoint";
        return String.format(Locale.ROOT, "%s%s on %s dropped %.1f points against %s %s (%s, %s)",
                r.getPartial() ? "[partial, to be updated] " : "",
                key.getCheckpointId(), SampleKeys.ALL_TASKS.equals(key.getTask()) ? "all tasks" : key.getTask(),
                -100 * r.getDifference(), what, r.getBaselineCheckpointId(), figures(r), r.getNote());
    }

    private static String figures(ComparisonResult r) {
        return String.format(Locale.ROOT, "%.1f%% -> %.1f%%, p = %.2g", 100 * r.getBaselineRate(), 100 * r.getRate(),
                r.getPValue());
    }

    /** The candidate against a baseline: paired on the samples both have, else two independent groups. */
    private ComparisonResult compare(Ckpt x, Ckpt baseline, long expected, long baselineExpected) {
        ProportionTests.Paired pairs = pair(x.key(), baseline.key());
        long nx = x.sums().getPrimaryCount();
        long nb = baseline.sums().getPrimaryCount();
        boolean incomplete = (expected > 0 && nx < expected) || (baselineExpected > 0 && nb < baselineExpected);
        boolean partial = incomplete || pairs.size() < nx || pairs.size() < nb;
        Difference d;
        String note;
        if (pairs.size() > 0) {
            d = pairs.compare();
            note = partial
                    ? String.format(Locale.ROOT, "partial: compared on the %d samples both have (%s: %d of %d scored, %s: %d of %d)",
                            pairs.size(), x.id(), nx, expected, baseline.id(), nb, baselineExpected)
                    : "paired on all " + pairs.size() + " samples";
        } else if (!incomplete && nx > 0 && nb > 0) {
            d = ProportionTests.twoProportion(x.sums().getPrimarySum(), nx,
                    baseline.sums().getPrimarySum(), nb);
            note = "independent groups: " + nx + " and " + nb + " samples, none scored by both";
        } else {
            return null;
        }
        return ComparisonResult.newBuilder()
                .setBaselineCheckpointId(baseline.id()).setBaselineStep(baseline.step())
                .setMethod(d.method()).setSamples(d.samples()).setPartial(partial).setNote(note)
                .setRate(d.rate()).setBaselineRate(d.baselineRate()).setDifference(d.difference())
                .setCiLow(d.ciLow()).setCiHigh(d.ciHigh()).setPValue(d.pValue())
                .setSignificantDrop(settings.rule().isSignificantDrop(d))
                .setBaselineSamplesWithPrimary(nb)
                .build();
    }

    /** Walks both checkpoints' samples in key order and pairs those present in both. */
    private ProportionTests.Paired pair(String candidateKey, String baselineKey) {
        ProportionTests.Paired pairs = new ProportionTests.Paired();
        String pa = ComparisonKeys.samplesOf(candidateKey);
        String pb = ComparisonKeys.samplesOf(baselineKey);
        try (KeyValueIterator<String, Double> a = outcomes.prefixScan(pa, prefix);
             KeyValueIterator<String, Double> b = outcomes.prefixScan(pb, prefix)) {
            KeyValue<String, Double> x = a.hasNext() ? a.next() : null;
            KeyValue<String, Double> y = b.hasNext() ? b.next() : null;
            while (x != null && y != null) {
                int cmp = compareBytes(x.key.substring(pa.length()), y.key.substring(pb.length()));
                if (cmp == 0) {
                    pairs.add(x.value, y.value);
                    x = a.hasNext() ? a.next() : null;
                    y = b.hasNext() ? b.next() : null;
                } else if (cmp < 0) {
                    x = a.hasNext() ? a.next() : null;
                } else {
                    y = b.hasNext() ? b.next() : null;
                }
            }
        }
        return pairs;
    }

    /** The stores order keys by their UTF-8 bytes; compare suffixes the same way. */
    private static int compareBytes(String s, String t) {
        return Arrays.compareUnsigned(s.getBytes(StandardCharsets.UTF_8), t.getBytes(StandardCharsets.UTF_8));
    }
}
