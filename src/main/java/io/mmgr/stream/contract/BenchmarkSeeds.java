package io.mmgr.stream.contract;

import io.mmgr.stream.avro.BenchmarkItem;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Samples a checkpoint is expected to score on a task: the sum of the seeds of the task's benchmark
 * items, read from the global benchmark store by key prefix. Counts are cached for a second per
 * task, so a burst of scores costs one scan. One instance per processor (not thread-safe).
 */
public final class BenchmarkSeeds {

    static final long CACHE_MILLIS = 1000;

    private final ReadOnlyKeyValueStore<String, Object> items;
    private final StringSerializer prefixSerializer = new StringSerializer();
    private final Map<String, long[]> cache = new HashMap<>();
    private Map<String, Long> byTask;
    private long byTaskAt;

    public BenchmarkSeeds(ReadOnlyKeyValueStore<String, Object> items) {
        this.items = items;
    }

    public long expected(String task) {
        long now = System.currentTimeMillis();
        long[] cached = cache.get(task);
        if (cached != null && now - cached[1] < CACHE_MILLIS) {
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
        cache.put(task, new long[] {seeds, now});
        return seeds;
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
        if (byTask != null && now - byTaskAt < CACHE_MILLIS) {
            return byTask;
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
        byTask = java.util.Collections.unmodifiableMap(out);
        byTaskAt = now;
        return byTask;
    }

    public void clear() {
        byTask = null;
        cache.clear();
    }
}
