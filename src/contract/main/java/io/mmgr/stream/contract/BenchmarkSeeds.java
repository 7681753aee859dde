package io.mmgr.stream.contract;

import io.mmgr.stream.avro.BenchmarkItem;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Samples a checkpoint is expected to score on a task: the sum of the seeds of the task's benchmark
 * items, read from the global benchmark store by key prefix. By default counts are cached for a second
 * per task, so a burst of scores costs one scan; a processor that decides something final on the count
 * (a checkpoint's answer) reads it {@link #uncached}, since a marker can reach it before the items do and a
 * count cached then would still be served after the samples of the missing items are scored. One
 * instance per processor; the cached counts themselves live in a {@link Shared} that the processors of one
 * scorer share, so a second's counts cost one scan per scorer, not one per task (a scan reads every item of
 * the task; with a scan per task and second, JFR put them at 3 % of the stream threads under bench load).
 */
public final class BenchmarkSeeds {

    static final long CACHE_MILLIS = 1000;

    /**
     * Counts cached for a second, shared by the processors (and stream threads) of one scorer: each scorer
     * reads the same benchmark, whichever task or thread asks.
     */
    public static final class Shared {
        private final Map<String, long[]> byTask = new java.util.concurrent.ConcurrentHashMap<>(); // task -> {seeds, at}
        private volatile Counted all;

        private record Counted(Map<String, Long> byTask, long at) {
        }
    }

    private final ReadOnlyKeyValueStore<String, Object> items;
    private final StringSerializer prefixSerializer = new StringSerializer();
    private final Shared shared;

    private final long cacheMillis;

    /** Counts cached for this processor alone. */
    public BenchmarkSeeds(ReadOnlyKeyValueStore<String, Object> items) {
        this(items, new Shared(), CACHE_MILLIS);
    }

    /** Counts cached in {@code shared}, with the other processors of the scorer. */
    public BenchmarkSeeds(ReadOnlyKeyValueStore<String, Object> items, Shared shared) {
        this(items, shared, CACHE_MILLIS);
    }

    private BenchmarkSeeds(ReadOnlyKeyValueStore<String, Object> items, Shared shared, long cacheMillis) {
        this.items = items;
        this.shared = shared;
        this.cacheMillis = cacheMillis;
    }

    /** Counts read from the store at every call. */
    public static BenchmarkSeeds uncached(ReadOnlyKeyValueStore<String, Object> items) {
        return new BenchmarkSeeds(items, new Shared(), 0);
    }

    public long expected(String task) {
        long now = System.currentTimeMillis();
        long[] cached = shared.byTask.get(task);
        if (cached != null && now - cached[1] < cacheMillis) {
            return cached[0];
        }
        long seeds = 0;
        try (KeyValueIterator<String, Object> it = items.prefixScan(task + "/", prefixSerializer)) {
            while (it.hasNext()) {
                KeyValue<String, Object> kv = it.next();
                Object v = kv.value instanceof ValueAndTimestamp<?> vt ? vt.value() : kv.value;
                if (v instanceof BenchmarkItem item) {
                    seeds += Math.max(1, item.getSeeds());
                }
            }
        }
        shared.byTask.put(task, new long[] {seeds, now});
        return seeds;
    }

    /**
     * The task's count, read again when the cached one is below {@code seen}: a row that already holds more
     * samples than the cache expects was scored on items that came after the count was cached.
     */
    public long expectedAtLeast(String task, long seen) {
        long n = expected(task);
        if (n >= seen) {
            return n;
        }
        shared.byTask.remove(task);
        return expected(task);
    }

    /** {@link #total()}, read again when the cached one is below {@code seen} (see {@link #expectedAtLeast}). */
    public long totalAtLeast(long seen) {
        long n = total();
        if (n >= seen) {
            return n;
        }
        shared.all = null;
        return total();
    }

    /** Samples of the whole benchmark: every task's items x seeds (cached like a task's count). */
    public long total() {
        long sum = 0;
        for (long n : expectedByTask().values()) {
            sum += n;
        }
        return sum;
    }

    /** Every task of the benchmark with its expected samples, by task name. */
    public Map<String, Long> expectedByTask() {
        long now = System.currentTimeMillis();
        Shared.Counted cached = shared.all;
        if (cached != null && now - cached.at() < cacheMillis) {
            return cached.byTask();
        }
        Map<String, Long> out = new java.util.TreeMap<>();
        try (KeyValueIterator<String, Object> it = items.all()) {
            while (it.hasNext()) {
                KeyValue<String, Object> kv = it.next();
                Object v = kv.value instanceof ValueAndTimestamp<?> vt ? vt.value() : kv.value;
                if (v instanceof BenchmarkItem item) {
                    out.merge(item.getTask(), (long) Math.max(1, item.getSeeds()), Long::sum);
                }
            }
        }
        Map<String, Long> counted = java.util.Collections.unmodifiableMap(out);
        shared.all = new Shared.Counted(counted, now);
        return counted;
    }
}
