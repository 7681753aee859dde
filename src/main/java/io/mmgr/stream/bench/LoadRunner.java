package io.mmgr.stream.bench;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.topology.SampleKeys;
import io.mmgr.stream.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Publishes a synthetic workload to a running scorer and measures how fast its sample scores come
 * out: throughput from the first event sent to the last score read, and each sample's
 * event-to-score latency from the score itself (producedAt to scoredAt, one clock).
 */
public final class LoadRunner {

    private final Map<String, Object> clientConfig;
    private final Topics topics;

    public LoadRunner(Map<String, Object> clientConfig, Topics topics) {
        this.clientConfig = clientConfig;
        this.topics = topics;
    }

    /**
     * @param rate events per second, or 0 for as fast as possible
     */
    public LoadReport run(MagmaWorkload workload, String runId, long samples, double rate, double stepAccuracy,
                          Duration timeout, LongConsumer progress) {
        return run(workload, runId, samples, rate, stepAccuracy, timeout, progress, (n, at) -> { });
    }

    /** Told when the n-th event (0-based) was handed to the producer, in epoch milliseconds. */
    public interface SendListener {
        void sent(long n, long epochMillis);
    }

    public LoadReport run(MagmaWorkload workload, String runId, long samples, double rate, double stepAccuracy,
                          Duration timeout, LongConsumer progress, SendListener sendListener) {
        Map<String, Object> producerConf = new HashMap<>(clientConfig);
        producerConf.put("acks", "all");
        producerConf.put("linger.ms", "5");
        producerConf.put("compression.type", "lz4");
        Map<String, Object> consumerConf = new HashMap<>(clientConfig);
        consumerConf.put("isolation.level", "read_committed");
        consumerConf.put("enable.auto.commit", "false");
        consumerConf.put("max.poll.records", "2000");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConf, new ByteArraySerializer(), new ByteArraySerializer());
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConf, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Serializer<BenchmarkItem> items = topics.benchmark.valueSerde().serializer();
            for (BenchmarkItem item : workload.items()) {
                producer.send(new ProducerRecord<>(topics.benchmark.name(),
                        SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8),
                        items.serialize(topics.benchmark.name(), item)));
            }
            producer.flush();
            // the global table must hold the items before the first event is joined
            sleep(1500);

            List<TopicPartition> partitions = consumer.partitionsFor(topics.sampleScores.name()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);

            AtomicReference<Exception> sendError = new AtomicReference<>();
            java.util.concurrent.atomic.AtomicLong publishedAt = new java.util.concurrent.atomic.AtomicLong();
            Serializer<GenerationEvent> events = topics.generations.valueSerde().serializer();
            long start = System.nanoTime();
            Thread publisher = new Thread(() -> {
                for (long n = 0; n < samples && sendError.get() == null; n++) {
                    if (rate > 0) {
                        long due = start + (long) (n * 1e9 / rate);
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                        }
                    }
                    GenerationEvent e = workload.event(runId, n, stepAccuracy);
                    sendListener.sent(n, e.getProducedAt().toEpochMilli());
                    producer.send(new ProducerRecord<>(topics.generations.name(),
                            SampleKeys.ref(SampleKeys.of(e)).getBytes(StandardCharsets.UTF_8),
                            events.serialize(topics.generations.name(), e)), (m, ex) -> {
                        if (ex != null) {
                            sendError.compareAndSet(null, ex);
                        }
                    });
                }
                producer.flush();
                publishedAt.set(System.nanoTime());
            }, "load-publisher");
            publisher.start();

            Set<SampleKey> seen = new HashSet<>();
            long[] latencies = new long[(int) samples];
            long deadline = System.nanoTime() + timeout.toNanos();
            var keys = topics.sampleScores.keySerde().deserializer();
            var values = topics.sampleScores.valueSerde().deserializer();
            while (seen.size() < samples) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out: " + seen.size() + " of " + samples + " samples scored");
                }
                if (sendError.get() != null) {
                    throw new IllegalStateException("publishing failed: " + sendError.get().getMessage(), sendError.get());
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    SampleKey key = keys.deserialize(r.topic(), r.key());
                    if (!runId.equals(key.getRunId()) || seen.contains(key)) {
                        continue;
                    }
                    SampleScore s = values.deserialize(r.topic(), r.value());
                    latencies[seen.size()] = s.getScoredAt().toEpochMilli() - s.getProducedAt().toEpochMilli();
                    seen.add(key);
                    progress.accept(seen.size());
                }
            }
            double scoreSeconds = (System.nanoTime() - start) / 1e9;
            join(publisher);
            return new LoadReport(samples, workload.steps(), (publishedAt.get() - start) / 1e9, scoreSeconds, latencies);
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        sleep(millis, 0);
    }

    private static void sleep(long millis, int nanos) {
        try {
            Thread.sleep(millis, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
