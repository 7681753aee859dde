package io.mmgr.stream.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mmgr.stream.app.TopicAdmin;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.embedded.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loop's hook and held records on a real broker, as the judge worker uses them: a held record's
 * notice is committed before it is handed back and before its output, and its offset waits for it; a
 * record revoked while held is dropped by its old owner and done once by the next; a fenced producer
 * stops a loop whose hook says so, with nothing of the fenced transaction visible.
 */
@Tag("integration")
class WorkLoopHookTest {

    static final Duration WAIT = Duration.ofSeconds(90);

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

    /** Creates the topics, {@code partitions} each, and writes {@code perPartition} records to every partition of the first. */
    static void setUp(int partitions, int perPartition, String in, String out) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            TopicAdmin.ensure(admin, List.of(new Topics.Definition(in, partitions, (short) 1, Map.of()),
                    new Topics.Definition(out, 1, (short) 1, Map.of())));
        }
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int part = 0; part < partitions; part++) {
                for (int i = 0; i < perPartition; i++) {
                    p.send(new ProducerRecord<>(in, part, null, bytes("in-" + part + "-" + i))).get();
                }
            }
        }
    }

    static WorkLoop.Config config(String group, String in, String instance) {
        return new WorkLoop.Config("hook-test", kafka.bootstrapServers(), group, List.of(in), new MemberIdentity(instance, false),
                Map.of(), 50, Duration.ofSeconds(30), Duration.ofMillis(20));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static ProducerRecord<byte[], byte[]> out(String topic, String value) {
        return new ProducerRecord<>(topic, 0, null, bytes(value));
    }

    /** What read_committed readers see on the topic. */
    static List<String> visible(String topic) {
        List<String> values = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(Map.of("bootstrap.servers", kafka.bootstrapServers()), topic,
                Duration.ofSeconds(30))) {
            values.add(new String(r.value(), StandardCharsets.UTF_8));
        }
        return values;
    }

    static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        }
    }

    static OffsetAndMetadata committed(String group, String topic, int partition) throws Exception {
        return committed(group).get(new TopicPartition(topic, partition));
    }

    /** Waits until record {@code name} is held and handed back, and its group's commit names {@code metadata} above it. */
    static void awaitHeld(Handler h, String name, String group, String metadata) {
        await().atMost(WAIT).until(() -> h.handedBack.containsKey(name));
        String topic = group + "-in";
        int partition = Integer.parseInt(name.substring(0, name.indexOf('-')));
        await().atMost(WAIT).until(() -> committed(group, topic, partition), o -> o != null && metadata.equals(o.metadata()));
    }

    /**
     * {@link WorkLoopTest.Echo}, naming records "partition-offset" and holding those {@code holds} picks with a
     * notice; a held job handed back is kept in {@link #handedBack}.
     */
    static class Handler extends WorkLoopTest.Echo {
        final Predicate<WorkLoop.Job> holds;
        final List<String> names = new CopyOnWriteArrayList<>();
        final Map<String, WorkLoop.Job> handedBack = new ConcurrentHashMap<>();
        final List<String> handedBackOn = new CopyOnWriteArrayList<>();
        /** what read_committed readers saw when a held job was handed back */
        final Map<String, List<String>> visibleWhenHandedBack = new ConcurrentHashMap<>();

        Handler(String out, Predicate<WorkLoop.Job> holds) {
            super(out, Set.of());
            this.holds = holds;
        }

        static String name(WorkLoop.Job job) {
            return job.partition().partition() + "-" + job.record().offset();
        }

        @Override
        public void accept(WorkLoop.Job job) {
            String n = name(job);
            names.add(n);
            if (!holds.test(job)) {
                job.complete(List.of(out(out, "out-" + n)));
                return;
            }
            job.hold(List.of(out(out, "wait-" + n)), () -> {
                handedBackOn.add(Thread.currentThread().getName());
                visibleWhenHandedBack.put(n, visible(out)); // blocks the loop a moment: a test may
                handedBack.put(n, job);
            });
        }
    }

    /** A hook that records what the loop told it, and whether it restarts after a failure. */
    static class Recorder implements WorkLoop.Hook {
        final boolean restart;
        final AtomicInteger polls = new AtomicInteger();
        final List<Set<TopicPartition>> owned = new CopyOnWriteArrayList<>();
        final List<Throwable> failures = new CopyOnWriteArrayList<>();

        Recorder(boolean restart) {
            this.restart = restart;
        }

        @Override
        public void polled() {
            polls.incrementAndGet();
        }

        @Override
        public void rebalanced(Set<TopicPartition> now) {
            owned.add(now);
        }

        @Override
        public boolean restart(Throwable failure) {
            failures.add(failure);
            return restart;
        }

        Set<TopicPartition> last() {
            return owned.isEmpty() ? Set.of() : owned.get(owned.size() - 1);
        }
    }

    @Test
    void aHeldRecordIsHandedBackOnlyOnceItsNoticeIsCommittedAndItsOffsetWaitsForItsOutput() throws Exception {
        setUp(1, 5, "wh-order-in", "wh-order-out");
        Handler handler = new Handler("wh-order-out", j -> j.record().offset() == 2);
        Recorder hook = new Recorder(true);
        WorkLoop loop = WorkLoop.create(config("wh-order", "wh-order-in", "order"), handler, hook).start();
        try {
            awaitHeld(handler, "0-2", "wh-order", "v1 1-2");
            // handed back on the loop thread, when its notice was already visible to read_committed readers
            assertThat(handler.handedBackOn).containsExactly("hook-test-loop");
            assertThat(handler.visibleWhenHandedBack.get("0-2")).contains("wait-0-2");
            assertThat(hook.owned).contains(Set.of(new TopicPartition("wh-order-in", 0)));
            assertThat(hook.polls.get()).isPositive();
            // the held record keeps the offset at itself; what finished above it is in the commit's metadata
            assertThat(committed("wh-order", "wh-order-in", 0).offset()).isEqualTo(2);
            assertThat(loop.openJobs()).isEqualTo(1);

            // its output, once written, runs the completion's callback on the loop thread with the output visible
            List<List<String>> visibleWhenWritten = new CopyOnWriteArrayList<>();
            WorkLoop.Job job = handler.handedBack.get("0-2");
            assertThat(job.live()).isTrue();
            assertThat(job.complete(List.of(out("wh-order-out", "out-0-2")), () -> visibleWhenWritten.add(visible("wh-order-out"))))
                    .isTrue();
            assertThat(job.complete(List.of(out("wh-order-out", "twice-0-2")))).as("only the first completion counts").isFalse();
            await().atMost(WAIT).until(() -> visibleWhenWritten.size() == 1);
            assertThat(visibleWhenWritten.get(0)).contains("out-0-2");
            await().atMost(WAIT).until(() -> committed("wh-order", "wh-order-in", 0), o -> o != null && o.offset() == 5);

            List<String> out = visible("wh-order-out");
            assertThat(out).containsExactlyInAnyOrder("out-0-0", "out-0-1", "wait-0-2", "out-0-2", "out-0-3", "out-0-4");
            assertThat(out.indexOf("wait-0-2")).as("the notice before the output").isLessThan(out.indexOf("out-0-2"));
            assertThat(loop.openJobs()).isZero();
            assertThat(loop.sessions()).isEqualTo(1);
            assertThat(hook.failures).isEmpty();
        } finally {
            loop.close();
        }
    }

    @Test
    void aRecordRevokedWhileHeldIsDroppedByItsOldOwnerAndDoneOnceByTheNext() throws Exception {
        setUp(2, 3, "wh-revoke-in", "wh-revoke-out");
        // A holds the first record of each partition the first time it sees it, and never lets it go
        Set<String> seenByA = ConcurrentHashMap.newKeySet();
        Handler a = new Handler("wh-revoke-out", j -> j.record().offset() == 0 && seenByA.add(Handler.name(j)));
        Recorder hookA = new Recorder(true);
        WorkLoop loopA = WorkLoop.create(config("wh-revoke", "wh-revoke-in", "revoke-a"), a, hookA).start();
        WorkLoop loopB = null;
        try {
            await().atMost(WAIT).until(() -> a.handedBack.keySet(), k -> k.containsAll(Set.of("0-0", "1-0")));
            await().atMost(WAIT).until(() -> committed("wh-revoke"), c -> c.size() == 2
                    && c.values().stream().allMatch(o -> o.offset() == 0 && "v1 1-2".equals(o.metadata())));
            WorkLoop.Job heldP0 = a.handedBack.get("0-0");
            WorkLoop.Job heldP1 = a.handedBack.get("1-0");

            // B joins: the group rebalances, and one of the partitions is B's from now on
            Handler b = new Handler("wh-revoke-out", j -> false);
            Recorder hookB = new Recorder(true);
            loopB = WorkLoop.create(config("wh-revoke", "wh-revoke-in", "revoke-b"), b, hookB).start();
            await().atMost(WAIT).until(() -> hookA.last().size() == 1 && hookB.last().size() == 1
                    && !hookA.last().equals(hookB.last()));
            TopicPartition moved = hookB.last().iterator().next();
            WorkLoop.Job heldMoved = moved.partition() == 0 ? heldP0 : heldP1;
            WorkLoop.Job heldKept = moved.partition() == 0 ? heldP1 : heldP0;
            assertThat(heldMoved.live()).as("a held job of a partition given up").isFalse();
            // its old owner finishing it late writes nothing: the partition is another member's
            assertThat(heldMoved.complete(List.of(out("wh-revoke-out", "late-" + Handler.name(heldMoved))))).isTrue();
            // the kept partition's held job: still A's (a cooperative rebalance) or given up and fetched again
            heldKept.complete(List.of(out("wh-revoke-out", "late-" + Handler.name(heldKept))));

            String movedFirst = moved.partition() + "-0";
            await().atMost(WAIT).until(() -> committed("wh-revoke"), c -> c.size() == 2
                    && c.values().stream().allMatch(o -> o.offset() == 3));
            // B did only the held record: what A finished above it was in the commit's metadata
            assertThat(b.names).containsExactly(movedFirst);
            List<String> out = visible("wh-revoke-out");
            assertThat(out).doesNotContain("late-" + movedFirst).contains("out-" + movedFirst);
            for (String n : List.of("0-0", "0-1", "0-2", "1-0", "1-1", "1-2")) {
                assertThat(out.stream().filter(v -> v.equals("out-" + n) || v.equals("late-" + n))).as("final outputs of " + n)
                        .hasSize(1);
            }
            assertThat(out).filteredOn(v -> v.startsWith("wait-")).containsExactlyInAnyOrder("wait-0-0", "wait-1-0");
            assertThat(hookA.failures).isEmpty();
            assertThat(hookB.failures).isEmpty();
        } finally {
            loopA.close();
            if (loopB != null) {
                loopB.close();
            }
        }
    }

    @Test
    void aFencedProducerStopsALoopWhoseHookSaysSoAndTheRecordIsDoneOnceAfterTheRestart() throws Exception {
        setUp(1, 3, "wh-fence-in", "wh-fence-out");
        Handler a = new Handler("wh-fence-out", j -> j.record().offset() == 1);
        Recorder stopping = new Recorder(false);
        WorkLoop.Config config = config("wh-fence", "wh-fence-in", "fence");
        WorkLoop loopA = WorkLoop.create(config, a, stopping).start();
        try {
            awaitHeld(a, "0-1", "wh-fence", "v1 1-1");

            // a second process starts with the same transactional.id: it fences A's producer
            try (KafkaProducer<byte[], byte[]> other = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                    "transactional.id", config.identity().transactionalId("wh-fence")), new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                other.initTransactions();
            }
            a.handedBack.get("0-1").complete(List.of(out("wh-fence-out", "fenced-0-1")));

            await().atMost(WAIT).until(() -> !loopA.isRunning());
            assertThat(stopping.failures).hasSize(1);
            assertThat(loopA.lastFailure()).isSameAs(stopping.failures.get(0))
                    .isInstanceOf(ProducerFencedException.class);
            assertThat(loopA.sessions()).as("stopped, not started over").isEqualTo(1);
            assertThat(visible("wh-fence-out")).doesNotContain("fenced-0-1");
            assertThat(committed("wh-fence", "wh-fence-in", 0).offset()).isEqualTo(1);
        } finally {
            loopA.close();
        }

        // the process restarted: the held record is done once, and nothing else again
        Handler c = new Handler("wh-fence-out", j -> false);
        WorkLoop loopC = WorkLoop.create(config, c, new Recorder(false)).start();
        try {
            await().atMost(WAIT).until(() -> committed("wh-fence", "wh-fence-in", 0), o -> o != null && o.offset() == 3);
            assertThat(c.names).containsExactly("0-1");
            assertThat(visible("wh-fence-out")).containsExactlyInAnyOrder("out-0-0", "wait-0-1", "out-0-2", "out-0-1");
        } finally {
            loopC.close();
        }
    }
}
