package io.mmgr.stream.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.TopicAdmin;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The work loop on a real broker: out-of-order completion, outputs and offsets in one transaction,
 * what finished above a slow record skipped by the next owner, and outputs the broker refuses replaced.
 */
@Tag("integration")
class WorkLoopTest {

    @TempDir
    static Path dir;
    static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.start(dir.resolve("broker"), 0);
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    static void topics(String... names) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            List<Topics.Definition> defs = new ArrayList<>();
            for (String n : names) {
                defs.add(new Topics.Definition(n, 1, (short) 1, Map.of()));
            }
            TopicAdmin.ensure(admin, defs);
        }
    }

    static void publish(String topic, int count) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                p.send(new ProducerRecord<>(topic, 0, null, ("in-" + i).getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }

    static WorkLoop.Config config(String group, String in, MemberIdentity id) {
        return new WorkLoop.Config("test-worker", kafka.bootstrapServers(), group, List.of(in), id, Map.of(), 50,
                Duration.ofSeconds(30), Duration.ofMillis(50));
    }

    /** A handler that completes each job with one output, unless told to hold its offset. */
    static class Echo implements WorkLoop.Handler {
        final String out;
        final java.util.Set<Long> hold;
        final List<Long> accepted = new CopyOnWriteArrayList<>();
        final Map<Long, WorkLoop.Job> held = new ConcurrentHashMap<>();
        Consumer<WorkLoop.Job> onUnwritable = j -> { };

        Echo(String out, java.util.Set<Long> hold) {
            this.out = out;
            this.hold = hold;
        }

        @Override
        public void accept(WorkLoop.Job job) {
            long o = job.record().offset();
            accepted.add(o);
            if (hold.contains(o)) {
                held.put(o, job);
                return;
            }
            job.complete(List.of(output(job)));
        }

        ProducerRecord<byte[], byte[]> output(WorkLoop.Job job) {
            return new ProducerRecord<>(out, 0, null, ("out-" + job.record().offset()).getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public boolean fetchMore(TopicPartition partition) {
            return true;
        }

        @Override
        public List<ProducerRecord<byte[], byte[]>> unwritable(WorkLoop.Job job, List<ProducerRecord<byte[], byte[]>> outputs,
                                                                KafkaException error) {
            onUnwritable.accept(job);
            return List.of(new ProducerRecord<>(out, 0, null,
                    ("replaced-" + job.record().offset() + " " + error.getClass().getSimpleName()).getBytes(StandardCharsets.UTF_8)));
        }
    }

    static List<String> values(String topic) {
        List<String> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(Map.of("bootstrap.servers", kafka.bootstrapServers()), topic,
                Duration.ofSeconds(30))) {
            out.add(new String(r.value(), StandardCharsets.UTF_8));
        }
        return out;
    }

    static OffsetAndMetadata committed(String group, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", group), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            return c.committed(java.util.Set.of(new TopicPartition(topic, 0))).get(new TopicPartition(topic, 0));
        }
    }

    static void waitFor(java.util.function.BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(Duration.ofSeconds(90)).pollInSameThread().pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(50)).until(condition::getAsBoolean);
    }

    @Test
    void aSlowRecordHoldsTheOffsetBackButWhatFinishedAboveItIsNotDoneAgainByTheNextOwner() throws Exception {
        topics("wl-in", "wl-out");
        publish("wl-in", 10);
        MemberIdentity id = MemberIdentity.resolve(dir.resolve("a"), Optional.empty(), MemberIdentity.AUTO);
        Echo first = new Echo("wl-out", java.util.Set.of(0L, 4L));
        WorkLoop a = WorkLoop.start(config("wl", "wl-in", id), first);
        waitFor(() -> values("wl-out").size() == 8, "the eight quick records written");
        waitFor(() -> {
            OffsetAndMetadata o = committed("wl", "wl-in");
            return o != null && "v1 1-3,5-9".equals(o.metadata());
        }, "the commit naming what finished above the slow records");
        assertThat(committed("wl", "wl-in").offset()).as("the lowest unfinished record").isZero();
        a.close(Duration.ZERO); // 0 and 4 never finished: a crash would leave them the same way

        // the same member back (static membership, same transactional.id): only the unfinished two come again
        Echo second = new Echo("wl-out", java.util.Set.of());
        WorkLoop b = WorkLoop.start(config("wl", "wl-in", id), second);
        try {
            waitFor(() -> values("wl-out").size() == 10, "the two slow records done");
            waitFor(() -> {
                OffsetAndMetadata o = committed("wl", "wl-in");
                return o != null && o.offset() == 10;
            }, "the offset past the last record");
            assertThat(second.accepted).containsExactly(0L, 4L);
            List<String> out = values("wl-out");
            assertThat(new TreeMap<>(count(out))).as("each record's output written once")
                    .containsOnlyKeys("out-0", "out-1", "out-2", "out-3", "out-4", "out-5", "out-6", "out-7", "out-8", "out-9")
                    .allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
            assertThat(b.aborts()).isZero();
        } finally {
            b.close();
        }
    }

    @Test
    void anOutputTheBrokerRefusesIsReplacedAndTheRecordsAroundItAreWritten() throws Exception {
        topics("wl-big-in", "wl-big-out");
        publish("wl-big-in", 3);
        MemberIdentity id = MemberIdentity.resolve(dir.resolve("b"), Optional.empty(), MemberIdentity.NONE);
        Echo handler = new Echo("wl-big-out", java.util.Set.of()) {
            @Override
            ProducerRecord<byte[], byte[]> output(WorkLoop.Job job) {
                // the second record's output is over the producer's request limit (1 MiB by default)
                byte[] v = job.record().offset() == 1 ? new byte[2 << 20] : ("out-" + job.record().offset()).getBytes(StandardCharsets.UTF_8);
                return new ProducerRecord<>(out, 0, null, v);
            }
        };
        List<Long> refused = new CopyOnWriteArrayList<>();
        handler.onUnwritable = j -> refused.add(j.record().offset());
        WorkLoop loop = WorkLoop.start(config("wl-big", "wl-big-in", id), handler);
        try {
            waitFor(() -> {
                OffsetAndMetadata o = committed("wl-big", "wl-big-in");
                return o != null && o.offset() == 3;
            }, "all three offsets committed");
            List<String> out = values("wl-big-out");
            assertThat(out).containsExactlyInAnyOrder("out-0", "replaced-1 RecordTooLargeException", "out-2");
            assertThat(refused).containsExactly(1L);
            assertThat(loop.aborts()).as("the refused batch was aborted once, then written without it").isEqualTo(1);
            assertThat(loop.sessions()).isEqualTo(1);
        } finally {
            loop.close();
        }
    }

    static Map<String, Integer> count(List<String> values) {
        Map<String, Integer> out = new TreeMap<>();
        values.forEach(v -> out.merge(v, 1, Integer::sum));
        return out;
    }
}
