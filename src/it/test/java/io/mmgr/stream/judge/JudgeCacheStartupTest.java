package io.mmgr.stream.judge;

import static io.mmgr.stream.judge.JudgeWorkerResilienceTest.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.contract.Topics;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/**
 * A worker does not wait for the cache to load: it starts at once, serves what the cache already
 * holds, and holds a miss as PENDING ("judge cache still loading") rather than call the judge for a
 * verdict that may be further down the topic; and a restart on the same data directory reads only the
 * topic's tail. The cache topic here holds 20,000 entries, spread over its partitions, ahead of the one that matters, read one
 * record per fetch, so loading takes far longer than joining the group.
 */
@Tag("integration")
class JudgeCacheStartupTest {

    static final int FILLER = 20_000;

    @TempDir
    static Path dir;
    static JudgeKafka k;
    static ScriptedVlmServer server;

    @BeforeAll
    static void start() throws Exception {
        k = new JudgeKafka(dir);
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
    }

    @AfterAll
    static void stop() {
        server.close();
        k.close();
    }

    @Test
    void aWorkerStartsBeforeItsCacheIsReadAndARestartReadsOnlyTheTail() throws Exception {
        Topics topics = k.topics("startup.", 2);
        // 20,000 entries of earlier work, each its own record batch (so a fetch of one byte returns one record)
        // one request per record is slow beside another test JVM: allow it time, and make sure every one was written
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", k.kafka.bootstrapServers(),
                "batch.size", 0, "linger.ms", 0, "delivery.timeout.ms", 600_000,
                // one request per record: many in flight (order does not matter for filler), or writing it is most of the test
                "enable.idempotence", false, "max.in.flight.requests.per.connection", 200), new ByteArraySerializer(), new ByteArraySerializer())) {
            String t = topics.judgeCache.name();
            java.util.List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>> sent = new java.util.ArrayList<>();
            for (int i = 0; i < FILLER; i++) {
                JudgeVerdict v = VerdictCacheTest.verdict(i);
                sent.add(p.send(new ProducerRecord<>(t, v.getCacheKey().getBytes(StandardCharsets.UTF_8),
                        topics.judgeCache.valueSerde().serializer().serialize(t, v))));
            }
            for (var f : sent) {
                f.get();
            }
        }
        JudgeSettings s = JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "gpt-4.1")
                .quota(q -> q.requests(20, Duration.ofSeconds(1))).build();
        JudgeRequest r = JudgeFixtures.mathText("run-start", "startup-1", "x = 4");

        Map<Integer, Long> fillerOnly = k.endOffsets(topics.judgeCache.name());
        // a first worker judges the request: its entry is the last of its partition
        try (JudgeRuntime first = k.start(s, Map.of(), topics, "startup-a")) {
            k.publish(topics, r);
            await(() -> JudgeWorkerResilienceTest.finals(k.verdicts(topics)), m -> m.containsKey(r.getRequestId()),
                    Duration.ofSeconds(60), "the first verdict");
        }
        assertThat(server.requestCount()).isEqualTo(1);
        Map<Integer, Long> withEntry = k.endOffsets(topics.judgeCache.name());
        // the cache reads its partitions side by side, so the hit needs every record of the entry's partition, not of the topic
        long entryPartitionRecords = withEntry.entrySet().stream()
                .filter(e -> e.getValue() > fillerOnly.getOrDefault(e.getKey(), 0L))
                .mapToLong(Map.Entry::getValue).max().orElseThrow();
        assertThat(entryPartitionRecords).as("the entry's partition holds filler ahead of it").isGreaterThan(FILLER / 4);

        // a new worker, a fresh data directory, reading the cache one record per fetch; a new group replays the request
        Path data = dir.resolve("startup-b-data");
        Map<String, Object> slow = Map.of("max.partition.fetch.bytes", 1, "fetch.max.bytes", 1);
        JudgeRuntime second = JudgeRuntime.start(s, Map.of(), topics,
                new JudgeWorker.Config(k.kafka.bootstrapServers(), "startup-b", slow),
                new io.mmgr.stream.artifacts.LocalArtifactResolver(java.util.List.of(dir),
                        io.mmgr.stream.artifacts.LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), data);
        try (second) {
            assertThat(second.engine().cache().complete()).as("started before the cache was read").isFalse();
            var loading = await(() -> k.verdicts(topics), l -> l.stream().anyMatch(e -> "PENDING".equals(e.getValue().getStatus())
                    && e.getValue().getReason().contains("judge cache still loading")), Duration.ofSeconds(60),
                    "the replayed request held while the cache loads");
            assertThat(second.engine().cache().complete()).isFalse();
            await(() -> k.verdicts(topics).stream().filter(e -> e.getValue().getCachedFrom() != null).count(), n -> n >= 1,
                    Duration.ofSeconds(120), "the replayed request answered from the cache");
            assertThat(second.worker().cacheRecordsRead()).as("read up to the entry").isGreaterThanOrEqualTo(entryPartitionRecords);
            assertThat(loading).isNotEmpty();
        }
        assertThat(server.requestCount()).as("nothing billed again").isEqualTo(1);

        // restarted on the same directory: only the tail (nothing new) is read, and the replay is a hit at once
        try (JudgeRuntime third = JudgeRuntime.start(s, Map.of(), topics,
                new JudgeWorker.Config(k.kafka.bootstrapServers(), "startup-c", slow),
                new io.mmgr.stream.artifacts.LocalArtifactResolver(java.util.List.of(dir),
                        io.mmgr.stream.artifacts.LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), data)) {
            await(() -> third.engine().cache().complete(), c -> c, Duration.ofSeconds(30), "the cache complete");
            await(() -> k.verdicts(topics).stream().filter(e -> e.getValue().getCachedFrom() != null).count(), n -> n >= 2,
                    Duration.ofSeconds(60), "the second replay answered from the cache");
            assertThat(third.worker().cacheRecordsRead()).as("records read after the restart").isLessThan(10);
            assertThat(third.engine().cache().count()).isGreaterThan(FILLER);
        }
        assertThat(server.requestCount()).isEqualTo(1);
    }
}
