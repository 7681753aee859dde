package io.mmgr.stream.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.app.TopicAdmin;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.contract.VerdictStatus;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.judge.CostLedger;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.judge.PricingSettings;
import io.mmgr.stream.judge.batch.BatchSettings;
import io.mmgr.stream.judge.batch.LaneMode;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One checkpoint's judge requests through a judge worker in one lane, on the in-process broker, against the scripted
 * provider (OpenAI's protocol: realtime calls under a quota, and its Batch API, each batch completing after a set time):
 * how long until every request has its final verdict, what the calls cost at the given prices, and how many went
 * realtime and how many in batches. Same workload per lane, so the lanes compare side by side.
 */
public final class JudgeLaneBench {

    /**
     * @param requests    the checkpoint's judge requests (distinct, no cache hits)
     * @param quota       provider requests per second (realtime)
     * @param latency     realtime answer latency
     * @param batchTime   how long the provider takes to complete a batch
     * @param target      {@code --judge-latency-target} (auto)
     * @param maxWait     {@code --judge-batch-max-wait}
     * @param inputPrice  US$ per million input tokens
     * @param outputPrice US$ per million output tokens
     */
    public record Config(int requests, int quota, Duration latency, Duration batchTime, Duration target, Duration maxWait,
                         double inputPrice, double outputPrice) {
    }

    /** One lane's run: wall time to the last final verdict, cost, calls by lane. */
    public record Result(LaneMode lane, int verdicts, double seconds, double costUsd, int realtimeCalls, int batched, int batches) {
        public double costPer1000() {
            return costUsd / verdicts * 1000;
        }
    }

    private JudgeLaneBench() {
    }

    public static Result run(Config c, LaneMode lane, Path dir) throws Exception {
        Files.createDirectories(dir);
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0);
             RegistryServer registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null);
             ScriptedVlmServer server = ScriptedVlmServer.start(e -> ScriptedVlmServer.Action.ok(c.latency(),
                     Map.of("final_correctness", 1.0, "intermediate_correctness", 1.0)))) {
            server.quota(new ScriptedVlmServer.Quota(c.quota(), Duration.ofSeconds(1)));
            server.openAiBatches().plan(n -> OpenAiBatches.Plan.completeAfter(c.batchTime()));
            AvroSerdes serdes = new AvroSerdes(new SchemaRegistryClient(registry.url()), true);
            Topics topics = new Topics("lane.", 3, (short) 1, serdes);
            Map<String, Object> client = Map.of("bootstrap.servers", kafka.bootstrapServers());
            try (Admin admin = Admin.create(client)) {
                TopicAdmin.ensure(admin, topics.definitions());
            }
            JudgeSettings s = JudgeSettings.builder(JudgeProtocol.OPENAI, URI.create(server.baseUrl(JudgeProtocol.OPENAI)), "lane-bench")
                    .apiKeyEnv("LANE_KEY")
                    .quota(q -> q.requests(c.quota(), Duration.ofSeconds(1)))
                    .pricing(new PricingSettings(c.inputPrice(), c.outputPrice(), null))
                    .maxInFlight(Math.max(256, 2 * c.requests()))
                    .build();
            BatchSettings b = new BatchSettings(lane, Math.min(BatchSettings.LIMIT_MAX_REQUESTS, Math.max(1, c.requests())), c.maxWait(),
                    Duration.ofMillis(500), c.target());
            try (JudgeRuntime judge = JudgeRuntime.start(s, b, Map.of("LANE_KEY", "sk-lane-bench"), topics,
                    new JudgeWorker.Config(kafka.bootstrapServers(), "lane-judge", Map.of()),
                    new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                    new SimpleMeterRegistry(), dir.resolve("judge-data"));
                 KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                         "acks", "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
                long t0 = System.nanoTime();
                String topic = topics.judgeRequests.name();
                for (int i = 0; i < c.requests(); i++) {
                    JudgeRequest r = JudgeBench.request(i);
                    SampleKey key = new SampleKey(r.getEvent().getRunId(), r.getEvent().getCheckpointId(), r.getRubric(),
                            r.getEvent().getSampleId(), 0);
                    producer.send(new ProducerRecord<>(topic, SampleKeys.partition(key, 3),
                            topics.judgeRequests.keySerde().serializer().serialize(topic, key),
                            topics.judgeRequests.valueSerde().serializer().serialize(topic, r)));
                }
                producer.flush();
                int finals = awaitFinals(kafka.bootstrapServers(), topics, c.requests(), Duration.ofMinutes(30));
                double seconds = (System.nanoTime() - t0) / 1e9;
                double cost = judge.engine().ledger().checkpoints().values().stream().mapToDouble(CostLedger.Totals::costUsd).sum();
                ScriptedBatchApi batches = server.batchApi(JudgeProtocol.OPENAI);
                int batched = batches.billed().values().stream().mapToInt(Integer::intValue).sum();
                return new Result(lane, finals, seconds, cost, server.seen().size(), batched, batches.batchesCreated());
            }
        }
    }

    /** Reads the verdicts topic (committed) until {@code n} requests have a final verdict; returns how many did. */
    private static int awaitFinals(String bootstrap, Topics topics, int n, Duration timeout) {
        Set<String> done = new HashSet<>();
        String topic = topics.judgeVerdicts.name();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "isolation.level", "read_committed", "group.id", "lane-bench-reader", "auto.offset.reset", "earliest"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (done.size() < n && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    JudgeVerdict v = topics.judgeVerdicts.valueSerde().deserializer().deserialize(topic, r.value());
                    if (!VerdictStatus.PENDING.is(v.getStatus())) {
                        done.add(v.getRequestId());
                    }
                }
            }
        }
        return done.size();
    }
}
