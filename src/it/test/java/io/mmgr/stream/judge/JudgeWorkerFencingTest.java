package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.worker.MemberIdentity;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A judge worker whose producer a second process with its transactional.id fences stops, as it did
 * before it ran on the shared loop (the judge's hook does not start a new session): the verdict of the
 * fenced transaction is never visible, {@code judge-worker} sees the worker stopped and why, and the
 * restarted worker writes each verdict once.
 */
@Tag("integration")
class JudgeWorkerFencingTest {

    @TempDir
    Path dir;

    @Test
    void aFencedWorkerStopsAndItsRestartWritesEachVerdictOnce() throws Exception {
        try (JudgeKafka k = new JudgeKafka(dir);
             ScriptedVlmServer server = ScriptedVlmServer.start(e -> Action.ok(Duration.ofMillis(20), Map.of()))) {
            Topics topics = k.topics("fence.", 1);
            JudgeSettings s = JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "gpt-4.1")
                    .quota(q -> q.requests(10, Duration.ofSeconds(1))).build();
            MemberIdentity identity = new MemberIdentity("judge-fence-1", true);
            JudgeRequest first = JudgeFixtures.mathText("run-fence", "fence-1", "x = 4");
            JudgeRequest second = JudgeFixtures.mathText("run-fence", "fence-2", "x = 5");
            try (JudgeRuntime w = start(k, s, topics, identity)) {
                k.publish(topics, first);
                await().atMost(Duration.ofSeconds(60)).until(() -> finals(k, topics).containsKey(first.getRequestId()));

                try (KafkaProducer<byte[], byte[]> other = new KafkaProducer<>(Map.of("bootstrap.servers", k.kafka.bootstrapServers(),
                        "transactional.id", identity.transactionalId("fence-group")), new ByteArraySerializer(),
                        new ByteArraySerializer())) {
                    other.initTransactions();
                }
                k.publish(topics, second);
                await().atMost(Duration.ofSeconds(60)).until(() -> !w.worker().isRunning());
                assertThat(w.worker().failure()).isInstanceOf(ProducerFencedException.class);
                assertThat(finals(k, topics)).doesNotContainKey(second.getRequestId());
            }

            // restarted (same identity, same data directory): the second request is judged, the first not again
            try (JudgeRuntime w = start(k, s, topics, identity)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> finals(k, topics).containsKey(second.getRequestId()));
                assertThat(w.worker().isRunning()).isTrue();
                assertThat(w.worker().failure()).isNull();
            }
            List<String> ids = k.verdicts(topics).stream().map(e -> e.getValue())
                    .filter(v -> !"PENDING".equals(v.getStatus())).map(JudgeVerdict::getRequestId).toList();
            assertThat(ids).containsExactlyInAnyOrder(first.getRequestId(), second.getRequestId());
        }
    }

    private static Map<String, JudgeVerdict> finals(JudgeKafka k, Topics topics) {
        return JudgeWorkerResilienceTest.finals(k.verdicts(topics));
    }

    private JudgeRuntime start(JudgeKafka k, JudgeSettings s, Topics topics, MemberIdentity identity) {
        return JudgeRuntime.start(s, Map.of(), topics, new JudgeWorker.Config(k.kafka.bootstrapServers(), "fence-group", Map.of(),
                        identity), new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                new SimpleMeterRegistry(), dir.resolve("data"));
    }
}
