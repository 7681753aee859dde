package io.mmgr.stream.judge.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.bench.OpenAiBatches;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.StructuredOutput;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batches topic on the real broker, created with a 16 KB {@code max.message.bytes}: the log reads that limit, and
 * the lane cuts batches of requests with long keys (whose record at {@code maxRequests} would be several times the
 * limit) into records the topic takes. Every request is judged once, in several batches, and no record is refused;
 * a request whose key fits in no batch fails at once with the sizes, and the others go on. Before the lane cut by
 * bytes, the one batch's SUBMITTING record was refused on every tick and nothing was judged.
 */
@Tag("integration")
class BatchLaneRecordLimitTest {

    static final int TOPIC_MAX = 16_384;
    static final int REQUESTS = 120;

    @TempDir
    Path dir;
    EmbeddedKafka kafka;
    ScriptedVlmServer server;
    BatchLane lane;
    final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    final ExecutorService reader = Executors.newSingleThreadExecutor();

    /** The Kafka log, with every write it refused kept. */
    static final class Watched implements BatchLog {
        final BatchLog log;
        final List<RuntimeException> refused = new CopyOnWriteArrayList<>();

        Watched(BatchLog log) {
            this.log = log;
        }

        @Override
        public void append(BatchRecord record) {
            try {
                log.append(record);
            } catch (RuntimeException e) {
                refused.add(e);
                throw e;
            }
        }

        @Override
        public Collection<BatchRecord> load() {
            return log.load();
        }

        @Override
        public int maxRecordBytes() {
            return log.maxRecordBytes();
        }

        @Override
        public void close() {
            log.close();
        }
    }

    @AfterEach
    void stop() {
        if (lane != null) {
            lane.close();
        }
        timer.shutdownNow();
        reader.shutdownNow();
        if (server != null) {
            server.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    /** A request key as long as a sample key near its input limits makes it, with characters JSON escapes. */
    static String key(int i) {
        return "run-" + "r".repeat(200) + "/ckpt-" + "c".repeat(200) + "/sample-" + i + "#rubric:vlm|cfg:" + "\"q\"\\".repeat(20);
    }

    @Test
    void batchesAreCutToTheTopicsRecordLimitAndEveryRequestIsJudgedOnce() throws Exception {
        kafka = EmbeddedKafka.start(dir.resolve("broker"), 0, Map.of(), null);
        Map<String, Object> client = Map.of("bootstrap.servers", kafka.bootstrapServers());
        Topic<String, byte[]> topic = new Topic<>("limit.judge-batches", Serdes.String(), Serdes.ByteArray());
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic.name(), 1, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact", "max.message.bytes", String.valueOf(TOPIC_MAX))))).all().get();
        }
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO,
                Map.of("final_correctness", e.caseName().startsWith("fail") ? 0.0 : 1.0)));
        OpenAiBatches provider = server.openAiBatches();
        ProviderClient judge = JudgeRuntime.client(JudgeSettings.builder(JudgeProtocol.OPENAI, URI.create(server.openAiBaseUrl()),
                        "gpt-4.1").apiKeyEnv("SCRIPTED_KEY").structuredOutput(StructuredOutput.JSON_SCHEMA)
                .timeout(Duration.ofSeconds(15)).build(), Map.of("SCRIPTED_KEY", "sk-test"));
        Watched log = new Watched(new KafkaBatchLog(topic, client));
        int perRequest = BatchRecord.requestBytes(CustomIds.of(key(0)), key(0));
        // the whole queue in one record would be several times the topic's limit
        assertThat((long) perRequest * REQUESTS).isGreaterThan(4L * TOPIC_MAX);

        lane = new BatchLane(new BatchSettings(LaneMode.BATCH, REQUESTS, Duration.ofMillis(300), Duration.ofMillis(50),
                Duration.ofSeconds(1)), BatchProtocols.of(judge, Duration.ofSeconds(15), reader), log, timer, Clock.systemUTC(), "w1",
                () -> 0, Duration.ofSeconds(1));
        lane.start();
        BatchLaneTest.until(() -> lane.bind("probe") == LaneRouter.Bound.UNDECIDED ? null : true);
        assertThat(log.maxRecordBytes()).as("the topic's limit less the headroom").isEqualTo(TOPIC_MAX - KafkaBatchLog.HEADROOM);

        // a key no batch can hold fails at once, naming its size and the limit; the others go on past it
        String huge = "h".repeat(TOPIC_MAX);
        LaneRouter.Route tooLong = lane.route(huge, BatchLaneTest.call(huge));
        assertThat(tooLong).isInstanceOf(LaneRouter.Failure.class);
        ProviderException why = ((LaneRouter.Failure) tooLong).error();
        assertThat(why.kind()).isEqualTo(ProviderException.Kind.REJECTED);
        assertThat(why.getMessage()).contains(BatchRecord.requestBytes(CustomIds.of(huge), huge) + " bytes")
                .contains(String.valueOf(TOPIC_MAX - KafkaBatchLog.HEADROOM));
        assertThat(lane.queued()).isZero();

        List<String> keys = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            keys.add(key(i));
            lane.route(key(i), BatchLaneTest.call(BatchKit.caseName(i)));
        }
        for (int i = 0; i < REQUESTS; i++) {
            String k = keys.get(i);
            String caseName = BatchKit.caseName(i);
            LaneRouter.Route r = BatchLaneTest.until(() -> {
                LaneRouter.Route route = lane.route(k, BatchLaneTest.call(caseName));
                return route instanceof LaneRouter.Waiting ? null : route;
            });
            BatchLaneTest.assertAnswer(r, i % 2 == 0 ? 1 : 0);
        }
        assertThat(log.refused).as("records the log refused").isEmpty();
        assertThat(provider.batchesCreated()).isGreaterThanOrEqualTo(4);
        assertThat(provider.submitted()).hasSize(REQUESTS).doesNotContainKey(CustomIds.of(huge))
                .allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
        assertThat(provider.billed()).hasSize(REQUESTS).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));

        // every SUBMITTING record on the topic holds a batch as created, within the limit the log read
        List<BatchRecord> submitting = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : readAll(client, topic.name())) {
            assertThat(r.value().length).isLessThanOrEqualTo(log.maxRecordBytes());
            BatchRecord b = BatchRecord.fromJson(r.value());
            if (b.state() == BatchRecord.State.SUBMITTING) {
                submitting.add(b);
            }
        }
        assertThat(submitting).hasSize(provider.batchesCreated());
        assertThat(submitting.stream().mapToInt(b -> b.requests().size()).sum()).isEqualTo(REQUESTS);
    }

    static List<ConsumerRecord<String, byte[]>> readAll(Map<String, Object> client, String topic) {
        List<ConsumerRecord<String, byte[]>> all = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(client, new StringDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp);
            while (c.position(tp) < end) {
                c.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }
}
