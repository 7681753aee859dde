package io.mmgr.stream.it;

import io.mmgr.stream.app.TopicSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Every committed record of one topic, as {@link io.mmgr.stream.app.TopicSnapshot#all} reads it (read committed, from
 * the beginning to the end offsets of the moment), but with one consumer kept open that reads on from where it
 * stopped. Tests poll their topics every 250 ms until the scorer is done, and a new consumer reading the whole topic
 * again on every poll cost a connection, its requests and a full read each time (the embedded brokers' network
 * threads, mostly in the kernel, were a seventh of the machine's CPU during the integration tests).
 */
final class TopicFollower implements AutoCloseable {

    private static final Comparator<ConsumerRecord<byte[], byte[]>> PARTITION_ORDER =
            Comparator.<ConsumerRecord<byte[], byte[]>>comparingInt(ConsumerRecord::partition).thenComparingLong(ConsumerRecord::offset);

    private final String topic;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
    private List<TopicPartition> partitions;

    TopicFollower(Map<String, Object> clientConfig, String topic) {
        this.topic = topic;
        this.consumer = TopicSnapshot.committedReader(clientConfig);
    }

    /** Every committed record up to the topic's current end, in partition order (each partition's in its own order). */
    synchronized List<ConsumerRecord<byte[], byte[]>> all(Duration timeout) {
        if (partitions == null) {
            partitions = TopicSnapshot.partitions(consumer, topic, timeout);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }
        int before = read.size();
        TopicSnapshot.readToEnd(consumer, partitions, topic, timeout, read::add);
        if (read.size() > before) {
            read.sort(PARTITION_ORDER);
        }
        return List.copyOf(read);
    }

    @Override
    public synchronized void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
