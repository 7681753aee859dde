package io.mmgr.stream.topology;

import io.mmgr.stream.avro.SampleKey;
import java.util.Map;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;

/** The same partitioning for plain producers writing sample-keyed topics (judge worker, labels). */
public final class SampleProducerPartitioner implements Partitioner {

    @Override
    public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
        int n = cluster.partitionCountForTopic(topic);
        return SampleKeys.partition((SampleKey) key, n);
    }

    @Override
    public void close() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }
}
