package io.mmgr.stream.contract;

import io.mmgr.stream.avro.SampleKey;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.StreamPartitioner;

/** Streams partitioner of sample-keyed topics; see {@link SampleKeys#partition}. */
public final class SamplePartitioner<V> implements StreamPartitioner<SampleKey, V> {

    @Override
    public Optional<Set<Integer>> partitions(String topic, SampleKey key, V value, int numPartitions) {
        return Optional.of(Set.of(SampleKeys.partition(key, numPartitions)));
    }
}
