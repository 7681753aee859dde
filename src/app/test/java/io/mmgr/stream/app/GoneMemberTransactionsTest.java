package io.mmgr.stream.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.embedded.EmbeddedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real broker: the open transactions of Kafka Streams processes that left the group are aborted, and no
 * one else's: a live process's, a worker's whose instance is gone (workers are left to their timeout) and another
 * application's stay open; nothing happens while Kafka Streams starts, and once it has run the gone members'
 * transactions are aborted within seconds, with no rebalance reported (a survivor leading the rebalance that a
 * member's loss starts stays RUNNING until it ends).
 */
@Tag("integration")
class GoneMemberTransactionsTest {

    private static final String APP = "app";

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);

    @AfterEach
    void closeAll() throws Exception {
        running.set(false);
        List<AutoCloseable> last = new ArrayList<>(open);
        java.util.Collections.reverse(last);
        for (AutoCloseable c : last) {
            c.close();
        }
    }

    @Test
    void onlyTheGoneMembersTransactionsAreAbortedAndOnlyAroundARebalance() throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0);
        open.add(kafka);
        String bootstrap = kafka.bootstrapServers();
        Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap));
        open.add(admin);
        admin.createTopics(List.of(new NewTopic("work", 1, (short) 1))).all().get();

        String live = UUID.randomUUID().toString();
        String dead = UUID.randomUUID().toString();
        String evaluate = APP + "-evaluate";
        // the live members: a Streams thread's consumer (its client id carries its process id), a static worker
        member(bootstrap, APP, APP + "-" + live + "-StreamThread-1-consumer", null);
        member(bootstrap, evaluate, "evaluate-consumer", "scorer-1");

        Map<String, KafkaProducer<String, String>> producers = new HashMap<>();
        for (String id : List.of(APP + "-" + live + "-1", APP + "-" + live + "-2", APP + "-" + dead + "-1", APP + "-" + dead + "-2",
                evaluate + "-scorer-2", "other-" + dead + "-1")) {
            producers.put(id, openTransaction(bootstrap, id));
        }
        awaitMembers(admin, Map.of(APP, 1, evaluate, 1));

        AtomicReference<KafkaStreams.State> state = new AtomicReference<>(KafkaStreams.State.REBALANCING); // starting
        GoneMemberTransactions sweep = new GoneMemberTransactions(Map.of("bootstrap.servers", bootstrap), APP,
                Duration.ofSeconds(2));
        open.add(sweep);
        assertThat(sweep.fenceGone()).as("every transaction younger than the minimum age").isEmpty();

        sweep.watch(state::get);
        Thread.sleep(3_500); // past the minimum age, while Streams starts: the watch does not check
        assertThat(ongoing(admin, producers.keySet())).as("nothing checked while starting").isEqualTo(producers.keySet());
        state.set(KafkaStreams.State.RUNNING);
        Set<String> gone = Set.of(APP + "-" + dead + "-1", APP + "-" + dead + "-2");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (ongoing(admin, gone).size() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(ongoing(admin, producers.keySet())).as("still open after the checks while running")
                .containsExactlyInAnyOrder(APP + "-" + live + "-1", APP + "-" + live + "-2", evaluate + "-scorer-2", "other-" + dead + "-1");

        for (String id : gone) {
            assertThatThrownBy(() -> producers.get(id).commitTransaction()).as(id).isInstanceOf(KafkaException.class);
        }
        producers.get(APP + "-" + live + "-1").commitTransaction(); // the live owner goes on undisturbed
        assertThat(sweep.fenceGone()).as("nothing left to end").isEmpty();
    }

    private void member(String bootstrap, String group, String clientId, String instanceId) {
        Map<String, Object> config = new HashMap<>(Map.of("bootstrap.servers", bootstrap, "group.id", group, "client.id", clientId));
        if (instanceId != null) {
            config.put("group.instance.id", instanceId);
        }
        Thread t = new Thread(() -> {
            try (KafkaConsumer<String, String> c = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
                c.subscribe(List.of("work"));
                while (running.get()) {
                    c.poll(Duration.ofMillis(100));
                }
            }
        }, "member-" + clientId);
        t.setDaemon(true);
        t.start();
        open.add(() -> t.join(10_000));
    }

    private KafkaProducer<String, String> openTransaction(String bootstrap, String transactionalId) {
        KafkaProducer<String, String> p = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap,
                "transactional.id", transactionalId), new StringSerializer(), new StringSerializer());
        open.add(() -> p.close(Duration.ofSeconds(5)));
        p.initTransactions();
        p.beginTransaction();
        p.send(new ProducerRecord<>("work", transactionalId, "v"));
        p.flush();
        return p;
    }

    private static void awaitMembers(Admin admin, Map<String, Integer> members) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (var e : members.entrySet()) {
            while (admin.describeConsumerGroups(List.of(e.getKey())).all().get().get(e.getKey()).members().size() < e.getValue()) {
                assertThat(System.nanoTime()).as("%s's members joined", e.getKey()).isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private static Set<String> ongoing(Admin admin, Set<String> ids) throws Exception {
        Set<String> out = new java.util.TreeSet<>();
        admin.describeTransactions(ids).all().get().forEach((id, d) -> {
            if (d.state() == TransactionState.ONGOING) {
                out.add(id);
            }
        });
        return out;
    }
}
