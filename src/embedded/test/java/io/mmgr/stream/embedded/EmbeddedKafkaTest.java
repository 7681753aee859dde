package io.mmgr.stream.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
class EmbeddedKafkaTest {

    @TempDir
    Path dir;

    @Test
    void dataSurvivesARestartOnTheSameDirectory() throws Exception {
        String bootstrap;
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
            bootstrap = kafka.bootstrapServers();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                admin.createTopics(List.of(new NewTopic("kept", 2, (short) 1))).all().get();
            }
            try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", bootstrap),
                    new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("kept", "k", "before-restart")).get();
            }
        }
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
            assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
            try (var consumer = new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers(),
                    "group.id", "t", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("kept"));
                String seen = null;
                long deadline = System.currentTimeMillis() + 30_000;
                while (seen == null && System.currentTimeMillis() < deadline) {
                    ConsumerRecords<String, String> recs = consumer.poll(Duration.ofMillis(500));
                    for (var r : recs) {
                        seen = r.value();
                    }
                }
                assertThat(seen).isEqualTo("before-restart");
            }
        }
    }

    /**
     * The active segment's indexes are preallocated at the broker's small limit, not Kafka's 10 MiB:
     * after a kill -9 every one of them is mapped and rebuilt (EmbeddedKafka.brokerProperties).
     */
    @Test
    void activeSegmentIndexesArePreallocatedSmall() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("indexed", 1, (short) 1))).all().get();
            }
            try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers(),
                    "linger.ms", 0), new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 50; i++) {
                    producer.send(new ProducerRecord<>("indexed", "k" + i, "x".repeat(8192))).get();
                }
            }
            Path partition = dir.resolve("kafka-logs").resolve("indexed-0");
            try (Stream<Path> files = Files.list(partition)) {
                List<Path> indexes = files.filter(f -> f.toString().endsWith(".index") || f.toString().endsWith(".timeindex"))
                        .toList();
                assertThat(indexes).hasSize(2);
                for (Path index : indexes) {
                    assertThat(Files.size(index)).as(index.toString()).isPositive().isLessThanOrEqualTo(128 * 1024);
                }
            }
        }
    }
}
