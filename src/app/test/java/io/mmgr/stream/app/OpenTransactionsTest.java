package io.mmgr.stream.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.embedded.EmbeddedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hanging start reports about open transactions, against a real broker: a transaction that wrote
 * records and a group's offsets and has not ended is named with its state and partitions; once it commits
 * nothing is open.
 */
@Tag("integration")
class OpenTransactionsTest {

    @TempDir
    Path dir;

    @Test
    void anOpenTransactionIsNamedWithItsPartitionsAndACommittedOneIsGone() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0);
             Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("work", 1, (short) 1))).all().get();
            assertThat(OpenTransactions.describe(admin, Duration.ofSeconds(30))).as("before any transaction").isEqualTo("none");
            try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers(),
                    "transactional.id", "stuck-thread-1"), new StringSerializer(), new StringSerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("work", "k", "v")).get();
                producer.sendOffsetsToTransaction(Map.of(new TopicPartition("work", 0), new OffsetAndMetadata(1)),
                        new ConsumerGroupMetadata("the-scorer"));
                producer.flush();

                String open = OpenTransactions.describe(admin, Duration.ofSeconds(30));
                assertThat(open).contains("stuck-thread-1 Ongoing for ").contains("work-0")
                        .containsPattern("__consumer_offsets-\\d").doesNotContain("hanging");

                producer.commitTransaction();
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            String after;
            do {
                after = OpenTransactions.describe(admin, Duration.ofSeconds(30));
            } while (!after.equals("none") && System.nanoTime() < deadline && sleep());
            assertThat(after).as("after the commit").isEqualTo("none");
        }
    }

    private static boolean sleep() throws InterruptedException {
        Thread.sleep(200);
        return true;
    }
}
