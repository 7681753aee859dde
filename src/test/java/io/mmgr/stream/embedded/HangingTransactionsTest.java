package io.mmgr.stream.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hanging transactions on a real broker. A transaction no coordinator knows is written straight to a partition
 * (a produce request of our own, the broker's partition verification off, as a transaction's partition looks
 * after Kafka 4.4 dropped its markers at a restart); read_committed readers then stop there. The sweep aborts
 * it once it has been open long enough, and leaves alone a live transaction, one on another application's
 * topic and one not yet open long enough. A partition a committed transaction wrote to without its coordinator
 * marking it is committed, as the coordinator decided, not aborted.
 */
@Tag("integration")
class HangingTransactionsTest {

    @TempDir
    Path dir;

    @Test
    void aHangingTransactionOnTheScorersPartitionIsAbortedAndOnlyIt() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0, Map.of("transaction.partition.verification.enable", "false"), null);
             Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            String ours = "mmgr-scorer-plans-repartition";
            admin.createTopics(List.of(new NewTopic(ours, 2, (short) 1), new NewTopic("other-app", 1, (short) 1))).all().get();
            TopicPartition hung = new TopicPartition(ours, 0);
            TopicPartition live = new TopicPartition(ours, 1);
            TopicPartition others = new TopicPartition("other-app", 0);
            produceWithoutCoordinator(kafka.bootstrapServers(), hung, 4242L);
            produceWithoutCoordinator(kafka.bootstrapServers(), others, 4343L);

            try (KafkaProducer<String, String> after = producer(kafka, "after");
                 KafkaProducer<String, String> open = producer(kafka, "live-thread-1");
                 KafkaConsumer<String, String> reader = readCommitted(kafka)) {
                // a committed record behind the hanging one: invisible to read_committed readers until it ends
                after.initTransactions();
                after.beginTransaction();
                after.send(new ProducerRecord<>(ours, 0, "k", "after")).get();
                after.commitTransaction();
                // a live transaction on the scorer's other partition, with its group's offsets, kept open
                open.initTransactions();
                open.beginTransaction();
                open.send(new ProducerRecord<>(ours, 1, "k", "live")).get();
                open.sendOffsetsToTransaction(Map.of(hung, new OffsetAndMetadata(1)), new ConsumerGroupMetadata("mmgr-scorer"));
                open.flush();

                reader.assign(List.of(hung, live));
                reader.seekToBeginning(List.of(hung, live));
                assertThat(values(reader, Duration.ofSeconds(2))).as("read_committed behind a hanging transaction").isEmpty();

                int offsets = admin.describeTopics(List.of(HangingTransactions.OFFSETS_TOPIC)).allTopicNames().get()
                        .get(HangingTransactions.OFFSETS_TOPIC).partitions().size();
                TopicPartition groupOffsets = new TopicPartition(HangingTransactions.OFFSETS_TOPIC,
                        HangingTransactions.offsetsPartition("mmgr-scorer", offsets));
                assertThat(openProducers(admin, groupOffsets)).as("the live transaction's offsets are where Kafka's rule puts them")
                        .containsExactly(openProducers(admin, live).get(0));

                AtomicLong now = new AtomicLong(1_000_000);
                HangingTransactions.Scope scope = new HangingTransactions.Scope(t -> t.startsWith("mmgr-scorer-"),
                        Set.of("mmgr-scorer"));
                HangingTransactions sweeper = new HangingTransactions(admin, clientConfig(kafka), scope,
                        Duration.ofSeconds(30), Duration.ofSeconds(30), now::get);
                assertThat(sweeper.sweep()).as("first sight").isEmpty();
                now.addAndGet(29_000);
                assertThat(sweeper.sweep()).as("open for 29 s of the 30").isEmpty();
                now.addAndGet(2_000);
                List<HangingTransactions.Open> aborted = sweeper.sweep();
                assertThat(aborted).as("aborted after 31 s").extracting(HangingTransactions.Open::partition,
                        HangingTransactions.Open::producerId).containsExactly(org.assertj.core.groups.Tuple.tuple(hung, 4242L));
                assertThat(sweeper.ended()).isEqualTo(1);

                assertThat(values(reader, Duration.ofSeconds(10))).as("read_committed once it is aborted").containsExactly("after");
                assertThat(openProducers(admin, hung)).as("open transactions on the scorer's partition").isEmpty();
                assertThat(openProducers(admin, others)).as("another application's partition is left alone").containsExactly(4343L);

                open.commitTransaction(); // the live transaction was left open: it still commits
                assertThat(values(reader, Duration.ofSeconds(10))).containsExactly("live");
                now.addAndGet(60_000);
                assertThat(sweeper.sweep()).as("nothing left to abort").isEmpty();
            }
        }
    }

    @Test
    void aPartitionACommittedTransactionNeverGotItsMarkerForIsCommitted() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0, Map.of("transaction.partition.verification.enable", "false"), null);
             Admin admin = Admin.create(clientConfig(kafka))) {
            String ours = "mmgr-scorer-scores-changelog";
            admin.createTopics(List.of(new NewTopic(ours, 2, (short) 1))).all().get();
            TopicPartition marked = new TopicPartition(ours, 0);
            TopicPartition unmarked = new TopicPartition(ours, 1);
            try (KafkaProducer<String, String> committer = producer(kafka, "scorer-thread-2");
                 KafkaConsumer<String, String> reader = readCommitted(kafka)) {
                committer.initTransactions();
                committer.beginTransaction();
                committer.send(new ProducerRecord<>(ours, 0, "k", "marked")).get();
                ProducerState p = admin.describeProducers(List.of(marked)).partitionResult(marked).get().activeProducers().get(0);
                // the same producer and epoch write to a partition its coordinator does not know is in the
                // transaction: the commit marks the first and never the second, as the dropped markers did
                produceWithoutCoordinator(kafka.bootstrapServers(), unmarked, p.producerId(), (short) p.producerEpoch(),
                        "scorer-thread-2", "unmarked");
                committer.commitTransaction();

                reader.assign(List.of(unmarked));
                reader.seekToBeginning(List.of(unmarked));
                assertThat(values(reader, Duration.ofSeconds(2))).as("behind the transaction with no marker").isEmpty();
                assertThat(openProducers(admin, unmarked)).containsExactly(p.producerId());

                AtomicLong now = new AtomicLong(0);
                HangingTransactions sweeper = new HangingTransactions(admin, clientConfig(kafka),
                        new HangingTransactions.Scope(t -> t.startsWith("mmgr-scorer-"), Set.of("mmgr-scorer")),
                        Duration.ofSeconds(30), Duration.ofSeconds(30), now::get);
                assertThat(sweeper.sweep()).isEmpty();
                now.addAndGet(31_000);
                assertThat(sweeper.sweep()).extracting(HangingTransactions.Open::partition).containsExactly(unmarked);
                // committed, as its coordinator decided: an abort would have dropped the record
                assertThat(values(reader, Duration.ofSeconds(10))).as("read_committed once it is ended").containsExactly("unmarked");
                assertThat(openProducers(admin, unmarked)).isEmpty();
            }
        }
    }

    private static Map<String, Object> clientConfig(EmbeddedKafka kafka) {
        return Map.of("bootstrap.servers", kafka.bootstrapServers());
    }

    /** A transactional record from a producer id no coordinator handed out, sent as a client would. */
    private static void produceWithoutCoordinator(String bootstrap, TopicPartition tp, long producerId) throws Exception {
        produceWithoutCoordinator(bootstrap, tp, producerId, (short) 0, "ghost-" + producerId, "hanging");
    }

    /** A transactional record written straight to the partition, without its coordinator hearing of it. */
    private static void produceWithoutCoordinator(String bootstrap, TopicPartition tp, long producerId, short epoch,
                                                  String transactionalId, String value) throws Exception {
        MemoryRecords records = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, epoch, 0,
                new SimpleRecord("k".getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)));
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(tp.topic()).setPartitionData(List.of(
                new ProduceRequestData.PartitionProduceData().setIndex(tp.partition()).setRecords(records))));
        short version = 11; // topics by name
        ProduceRequest request = new ProduceRequest.Builder(version, version, new ProduceRequestData().setAcks((short) -1)
                .setTimeoutMs(30_000).setTransactionalId(transactionalId).setTopicData(topics)).build(version);
        RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, version, "hanging-test", 1);
        String[] hostPort = bootstrap.split(":");
        // as a client would, again while the new partition has no leader yet (a retriable error, nothing written)
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Errors error;
        do {
            ProduceResponse response = (ProduceResponse) CommitMarker.exchange(hostPort[0], Integer.parseInt(hostPort[1]),
                    request, header, Duration.ofSeconds(30));
            error = Errors.forCode(response.data().responses().iterator().next().partitionResponses().get(0).errorCode());
        } while (error.exception() instanceof org.apache.kafka.common.errors.RetriableException
                && System.nanoTime() < deadline && sleep());
        assertThat(error).as("the hanging record's write").isEqualTo(Errors.NONE);
    }

    private static boolean sleep() throws InterruptedException {
        Thread.sleep(100);
        return true;
    }

    private static List<Long> openProducers(Admin admin, TopicPartition tp) throws Exception {
        return admin.describeProducers(List.of(tp)).partitionResult(tp).get().activeProducers().stream()
                .filter(p -> p.currentTransactionStartOffset().isPresent()).map(ProducerState::producerId).toList();
    }

    private static KafkaProducer<String, String> producer(EmbeddedKafka kafka, String transactionalId) {
        return new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers(),
                "transactional.id", transactionalId), new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> readCommitted(EmbeddedKafka kafka) {
        return new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers(),
                "isolation.level", "read_committed"), new StringDeserializer(), new StringDeserializer());
    }

    /** What the reader gets within {@code wait}, stopping at the first non-empty poll. */
    private static List<String> values(KafkaConsumer<String, String> reader, Duration wait) {
        List<String> out = new ArrayList<>();
        long deadline = System.nanoTime() + wait.toNanos();
        while (out.isEmpty() && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> r : reader.poll(Duration.ofMillis(200))) {
                out.add(r.value());
            }
        }
        return out;
    }
}
