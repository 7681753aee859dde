package io.mmgr.stream.topology.leaderboard;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.ScoreAggregate;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.ValueTransformerWithKey;
import org.apache.kafka.streams.processor.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Sets a task row's expected samples from the benchmark: the sum of its items' seeds, read from the
 * global store by key prefix. Counts are cached for a second per task, so a burst of scores costs one scan.
 */
final class ExpectedSamples implements ValueTransformerWithKey<LeaderboardKey, ScoreAggregate, ScoreAggregate> {

    static final long CACHE_MILLIS = 1000;

    private final String storeName;
    private final StringSerializer prefixSerializer = new StringSerializer();
    private final Map<String, long[]> cache = new HashMap<>();
    private ReadOnlyKeyValueStore<String, Object> items;

    ExpectedSamples(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext context) {
        this.items = context.getStateStore(storeName);
    }

    @Override
    public ScoreAggregate transform(LeaderboardKey key, ScoreAggregate value) {
        if (value == null) {
            return null;
        }
        ScoreAggregate out = ScoreAggregate.newBuilder(value).build();
        out.setExpected(expected(key.getTask()));
        return out;
    }

    private long expected(String task) {
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

    @Override
    public void close() {
        cache.clear();
    }
}
