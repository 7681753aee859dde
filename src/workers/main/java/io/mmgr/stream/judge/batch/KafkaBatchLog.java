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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
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
    private static final Duration READ_LIMIT = Duration.ofSeconds(15);
    /**
     * What a record takes of the limits beside its value: the record batch's header (61 bytes), the record's own
     * (about 20), and the key, a worker id and a UUID (a member id is at most a few hundred bytes).
     */
    static final int HEADROOM = 1 << 10;

    private final Topic<String, byte[]> topic;
    private final Map<String, Object> clientConfig;
    private final KafkaProducer<String, byte[]> producer;
    private final int producerMax;
    private volatile Integer maxRecordBytes;

    public KafkaBatchLog(Topic<String, byte[]> topic, Map<String, Object> clientConfig) {
        this.topic = topic;
        this.clientConfig = Map.copyOf(clientConfig);
        Map<String, Object> p = new HashMap<>(clientConfig);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "judge-batches-" + ProcessHandle.current().pid());
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.producerMax = intSetting(p.getOrDefault(ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                ProducerConfig.configDef().defaultValues().get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG)));
    }

    private static int intSetting(Object value) {
        return value instanceof Number n ? n.intValue() : Integer.parseInt(String.valueOf(value).trim());
    }

    /**
     * The smaller of the producer's {@code max.request.size} and the topic's {@code max.message.bytes} (the broker's
     * {@code message.max.bytes} when the topic has none), less {@link #HEADROOM}; read once, on the first call.
     */
    @Override
    public int maxRecordBytes() {
        Integer max = maxRecordBytes;
        if (max == null) {
            max = Math.max(0, Math.min(producerMax, topicMax()) - HEADROOM);
            maxRecordBytes = max;
            LOG.info("records of {} take up to {} bytes (producer max.request.size {}, less {} of headroom)", topic.name(), max,
                    producerMax, HEADROOM);
        }
        return max;
    }

    /** The topic's record limit as the broker has it; the producer's when it cannot be read (logged, once: it is read once). */
    private int topicMax() {
        try (Admin admin = Admin.create(clientConfig)) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic.name());
            ConfigEntry entry = null;
            try {
                Config config = admin.describeConfigs(List.of(resource)).all().get(READ_LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                        .get(resource);
                entry = config == null ? null : config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            } catch (ExecutionException e) {
                LOG.info("cannot read {}'s max.message.bytes ({}); taking the broker's message.max.bytes", topic.name(),
                        e.getCause().toString());
            }
            if (entry != null && entry.value() != null) {
                return Integer.parseInt(entry.value());
            }
            String node = String.valueOf(admin.describeCluster().nodes().get(READ_LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                    .iterator().next().id());
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, node);
            return Integer.parseInt(admin.describeConfigs(List.of(broker)).all().get(READ_LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                    .get(broker).get("message.max.bytes").value());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("interrupted while reading the record limit of {}; taking the producer's ({})", topic.name(), producerMax);
            return producerMax;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("cannot read the record limit of {} ({}); taking the producer's max.request.size ({})", topic.name(),
                    e instanceof ExecutionException x ? x.getCause().toString() : e.toString(), producerMax);
            return producerMax;
        }
    }

    @Override
    public void append(BatchRecord record) {
        byte[] value = record.toJson();
        try {
            producer.send(new ProducerRecord<>(topic.name(), record.localId(), value)).get(WRITE_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing batch " + record.localId(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RecordTooLargeException || e.getCause() instanceof RecordBatchTooLargeException) {
                throw new TooLarge("batch " + record.localId() + " (" + value.length + " bytes) is too large for " + topic.name() + ": "
                        + e.getCause().getMessage(), value.length, e.getCause());
            }
            throw new IllegalStateException("cannot write batch " + record.localId() + " to " + topic.name() + ": " + e, e);
        } catch (TimeoutException e) {
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
