package io.mmgr.stream.judge.batch;

import io.mmgr.stream.contract.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batches topic: an idempotent producer that waits for every write (a SUBMITTING record must be durable
 * before the create call), and a read of every partition to its end offsets at start. Called on the lane's
 * scheduler, never on a consumer thread.
 */
public final class KafkaBatchLog implements BatchLog {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaBatchLog.class);
    private static final Duration WRITE_LIMIT = Duration.ofSeconds(30);

    private final Topic<String, byte[]> topic;
    private final Map<String, Object> clientConfig;
    private final KafkaProducer<String, byte[]> producer;

    public KafkaBatchLog(Topic<String, byte[]> topic, Map<String, Object> clientConfig) {
        this.topic = topic;
        this.clientConfig = Map.copyOf(clientConfig);
        Map<String, Object> p = new HashMap<>(clientConfig);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "judge-batches-" + ProcessHandle.current().pid());
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    @Override
    public void append(BatchRecord record) {
        try {
            producer.send(new ProducerRecord<>(topic.name(), record.localId(), record.toJson()))
                    .get(WRITE_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing batch " + record.localId(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot write batch " + record.localId() + " to " + topic.name() + ": " + e, e);
        }
    }

    @Override
    public Collection<BatchRecord> load() {
        Map<String, Object> c = new HashMap<>(clientConfig);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        Map<String, BatchRecord> latest = new LinkedHashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic.name(), Duration.ofSeconds(30))) {
                parts.add(new TopicPartition(p.topic(), p.partition()));
            }
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, Duration.ofSeconds(30));
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() == null) {
                        latest.remove(r.key());
                        continue;
                    }
                    try {
                        latest.put(r.key(), BatchRecord.fromJson(r.value()));
                    } catch (Exception e) {
                        LOG.warn("skipping an unreadable record of {} at {}-{}@{}: {}", topic.name(), r.topic(), r.partition(),
                                r.offset(), e.toString());
                    }
                }
            }
        }
        return latest.values();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
