package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.embedded.EmbeddedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream thread with a backlog on every input partition, as each scorer has right after a broker failover, gives
 * every partition a turn: with the scorer's consumer settings no partition's task waits while another partition's
 * whole fetch is worked through. With Kafka's own (1 MiB per partition, 1,000 records a poll) the thread processed
 * about 950 records of one partition in a row before the other's first, here as on the cluster, where the tasks
 * left without records stopped scoring for 30-150 s (docs/operations.md, "Failover timing").
 */
@Tag("integration")
class CatchUpFairnessTest {

    private static final int PER_PARTITION = 1_200;
    private static final int VALUE_BYTES = 1_000;

    @TempDir
    Path dir;

    @Test
    void aBackloggedThreadAlternatesBetweenItsPartitions() throws Exception {
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
             Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("backlog", 2, (short) 1))).all().get();
            // the backlog is there before the thread starts, as the failover's is when the thread runs again
            try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers(),
                    "linger.ms", 20), new ByteArraySerializer(), new ByteArraySerializer())) {
                byte[] value = new byte[VALUE_BYTES];
                for (int i = 0; i < PER_PARTITION; i++) {
                    for (int p = 0; p < 2; p++) {
                        producer.send(new ProducerRecord<>("backlog", p, null, value));
                    }
                }
                producer.flush();
            }

            Properties props = ScoringTopology.streamsConfig(ScorerSettings.defaults(), kafka.bootstrapServers(),
                    "http://unused", dir.resolve("state"), "dead-letter", RecordCaps.kafkaDefaults());
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "catch-up");
            props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
            StreamsBuilder builder = new StreamsBuilder();
            builder.stream("backlog", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("backlog-in"))
                    .process(() -> new PartitionOrder(order), Named.as("partition-order"));
            try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
                streams.start();
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (order.size() < 2 * PER_PARTITION && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
            }
        }
        assertThat(order).as("every record processed").hasSize(2 * PER_PARTITION);
        // a turn is at most a slice of one partition (128 KiB: about 125 of these records) times the few slices a poll
        // hands out, and the thread alternates between its tasks; Kafka's settings gave one turn of ~950
        assertThat(longestRun(order)).as("records of one partition processed in a row").isLessThan(500);
    }

    private static int longestRun(List<Integer> order) {
        int longest = 0;
        int run = 0;
        int last = -1;
        for (int p : order) {
            run = p == last ? run + 1 : 1;
            last = p;
            longest = Math.max(longest, run);
        }
        return longest;
    }

    /** Notes the partition of every record, in the order the thread processes them. */
    private static final class PartitionOrder implements Processor<byte[], byte[], Void, Void> {
        private final List<Integer> order;
        private ProcessorContext<Void, Void> context;

        PartitionOrder(List<Integer> order) {
            this.order = order;
        }

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            this.context = context;
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            order.add(context.recordMetadata().orElseThrow().partition());
        }
    }
}
