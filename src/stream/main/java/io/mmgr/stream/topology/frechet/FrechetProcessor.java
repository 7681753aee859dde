package io.mmgr.stream.topology.frechet;

import io.mmgr.stream.contract.Store;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.FrechetSample;
import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.frechet.FrechetReference;
import io.mmgr.stream.frechet.RunningFrechet;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.contract.DeadLetters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the live FID / FVD of every run x checkpoint x task whose samples arrive here (all of a row's
 * samples meet in one partition: the topic is keyed by the row).
 *
 * <p>State and record sizes: the d x d co-moment of a row (32 MB at d = 2048) never goes to Kafka. The
 * changelogged store {@code frechet-vectors} ({@link io.mmgr.stream.contract.Stores#frechetVectors}) holds each sample's latest vector (8d bytes,
 * 16 KB at d = 2048, well within a record), which is all a row's statistics are made of. The running
 * statistics ({@link RunningFrechet}) live in this processor's heap, updated in O(d^2) per sample; when
 * they are not there (after a restart, a rebalance, or dropped from the bounded cache) they are rebuilt
 * from the stored vectors. A new processor starts with an empty cache, so after a failure it never keeps
 * updates whose store writes were rolled back. A re-sent sample takes its old vector out and puts the new
 * one in; a duplicate of the same generation changes nothing.
 *
 * <p>Distances (one d x d symmetric eigenvalue problem: FrechetBenchmark measured 0.3 s at d = 400,
 * 7 s at 1024 and 31 s at 2048 on a busy 2-core machine) are computed on a wall-clock punctuation for the
 * rows that changed since, within a time budget, and go out as {@link FrechetStat} records (small). A row
 * whose last distance took t waits at least {@value #IDLE_FACTOR} t before the next, so distances take at
 * most a tenth of a stream thread per row however large d is; the other rows and partitions go on. Samples that cannot be used (unreadable reference, wrong
 * dimension, non-finite values, bad item attributes) become dead letters; the sample's other scores
 * are unaffected.
 */
final class FrechetProcessor implements Processor<LeaderboardKey, FrechetSample, LeaderboardKey, FrechetOutcome> {

    static final String STAGE = "frechet";
    /** A row's distances are at least this many times their own cost apart. */
    static final int IDLE_FACTOR = 9;

    private final FrechetMemory memory;
    private final FrechetSettings settings;
    private final StringSerializer prefixSerializer = new StringSerializer();
    private final Map<String, Row> rows = new LinkedHashMap<>(16, 0.75f, true);
    private final Set<String> dirty = new LinkedHashSet<>();
    private KeyValueStore<String, FrechetSample> vectors;
    private ProcessorContext<LeaderboardKey, FrechetOutcome> context;

    /** A row's running statistics and how its latest samples describe it. */
    private static final class Row {
        final LeaderboardKey key;
        final String referenceId;
        final RunningFrechet running;
        FrechetSample latest;
        long lastEmitMs = Long.MIN_VALUE / 2;
        long lastCostMs;

        Row(LeaderboardKey key, String referenceId, RunningFrechet running) {
            this.key = key;
            this.referenceId = referenceId;
            this.running = running;
        }
    }

    private final Store<String, FrechetSample> vectorStore;

    FrechetProcessor(FrechetMemory memory, Store<String, FrechetSample> vectorStore) {
        this.memory = memory;
        this.vectorStore = vectorStore;
        this.settings = memory.settings();
    }

    @Override
    public void init(ProcessorContext<LeaderboardKey, FrechetOutcome> context) {
        this.context = context;
        this.vectors = vectorStore.in(context);
        context.schedule(settings.interval(), PunctuationType.WALL_CLOCK_TIME, this::publish);
    }

    static String rowPrefix(LeaderboardKey k) {
        return k.getRunId() + "/" + k.getCheckpointId() + "/" + k.getTask() + "/";
    }

    @Override
    public void process(Record<LeaderboardKey, FrechetSample> record) {
        LeaderboardKey key = record.key();
        FrechetSample s = record.value();
        if (key == null || s == null) {
            return;
        }
        String prefix = rowPrefix(key);
        String storeKey = prefix + s.getSampleId() + "#" + s.getSeed();
        if (s.getProblem() != null) {
            reject(storeKey, s.getProblem(), null);
            return;
        }
        FrechetSample previous = vectors.get(storeKey);
        if (previous != null && previous.getGenerationId().equals(s.getGenerationId())) {
            return; // the same generation again
        }
        if (s.getVector().isEmpty() && previous == null) {
            return; // nothing counted before, nothing to count now
        }
        FrechetReference reference;
        try {
            reference = memory.reference(s.getReference());
        } catch (EvaluationException e) {
            reject(storeKey, e.getMessage(), e);
            return;
        }
        double[] x = null;
        if (!s.getVector().isEmpty()) {
            x = toArray(s.getVector());
            String problem = problem(x, reference, s.getFeature());
            if (problem != null) {
                reject(storeKey, problem, null);
                return;
            }
        }
        Row row = row(key, s, reference);
        if (previous != null && previous.getVector().size() == reference.dims()) {
            row.running.remove(toArray(previous.getVector()));
        }
        if (x != null) {
            row.running.add(x);
            vectors.put(storeKey, s);
        } else {
            vectors.delete(storeKey);
        }
        row.latest = s;
        dirty.add(prefix);
        trim(prefix);
    }

    private static String problem(double[] x, FrechetReference reference, String feature) {
        if (x.length != reference.dims()) {
            return "inputs.features." + feature + " has " + x.length + " values, the task's reference statistics "
                    + reference.dims();
        }
        for (double v : x) {
            if (!Double.isFinite(v)) {
                return "inputs.features." + feature + " has a non-finite value";
            }
        }
        return null;
    }

    /** The row's running statistics against this reference, rebuilt from the stored vectors when not cached. */
    private Row row(LeaderboardKey key, FrechetSample s, FrechetReference reference) {
        String prefix = rowPrefix(key);
        String referenceId = FrechetMemory.referenceId(s.getReference());
        Row row = rows.get(prefix);
        if (row != null && row.referenceId.equals(referenceId)) {
            return row;
        }
        if (row != null) {
            drop(prefix);
        }
        RunningFrechet running = reference.running();
        try (KeyValueIterator<String, FrechetSample> it = vectors.prefixScan(prefix, prefixSerializer)) {
            while (it.hasNext()) {
                List<Double> v = it.next().value.getVector();
                // vectors stored against another reference of a different size no longer fit: left out
                if (v.size() == reference.dims()) {
                    running.add(toArray(v));
                }
            }
        }
        row = new Row(key, referenceId, running);
        row.latest = s;
        rows.put(prefix, row);
        memory.reserve(RunningFrechet.bytes(reference.dims()));
        return row;
    }

    /**
     * Keeps the scorer's statistics within their budget: this processor's least recently used rows go (a
     * pending distance is published first), never the row just updated.
     */
    private void trim(String keep) {
        Iterator<Map.Entry<String, Row>> it = rows.entrySet().iterator();
        List<String> evict = new ArrayList<>();
        while (memory.overBudget() && it.hasNext()) {
            String prefix = it.next().getKey();
            if (!prefix.equals(keep)) {
                evict.add(prefix);
            }
        }
        for (String prefix : evict) {
            if (dirty.remove(prefix)) {
                emit(rows.get(prefix));
            }
            drop(prefix);
            if (!memory.overBudget()) {
                break;
            }
        }
    }

    private void drop(String prefix) {
        Row row = rows.remove(prefix);
        if (row != null) {
            memory.release(RunningFrechet.bytes(row.running.dims()));
        }
    }

    @Override
    public void close() {
        for (String prefix : new ArrayList<>(rows.keySet())) {
            drop(prefix);
        }
    }

    /** The punctuation: new distances for the rows that changed, oldest change first, within the budget. */
    void publish(long timestamp) {
        long deadline = System.nanoTime() + settings.budget().toNanos();
        Iterator<String> it = dirty.iterator();
        while (it.hasNext() && System.nanoTime() < deadline) {
            String prefix = it.next();
            Row row = rows.get(prefix);
            if (row == null) {
                it.remove();
            } else if (timestamp - row.lastEmitMs >= IDLE_FACTOR * row.lastCostMs) {
                it.remove();
                emit(row);
            }
        }
    }

    private void emit(Row row) {
        FrechetSample s = row.latest;
        long start = System.nanoTime();
        Double value = row.running.distance();
        row.lastCostMs = (System.nanoTime() - start) / 1_000_000;
        row.lastEmitMs = context.currentSystemTimeMs();
        Double normalized = value != null && s.getDMin() != null && s.getDMax() != null
                ? FrechetReference.normalize(value, s.getDMin(), s.getDMax()) : null;
        FrechetStat stat = FrechetStat.newBuilder()
                .setMetric(s.getMetric())
                .setFeature(s.getFeature())
                .setValue(value)
                .setNormalized(normalized)
                .setDMin(s.getDMin())
                .setDMax(s.getDMax())
                .setSamples(row.running.samples())
                .setDims(row.running.dims())
                .setReferenceSha256(s.getReference().getSha256())
                .setReferenceSamples(row.running.reference().samples())
                .setComputedAt(Instant.now())
                .build();
        context.forward(new Record<>(row.key, new FrechetOutcome(stat, null), context.currentSystemTimeMs()));
    }

    private void reject(String sampleRef, String reason, Throwable error) {
        DeadLetter letter = DeadLetters.of(context.recordMetadata(), STAGE, reason, error, null, null, sampleRef);
        context.forward(new Record<>(null, new FrechetOutcome(null, letter), context.currentSystemTimeMs()));
    }

    private static double[] toArray(List<Double> v) {
        double[] a = new double[v.size()];
        for (int i = 0; i < a.length; i++) {
            Double d = v.get(i);
            a[i] = d == null ? Double.NaN : d;
        }
        return a;
    }
}
