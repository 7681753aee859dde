package io.mmgr.stream.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
}
