package io.mmgr.stream.judge;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.app.TopicAdmin;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** A broker and a registry in this JVM, with helpers to run a judge worker on a topic prefix. */
final class JudgeKafka implements AutoCloseable {

    final EmbeddedKafka kafka;
    final RegistryServer registry;
    final AvroSerdes serdes;
    final KafkaProducer<byte[], byte[]> producer;
    final Path dir;

    JudgeKafka(Path dir) throws Exception {
        this.dir = dir;
        kafka = EmbeddedKafka.start(dir.resolve("broker"), 0);
        registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null);
        serdes = new AvroSerdes(new SchemaRegistryClient(registry.url()), true);
        producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all"),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    Topics topics(String prefix, int partitions) {
        Topics t = new Topics(prefix, partitions, (short) 1, serdes);
        for (int attempt = 1; ; attempt++) {
            // a topic just created may not be described yet on a busy machine: ask again
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                TopicAdmin.ensure(admin, t.definitions());
                return t;
            } catch (IllegalStateException e) {
                if (attempt == 5) {
                    throw e;
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** A worker in {@code group} with its own data directory (its verdict cache) named after the group. */
    JudgeRuntime start(JudgeSettings settings, Map<String, String> env, Topics topics, String group) {
        return start(settings, env, topics, group, dir.resolve("judge-data").resolve(group));
    }

    JudgeRuntime start(JudgeSettings settings, Map<String, String> env, Topics topics, String group, Path dataDir) {
        return JudgeRuntime.start(settings, env, topics,
                new JudgeWorker.Config(kafka.bootstrapServers(), group, Map.of()),
                new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                new SimpleMeterRegistry(), dataDir);
    }

    /** Committed offsets of a consumer group by partition. */
    Map<Integer, Long> committed(String group) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            Map<Integer, Long> out = new java.util.HashMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                    .forEach((tp, o) -> out.put(tp.partition(), o.offset()));
            return out;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** End offset of every partition of {@code topic}. */
    Map<Integer, Long> endOffsets(String topic) {
        return TopicSnapshot.endOffsets(Map.of("bootstrap.servers", kafka.bootstrapServers()), topic, Duration.ofSeconds(30));
    }

    org.apache.kafka.clients.producer.RecordMetadata publish(Topics topics, JudgeRequest r) {
        SampleKey key = JudgeFixtures.key(r);
        String topic = topics.judgeRequests.name();
        int partition = SampleKeys.partition(key, producer.partitionsFor(topic).size());
        try {
            return producer.send(new ProducerRecord<>(topic, partition, topics.judgeRequests.keySerde().serializer().serialize(topic, key),
                    topics.judgeRequests.valueSerde().serializer().serialize(topic, r))).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every verdict written so far, in partition order, with its key. */
    List<Map.Entry<SampleKey, JudgeVerdict>> verdicts(Topics topics) {
        List<Map.Entry<SampleKey, JudgeVerdict>> out = new ArrayList<>();
        String topic = topics.judgeVerdicts.name();
        for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(Map.of("bootstrap.servers", kafka.bootstrapServers()), topic,
                Duration.ofSeconds(30))) {
            out.add(Map.entry(topics.judgeVerdicts.keySerde().deserializer().deserialize(topic, r.key()),
                    topics.judgeVerdicts.valueSerde().deserializer().deserialize(topic, r.value())));
        }
        return out;
    }

    /** Raw bytes of every record (keys and values) of the given topics. */
    List<byte[]> rawRecords(String... topicNames) {
        List<byte[]> out = new ArrayList<>();
        for (String t : topicNames) {
            for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(Map.of("bootstrap.servers", kafka.bootstrapServers()), t,
                    Duration.ofSeconds(30))) {
                if (r.key() != null) {
                    out.add(r.key());
                }
                if (r.value() != null) {
                    out.add(r.value());
                }
                r.headers().forEach(h -> out.add(h.value()));
            }
        }
        return out;
    }

    @Override
    public void close() {
        producer.close();
        registry.close();
        kafka.close();
    }
}
