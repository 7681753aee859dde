package io.mmgr.stream.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.BenchmarkItem;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Expected samples per task from the benchmark store, and who sees which cached count. */
@Tag("unit")
class BenchmarkSeedsTest {

    /** The global store as a processor reads it: keys "task/sample", timestamped values. */
    static final class Items implements ReadOnlyKeyValueStore<String, Object> {
        final NavigableMap<String, Object> map = new TreeMap<>();
        int scans;

        void add(String task, String sample, int seeds) {
            map.put(task + "/" + sample, ValueAndTimestamp.make(
                    BenchmarkItem.newBuilder().setTask(task).setSampleId(sample).setSeeds(seeds)
                            .setGroundTruth(io.mmgr.stream.avro.GroundTruth.newBuilder().build()).build(), 0L));
        }

        @Override
        public Object get(String key) {
            return map.get(key);
        }

        @Override
        public KeyValueIterator<String, Object> range(String from, String to) {
            return iterator(map.subMap(from, true, to, true));
        }

        @Override
        public KeyValueIterator<String, Object> all() {
            return iterator(map);
        }

        @Override
        public <PS extends Serializer<P>, P> KeyValueIterator<String, Object> prefixScan(P prefix, PS serializer) {
            String p = (String) prefix;
            return iterator(map.subMap(p, true, p + Character.MAX_VALUE, false));
        }

        @Override
        public long approximateNumEntries() {
            return map.size();
        }

        private KeyValueIterator<String, Object> iterator(Map<String, Object> m) {
            scans++;
            Iterator<Map.Entry<String, Object>> it = new TreeMap<>(m).entrySet().iterator();
            return new KeyValueIterator<>() {
                @Override
                public void close() {
                }

                @Override
                public String peekNextKey() {
                    throw new UnsupportedOperationException();
                }

                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public KeyValue<String, Object> next() {
                    Map.Entry<String, Object> e = it.next();
                    return KeyValue.pair(e.getKey(), e.getValue());
                }
            };
        }
    }

    @Test
    void processorsSharingCountsScanOnceAndReadAgainWhenARowOutgrowsTheCount() {
        Items items = new Items();
        items.add("maze", "a", 3);
        items.add("maze", "b", 1);
        items.add("mazeish", "x", 5); // shares the name's start, not the task
        items.add("sudoku", "a", 0); // no seeds given counts as one
        BenchmarkSeeds.Shared shared = new BenchmarkSeeds.Shared();
        BenchmarkSeeds first = new BenchmarkSeeds(items, shared);
        BenchmarkSeeds second = new BenchmarkSeeds(items, shared);

        assertThat(first.expected("maze")).isEqualTo(4);
        assertThat(first.total()).isEqualTo(10);
        assertThat(items.scans).isEqualTo(2);
        assertThat(second.expected("maze")).as("the other processor's count").isEqualTo(4);
        assertThat(second.expectedByTask()).containsExactlyInAnyOrderEntriesOf(Map.of("maze", 4L, "mazeish", 5L, "sudoku", 1L));
        assertThat(items.scans).as("no scan of its own").isEqualTo(2);

        items.add("maze", "c", 2); // an item that came after the count was cached
        assertThat(second.expected("maze")).as("cached for a second").isEqualTo(4);
        assertThat(BenchmarkSeeds.uncached(items).expected("maze")).isEqualTo(6);
        assertThat(new BenchmarkSeeds(items).expected("maze")).as("a cache of its own").isEqualTo(6);
        assertThat(second.expectedAtLeast("maze", 3)).isEqualTo(4);
        assertThat(second.expectedAtLeast("maze", 5)).as("a row holds more than the count: read again").isEqualTo(6);
        assertThat(first.expected("maze")).as("and the re-read is shared").isEqualTo(6);
        assertThat(first.totalAtLeast(11)).isEqualTo(12);
        assertThat(second.total()).isEqualTo(12);
    }
}
