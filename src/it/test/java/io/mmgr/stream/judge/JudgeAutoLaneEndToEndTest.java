package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.bench.OpenAiBatches;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.contract.VerdictStatus;
import io.mmgr.stream.judge.batch.BatchSettings;
import io.mmgr.stream.judge.batch.LaneMode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --judge-lane auto} on the in-process broker: a burst of judge requests, published before the worker starts,
 * goes realtime only as far as the quota serves within the latency target; the rest go through the scripted Batch API.
 * Every request gets one final verdict, and each is billed once, in one lane. The issue asks for this one end-to-end
 * case; its judging takes about 4 s (8 realtime calls at 2/s, while the batch waits its 1 s and runs 2 s), the rest is
 * the broker starting: 28.7 s at load 24 and 46 s at load 47 on the shared 2-core machine.
 */
@Tag("integration")
class JudgeAutoLaneEndToEndTest {

    /** Quota Q per window W and latency target T: Q * T / W = 8 requests realtime at a time. */
    static final int QUOTA = 2;
    static final Duration WINDOW = Duration.ofSeconds(1);
    static final Duration TARGET = Duration.ofSeconds(4);
    static final int BURST = 40;
    /** How long the scripted provider takes to complete a batch. */
    static final Duration BATCH_RUNS = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    @Test
    void aBurstGoesRealtimeAsFarAsTheQuotaServesWithinTheTargetAndTheRestInABatch() throws Exception {
        try (ScriptedVlmServer server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO,
                Map.of("final_correctness", 1.0, "intermediate_correctness", 1.0)));
             JudgeKafka k = new JudgeKafka(dir)) {
            server.openAiBatches().plan(n -> OpenAiBatches.Plan.completeAfter(BATCH_RUNS));
            Topics topics = k.topics("auto.", 3);
            List<JudgeRequest> burst = new java.util.ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                JudgeRequest r = JudgeFixtures.mathText("run-auto", "auto-" + i, "x = " + i);
                burst.add(r);
                k.publish(topics, r);
            }
            // concurrency 1: a pool of 3 threads, fewer than the realtime room (binding on the pool sent every request realtime)
            JudgeSettings s = JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "judge-auto").apiKeyEnv("AUTO_KEY")
                    .quota(q -> q.requests(QUOTA, WINDOW)).concurrency(1).timeout(Duration.ofSeconds(5)).maxInFlight(2 * BURST).build();
            BatchSettings lane = new BatchSettings(LaneMode.AUTO, 1000, Duration.ofSeconds(1), Duration.ofMillis(200), TARGET);
            Map<String, JudgeVerdict> finals;
            try (JudgeRuntime judge = JudgeRuntime.start(s, lane, Map.of("AUTO_KEY", "sk-auto"), topics,
                    new JudgeWorker.Config(k.kafka.bootstrapServers(), "auto-judge", Map.of()),
                    new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                    new SimpleMeterRegistry(), dir.resolve("judge-data"))) {
                finals = awaitFinals(k, topics, Duration.ofSeconds(60));
            }
            assertThat(finals).hasSize(BURST);
            assertThat(finals.values()).allSatisfy(v -> assertThat(v.getStatus()).isEqualTo("VALID"));
            List<Map.Entry<SampleKey, JudgeVerdict>> all = k.verdicts(topics);
            Map<String, Long> finalCount = all.stream().filter(e -> !VerdictStatus.PENDING.is(e.getValue().getStatus()))
                    .collect(Collectors.groupingBy(e -> e.getValue().getRequestId(), Collectors.counting()));
            assertThat(finalCount.values()).as("one final verdict a request").containsOnly(1L);

            int realtime = server.requestCount();
            int room = (int) (QUOTA * TARGET.toNanos() / WINDOW.toNanos());
            // The worker binds the burst as it takes it in: `room` requests realtime, the rest to the batch lane. A request
            // goes realtime past that only if a realtime answer freed room before the burst was all taken in. The burst is
            // published before the worker starts, so it is taken in from the worker's first fetches, within one window;
            // in one window the quota lets at most QUOTA calls through (its sliding log: at most Q sends in any window), so
            // at most QUOTA answers free room meanwhile. Hence room <= realtime <= room + QUOTA.
            assertThat(realtime).as("realtime calls").isBetween(room, room + QUOTA);
            assertThat(server.seen().stream().map(ScriptedVlmServer.Seen::caseName).distinct().count())
                    .as("no realtime request called twice").isEqualTo(realtime);
            Map<String, Integer> billed = server.openAiBatches().billed();
            assertThat(billed.values()).as("no batch line billed twice").containsOnly(1);
            // every request answered once with distinct prompts (no cache hit): each was billed exactly once, in one lane
            assertThat(billed.size() + realtime).isEqualTo(BURST);
            assertThat(server.openAiBatches().submitted().values()).containsOnly(1);
        }
    }

    /** Final verdicts (committed) by request id, once every request of the burst has one or the time is up. */
    static Map<String, JudgeVerdict> awaitFinals(JudgeKafka k, Topics topics, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        Map<String, JudgeVerdict> finals = Map.of();
        while (System.nanoTime() < end) {
            finals = k.verdicts(topics).stream().map(Map.Entry::getValue).filter(v -> !VerdictStatus.PENDING.is(v.getStatus()))
                    .collect(Collectors.toMap(JudgeVerdict::getRequestId, Function.identity(), (a, b) -> a));
            if (finals.size() >= BURST) {
                break;
            }
            Thread.sleep(250);
        }
        return finals;
    }
}
