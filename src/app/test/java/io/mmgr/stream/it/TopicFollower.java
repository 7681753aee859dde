package io.mmgr.stream.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Every committed record of one topic, as {@link io.mmgr.stream.app.TopicSnapshot#all} reads it (read committed, from
 * the beginning to the end offsets of the moment), but with one consumer kept open that reads on from where it
 * stopped. Tests poll their topics every 250 ms until the scorer is done: a new consumer that read the whole topic
 * again on every poll was most of what the brokers of the integration tests did (perf: their network threads, in the
 * kernel, were a seventh of the machine's CPU).
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
        Map<String, Object> conf = new HashMap<>(clientConfig);
        conf.put("isolation.level", "read_committed");
        conf.put("enable.auto.commit", "false");
        conf.remove("group.id");
        this.consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Every committed record up to the topic's current end, in partition order (each partition's in its own order). */
    synchronized List<ConsumerRecord<byte[], byte[]>> all(Duration timeout) {
        if (partitions == null) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist");
            }
            partitions = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean added = false;
        while (!reached(end)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out reading " + topic);
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                read.add(r);
                added = true;
            }
        }
        if (added) {
            read.sort(PARTITION_ORDER);
        }
        return List.copyOf(read);
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        for (var e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public synchronized void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
