package io.mmgr.stream.topology.status;

import io.mmgr.stream.contract.Store;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.CheckpointDone;
import io.mmgr.stream.avro.CheckpointKey;
import io.mmgr.stream.avro.CheckpointStatus;
import io.mmgr.stream.avro.ComparisonResult;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.contract.BenchmarkSeeds;
import io.mmgr.stream.contract.CheckpointState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps each checkpoint's latest leaderboard rows, comparisons, alerts and done marker, and notes what
 * changed. A wall-clock punctuation then answers the markers whose checkpoint changed or whose deadline
 * passed: COMPLETE when every expected sample is scored and the parts agree, TIMED_OUT at the deadline,
 * and again whenever a late part changes the answer.
 *
 * <p>A comparison with the previous checkpoint is only as final as that checkpoint: when the job marked it
 * done too, the answer waits for its answer and for the comparison computed on its final row (up to this
 * marker's deadline, then the comparison as it stands, marked partial). Otherwise a job that submits two
 * checkpoints and then waits for both would be told the second one compares with a third of the first.
 */
final class CheckpointStatusProcessor implements Processor<CheckpointKey, SpecificRecord, CheckpointKey, CheckpointStatus> {

    private final CheckpointStatusSettings settings;
    private final StringSerializer prefix = new StringSerializer();
    private ProcessorContext<CheckpointKey, CheckpointStatus> context;
    private KeyValueStore<String, LeaderboardRow> rows;
    private KeyValueStore<String, CheckpointComparison> comparisons;
    private KeyValueStore<String, Alert> alerts;
    private KeyValueStore<String, CheckpointDone> markers;
    private KeyValueStore<String, Long> deadlines;
    private KeyValueStore<String, CheckpointStatus> answers;
    private BenchmarkSeeds seeds;
    /** Checkpoints changed since the last punctuation. Not stored: after a restart every marker is looked at once. */
    private final Set<String> dirty = new TreeSet<>();
    /** Deadlines of markers not answered yet. Rebuilt from the stores at the first punctuation. */
    private final Map<String, Long> open = new TreeMap<>();
    private boolean restored;

    private final CheckpointStatusTopology.OwnStores stores;
    private final Store<String, BenchmarkItem> benchmarkItems;

    /** {@code benchmarkItems}: the global table intake builds, for the samples a checkpoint expects. */
    CheckpointStatusProcessor(CheckpointStatusSettings settings, CheckpointStatusTopology.OwnStores stores,
                              Store<String, BenchmarkItem> benchmarkItems) {
        this.benchmarkItems = benchmarkItems;
        this.settings = settings;
        this.stores = stores;
    }

    @Override
    public void init(ProcessorContext<CheckpointKey, CheckpointStatus> context) {
        this.context = context;
        rows = stores.rows().in(context);
        comparisons = stores.comparisons().in(context);
        alerts = stores.alerts().in(context);
        markers = stores.markers().in(context);
        deadlines = stores.deadlines().in(context);
        answers = stores.answers().in(context);
        seeds = BenchmarkSeeds.uncached(context.getStateStore(benchmarkItems.name()));
        context.schedule(settings.interval(), PunctuationType.WALL_CLOCK_TIME, this::answer);
    }

    @Override
    public void process(Record<CheckpointKey, SpecificRecord> record) {
        CheckpointKey k = record.key();
        if (k == null || record.value() == null) {
            return;
        }
        String ck = StatusKeys.checkpoint(k.getRunId(), k.getCheckpointId());
        SpecificRecord v = record.value();
        if (v instanceof LeaderboardRow r) {
            rows.put(ck + r.getTask(), r);
        } else if (v instanceof CheckpointComparison c) {
            comparisons.put(ck + c.getTask(), c);
        } else if (v instanceof Alert a) {
            alerts.put(StatusKeys.alert(ck, a.getTask(), a.getKind(), a.getBaselineCheckpointId()), a);
        } else if (v instanceof CheckpointDone d) {
            long timeout = d.getTimeoutMs() != null ? d.getTimeoutMs() : settings.timeout().toMillis();
            // the scorer's clock, not the job's: a job whose clock is off cannot shorten or stretch the wait
            long deadline = context.currentSystemTimeMs() + timeout;
            markers.put(ck, d);
            deadlines.put(ck, deadline);
            open.put(ck, deadline);
        } else {
            throw new IllegalArgumentException("unexpected input " + v.getSchema().getName());
        }
        dirty.add(ck);
    }

    /** Answers the markers whose checkpoint changed or whose deadline passed. */
    void answer(long now) {
        if (!restored) {
            try (KeyValueIterator<String, CheckpointDone> it = markers.all()) {
                it.forEachRemaining(kv -> {
                    CheckpointStatus last = answers.get(kv.key);
                    if (last == null || !last.getDoneId().equals(kv.value.getDoneId())) {
                        Long deadline = deadlines.get(kv.key);
                        open.put(kv.key, deadline == null ? now : deadline);
                    }
                    dirty.add(kv.key);
                });
            }
            restored = true;
        }
        Set<String> todo = new TreeSet<>(dirty);
        dirty.clear();
        open.forEach((ck, deadline) -> {
            if (deadline <= now) {
                todo.add(ck);
            }
        });
        for (String ck : todo) {
            answer(ck, now);
        }
    }

    private void answer(String ck, long now) {
        CheckpointDone done = markers.get(ck);
        if (done == null) {
            return; // no marker yet: nobody asked
        }
        long deadline = deadlines.get(ck);
        CheckpointStatus last = answers.get(ck);
        boolean answered = last != null && last.getDoneId().equals(done.getDoneId());
        CheckpointVerdict v = verdict(ck, done);
        CheckpointState status;
        if (v.complete() && v.settled() && (now >= deadline || baselinesSettled(v))) {
            status = CheckpointState.COMPLETE;
        } else if (now >= deadline) {
            status = CheckpointState.TIMED_OUT;
        } else {
            return; // keep waiting (an earlier answer to this marker stands until the parts agree again)
        }
        open.remove(ck);
        Instant at = Instant.ofEpochMilli(now);
        CheckpointStatus next = v.toStatus(status, done, Instant.ofEpochMilli(deadline),
                answered ? last.getDecidedAt() : at, answered ? last.getUpdatedAt() : at);
        if (answered && next.equals(last)) {
            return;
        }
        next.setUpdatedAt(at);
        answers.put(ck, next);
        context.forward(new Record<>(StatusKeys.parse(ck), next, now));
        // a later checkpoint of the run may have been waiting for this answer
        String run = StatusKeys.runOf(ck);
        open.keySet().stream().filter(k -> k.startsWith(run)).forEach(dirty::add);
    }

    /**
     * Each comparison with a previous checkpoint that has a marker was computed on that checkpoint's row
     * as it stands, and that marker has its answer.
     */
    private boolean baselinesSettled(CheckpointVerdict v) {
        for (CheckpointComparison c : v.comparisons()) {
            ComparisonResult previous = c.getVsPrevious();
            if (previous == null) {
                continue;
            }
            String baseline = StatusKeys.checkpoint(c.getRunId(), previous.getBaselineCheckpointId());
            CheckpointDone marker = markers.get(baseline);
            if (marker == null) {
                continue; // nobody asked about the baseline: it is as final as it gets
            }
            CheckpointStatus answer = answers.get(baseline);
            if (answer == null || !answer.getDoneId().equals(marker.getDoneId())) {
                return false;
            }
            LeaderboardRow row = rows.get(baseline + c.getTask());
            Long counted = previous.getBaselineSamplesWithPrimary();
            if (row != null && counted != null && counted != row.getPrimaryCount()) {
                return false;
            }
        }
        return true;
    }

    private CheckpointVerdict verdict(String ck, CheckpointDone done) {
        Map<String, LeaderboardRow> rowsByTask = new HashMap<>();
        try (KeyValueIterator<String, LeaderboardRow> it = rows.prefixScan(ck, prefix)) {
            it.forEachRemaining(kv -> rowsByTask.put(StatusKeys.task(ck, kv.key), kv.value));
        }
        Map<String, CheckpointComparison> comparisonsByTask = new HashMap<>();
        try (KeyValueIterator<String, CheckpointComparison> it = comparisons.prefixScan(ck, prefix)) {
            it.forEachRemaining(kv -> comparisonsByTask.put(StatusKeys.task(ck, kv.key), kv.value));
        }
        List<Alert> raised = new ArrayList<>();
        try (KeyValueIterator<String, Alert> it = alerts.prefixScan(ck, prefix)) {
            it.forEachRemaining(kv -> raised.add(kv.value));
        }
        return CheckpointVerdict.of(done, rowsByTask, comparisonsByTask, raised, seeds::expected);
    }
}
