package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.bench.MemoryBatchLog;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.judge.batch.BatchLane;
import io.mmgr.stream.judge.batch.BatchProtocols;
import io.mmgr.stream.judge.batch.BatchSettings;
import io.mmgr.stream.judge.batch.LaneMode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine in the batch lane: a request is PENDING while it waits for and in its batch (the reason names the
 * provider's batch id, and the wait is the batch's, not the retry deadline's), then judged from the batch's answer
 * exactly as the realtime answer is judged, billed at the batch price, with no realtime call.
 */
@Tag("unit")
class JudgeEngineBatchLaneTest {

    @TempDir
    Path dir;
    ScriptedVlmServer server;
    final List<VerdictCache> caches = new ArrayList<>();
    final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    final ExecutorService reader = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        timer.shutdownNow();
        reader.shutdownNow();
        caches.forEach(VerdictCache::close);
        server.close();
    }

    JudgeEngine engine(JudgeSettings s) {
        VerdictCache cache = VerdictCache.open(dir.resolve("cache-" + caches.size()));
        caches.add(cache);
        return JudgeRuntime.engine(s, JudgeRuntime.client(s, Map.of("KEY", "sk-batch")),
                new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")), cache,
                JudgeMetrics.standalone());
    }

    @Test
    void aBatchedRequestWaitsInItsBatchThenIsJudgedAsRealtimeAtTheBatchPrice() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
        // only output is priced, $1000 per million tokens, so that a cost is large enough to compare
        JudgeSettings s = JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "jm").apiKeyEnv("KEY")
                .quota(q -> q.requests(50, Duration.ofSeconds(1))).timeout(Duration.ofSeconds(5))
                .pricing(PricingSettings.of(0.0, 1000.0, null)).build();
        JudgeVerdict live = ((JudgeEngine.Outcome.Done) engine(s).judge(JudgeFixtures.mathText("run-r", "q1", "x = 4"))).verdict();
        assertThat(server.requestCount()).isEqualTo(1);

        JudgeEngine batched = engine(s);
        BatchLane lane = new BatchLane(new BatchSettings(LaneMode.BATCH, 1, Duration.ofHours(1), Duration.ofMillis(30),
                Duration.ofMinutes(1)), BatchProtocols.of(JudgeRuntime.client(s, Map.of("KEY", "sk-batch")), Duration.ofSeconds(5),
                reader), new MemoryBatchLog(), timer, Clock.systemUTC(), "w1", () -> 50, Duration.ofSeconds(1));
        lane.start();
        batched.lane(lane);
        JudgeRequest request = JudgeFixtures.mathText("run-b", "q1", "x = 4");
        JudgeEngine.Tries tries = new JudgeEngine.Tries();
        List<String> reasons = new ArrayList<>();
        JudgeEngine.Outcome o = batched.judge(request, tries);
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (o instanceof JudgeEngine.Outcome.Wait w && System.nanoTime() < end) {
            assertThat(w.resume()).isEqualTo(JudgeEngine.Resume.BATCH);
            reasons.add(w.reason());
            Thread.sleep(20);
            o = batched.judge(request, tries);
        }
        assertThat(o).isInstanceOf(JudgeEngine.Outcome.Done.class);
        JudgeVerdict v = ((JudgeEngine.Outcome.Done) o).verdict();
        assertThat(reasons).anyMatch(r -> r.equals("in batch " + server.openAiBatches().batchIds().get(0)));
        assertThat(v.getStatus()).isEqualTo("VALID");
        assertThat(v.getMetrics()).isEqualTo(live.getMetrics()).isNotEmpty();
        assertThat(v.getOutputTokens()).isPositive();
        assertThat(v.getCostUsd()).isCloseTo(0.5 * s.cost(v.getInputTokens(), v.getOutputTokens()), within(1e-12));
        assertThat(v.getCostUsd()).isLessThan(live.getCostUsd());
        assertThat(batched.ledger().run("run-b").costUsd()).isCloseTo(v.getCostUsd(), within(1e-12));
        assertThat(server.requestCount()).as("no realtime call in the batch lane").isEqualTo(1);
        assertThat(server.openAiBatches().billed().values()).containsExactly(1);
    }
}
