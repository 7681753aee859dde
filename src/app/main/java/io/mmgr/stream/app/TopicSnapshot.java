package io.mmgr.stream.app;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/** Reads a topic from the beginning to its current end without a consumer group: the latest value per key. */
public final class TopicSnapshot {

    private TopicSnapshot() {
    }

    public static <K, V> Map<K, V> latest(Map<String, Object> clientConfig, String topic, Deserializer<K> keys,
                                          Deserializer<V> values, Duration timeout) {
        return latest(all(clientConfig, topic, timeout), keys, values);
    }

    /** The latest value per key of records read from one topic, in each partition's order; a null value removes its key. */
    public static <K, V> Map<K, V> latest(List<ConsumerRecord<byte[], byte[]>> records, Deserializer<K> keys, Deserializer<V> values) {
        Map<K, V> out = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String topic = r.topic();
            K key = keys.deserialize(topic, r.key());
            V value = r.value() == null ? null : values.deserialize(topic, r.value());
            if (value == null) {
                out.remove(key);
            } else {
                out.put(key, value);
            }
        }
        return out;
    }

    /** Every record currently in the topic, in partition order (read committed). */
    public static List<ConsumerRecord<byte[], byte[]>> all(Map<String, Object> clientConfig, String topic, Duration timeout) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = committedReader(clientConfig)) {
            List<TopicPartition> partitions = partitions(consumer, topic, timeout);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            readToEnd(consumer, partitions, topic, timeout, out::add);
        }
        return out;
    }

    /** A consumer outside any group that reads what transactions committed. */
    public static KafkaConsumer<byte[], byte[]> committedReader(Map<String, Object> clientConfig) {
        Map<String, Object> conf = new HashMap<>(clientConfig);
        conf.put("isolation.level", "read_committed");
        conf.put("enable.auto.commit", "false");
        conf.remove("group.id");
        return new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * Polls {@code consumer} (assigned {@code partitions}, wherever its positions are) until it has reached their end
     * offsets of this moment, handing each record to {@code sink}.
     */
    public static void readToEnd(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions, String topic,
                                 Duration timeout, java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reached(consumer, end)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out reading " + topic);
            }
            consumer.poll(Duration.ofMillis(200)).forEach(sink);
        }
    }

    /** The end offset of each partition of the topic (transaction markers included), by partition number. */
    public static Map<Integer, Long> endOffsets(Map<String, Object> clientConfig, String topic, Duration timeout) {
        Map<String, Object> conf = new HashMap<>(clientConfig);
        conf.remove("group.id");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            return endOffsets(consumer, topic, timeout);
        }
    }

    /** The same, asked through a consumer the caller keeps (its isolation level decides whether markers count). */
    public static Map<Integer, Long> endOffsets(KafkaConsumer<?, ?> consumer, String topic, Duration timeout) {
        Map<Integer, Long> out = new TreeMap<>();
        consumer.endOffsets(partitions(consumer, topic, timeout), timeout).forEach((tp, o) -> out.put(tp.partition(), o));
        return out;
    }

    /** The topic's partitions; fails when it does not exist. */
    public static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic, Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist");
        }
        return infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (var e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
