package io.mmgr.stream.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The broker alone: records of a given payload produced to a scratch topic (same producer settings
 * as the load) and consumed back, timed from the first send to the last record read. It is the
 * ceiling the scorer's figures compare against, measured on the same broker in the same run.
 */
public final class RawThroughput {

    /** Records moved, payload size, and seconds from first send to last read. */
    public record Result(long records, int recordBytes, double seconds) {

        public double recordsPerSecond() {
            return records / seconds;
        }

        public double megabytesPerSecond() {
            return records * (double) recordBytes / seconds / 1e6;
        }

        public String summary() {
            return String.format(Locale.ROOT, "raw broker: %d records of %d bytes produced -> consumed in %.1f s = "
                    + "%.0f records/s (%.1f MB/s)", records, recordBytes, seconds, recordsPerSecond(), megabytesPerSecond());
        }
    }

    private RawThroughput() {
    }

    public static Result measure(Map<String, Object> clientConfig, String topic, int partitions, long records,
                                 byte[] payload, Duration timeout) throws InterruptedException {
        return measure(clientConfig, topic, partitions, (short) 1, records, payload, timeout);
    }

    /** @param replication the scratch topic's replication factor (a cluster's: what the scorer's topics have) */
    public static Result measure(Map<String, Object> clientConfig, String topic, int partitions, short replication, long records,
                                 byte[] payload, Duration timeout) throws InterruptedException {
        try (Admin admin = Admin.create(clientConfig)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, replication))).all().get();
            try {
                return run(clientConfig, topic, partitions, records, payload, timeout);
            } finally {
                admin.deleteTopics(List.of(topic)).all().get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("raw throughput topic " + topic + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    private static Result run(Map<String, Object> clientConfig, String topic, int partitions, long records, byte[] payload,
                              Duration timeout) throws InterruptedException {
        Map<String, Object> consumerConf = new HashMap<>(clientConfig);
        consumerConf.put("enable.auto.commit", "false");
        consumerConf.put("max.poll.records", "5000");
        Map<String, Object> producerConf = new HashMap<>(clientConfig);
        producerConf.put("acks", "all");
        producerConf.put("linger.ms", "5");
        producerConf.put("compression.type", "lz4");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConf, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConf, new ByteArraySerializer(),
                     new ByteArraySerializer())) {
            List<TopicPartition> parts = java.util.stream.IntStream.range(0, partitions)
                    .mapToObj(p -> new TopicPartition(topic, p)).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            parts.forEach(consumer::position);
            AtomicReference<Exception> failed = new AtomicReference<>();
            long start = System.nanoTime();
            Thread sender = new Thread(() -> {
                for (long i = 0; i < records && failed.get() == null; i++) {
                    producer.send(new ProducerRecord<>(topic, Long.toString(i).getBytes(), payload), (m, e) -> {
                        if (e != null) {
                            failed.compareAndSet(null, e);
                        }
                    });
                }
                producer.flush();
            }, "raw-throughput-producer");
            sender.start();
            long read = 0;
            long deadline = start + timeout.toNanos();
            while (read < records) {
                if (failed.get() != null) {
                    throw new IllegalStateException("raw produce failed: " + failed.get().getMessage(), failed.get());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("raw throughput: " + read + " of " + records + " read before the timeout");
                }
                read += consumer.poll(Duration.ofMillis(100)).count();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            sender.join();
            return new Result(records, payload.length, seconds);
        }
    }
}
