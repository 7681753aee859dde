package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.bench.ScriptedVlmServer.Kind;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The judge engine without Kafka: budget, configuration errors, video as frames or whole, shared calls. */
@Tag("unit")
class JudgeEngineTest {

    static final String KEY = "sk-engine-test-9876543210";

    @TempDir
    Path dir;
    ScriptedVlmServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    JudgeEngine engine(JudgeSettings s) {
        return JudgeRuntime.engine(s, JudgeRuntime.client(s, Map.of("KEY", KEY)),
                new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                JudgeMetrics.standalone());
    }

    JudgeSettings settings(String protocol) {
        URI base = URI.create(protocol.equals("openai") ? server.openAiBaseUrl() : server.geminiBaseUrl());
        return JudgeSettings.defaults(protocol, base, "jm").withApiKeyEnv("KEY").withQuota(50, Duration.ofSeconds(1))
                .withTimeouts(Duration.ofSeconds(2), 2, Duration.ofMillis(50), Duration.ofMillis(100));
    }

    @Test
    void aSpentBudgetStopsCallsVisiblyAndKeepsTheRequest() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
        // only output is priced, $1000 per million tokens: a call reserves its 40-token cap ($0.04) and the
        // scripted answers bill 31 tokens ($0.031); $0.10 allows 0.031 + 0.031 + 0.04 > 0.10, i.e. two calls
        JudgeSettings s = settings("openai").withPrices(0.0, 1000.0, 0.10).withTokens(0, 800, 40);
        JudgeEngine engine = engine(s);
        List<JudgeEngine.Outcome> outcomes = List.of(
                engine.judge(JudgeFixtures.mathText("run-b", "b1", "x = 4")),
                engine.judge(JudgeFixtures.mathText("run-b", "b2", "x = 4")),
                engine.judge(JudgeFixtures.mathText("run-b", "b3", "x = 4")));
        assertThat(outcomes.get(0)).isInstanceOf(JudgeEngine.Outcome.Done.class);
        assertThat(outcomes.get(1)).isInstanceOf(JudgeEngine.Outcome.Done.class);
        assertThat(outcomes.get(2)).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class,
                w -> assertThat(w.reason()).contains("budget").contains("run-b").contains("$0.1000"));
        assertThat(server.requestCount()).isEqualTo(2);
        double spent = outcomes.subList(0, 2).stream().mapToDouble(o -> ((JudgeEngine.Outcome.Done) o).verdict().getCostUsd()).sum();
        assertThat(spent).isPositive();
        assertThat(engine.ledger().run("run-b").costUsd()).isEqualTo(spent);
        assertThat(engine.ledger().run("run-b").calls()).isEqualTo(2);
        // another run has its own budget
        assertThat(engine.judge(JudgeFixtures.mathText("run-c", "c1", "x = 4"))).isInstanceOf(JudgeEngine.Outcome.Done.class);
    }

    @Test
    void aRejectedKeyWaitsInsteadOfFailingAndIsNeverRepeatedInTheReason() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.of(Kind.UNAUTHORIZED));
        JudgeEngine engine = engine(settings("gemini"));
        JudgeEngine.Outcome o = engine.judge(JudgeFixtures.mathText("r", "k1", "x = 4"));
        assertThat(o).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class, w -> {
            assertThat(w.reason()).contains("rejects the configuration").contains("HTTP 401").contains("***");
            assertThat(w.reason()).doesNotContain(KEY);
        });
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void videosGoAsSampledFramesOverOpenAiAndWholeToGemini() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
        Path video = dir.resolve("out.mp4");
        try (VideoEncoder enc = VideoEncoder.open(video, 64, 64, 8, VideoEncoder.Container.MP4)) {
            for (int i = 0; i < 24; i++) {
                enc.write(RgbImage.filled(64, 64, 0x101010 * (i % 15)));
            }
        }
        byte[] bytes = Files.readAllBytes(video);
        ArtifactRef out = ArtifactRef.newBuilder().setRole("output").setUri(video.toUri().toString())
                .setSha256(JudgeFixtures.sha256(bytes)).setMediaType("video/mp4").build();
        GenerationEvent e = GenerationEvent.newBuilder().setRunId("r").setModel("m").setCheckpointId("c").setTrainingStep(1)
                .setTask("physical-concepts").setSampleId("v1").setModality("video").setArtifacts(List.of(out))
                .setProducedAt(Instant.now()).build();
        BenchmarkItem item = BenchmarkItem.newBuilder().setTask("physical-concepts").setSampleId("v1").setPrompt("case=video a ball falls")
                .setGroundTruth(GroundTruth.newBuilder().setPhysicsFocus("gravity").build()).build();
        JudgeRequest r = JudgeFixtures.request(e, item);

        JudgeEngine.Outcome framed = engine(settings("openai").withMedia(6, false, "json_schema")).judge(r);
        assertThat(framed).isInstanceOfSatisfying(JudgeEngine.Outcome.Done.class,
                d -> assertThat(d.verdict().getStatus()).isEqualTo("VALID"));
        assertThat(server.seen().get(0).images()).isEqualTo(6);
        assertThat(server.seen().get(0).videos()).isZero();

        JudgeEngine.Outcome whole = engine(settings("gemini").withMedia(6, true, "json_schema")).judge(r);
        assertThat(whole).isInstanceOf(JudgeEngine.Outcome.Done.class);
        assertThat(server.seen().get(1).videos()).isEqualTo(1);
        assertThat(server.seen().get(1).images()).isZero();
        // frames and a whole video are different prompts: different cache keys
        assertThat(((JudgeEngine.Outcome.Done) whole).verdict().getCacheKey())
                .isNotEqualTo(((JudgeEngine.Outcome.Done) framed).verdict().getCacheKey());
    }

    @Test
    void identicalPromptsInFlightTogetherMakeOneCall() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ofMillis(300), Map.of()));
        JudgeEngine engine = engine(settings("openai"));
        JudgeRequest a = JudgeFixtures.mathImage("r", "same", 0x00FF00);
        // the same generation and item under another sample id and request id
        JudgeRequest b = JudgeRequest.newBuilder(a).setRequestId("other-request").setGenerationId("gen-other").build();
        CompletableFuture<JudgeEngine.Outcome> fa = CompletableFuture.supplyAsync(() -> engine.judge(a));
        Thread.sleep(50);
        CompletableFuture<JudgeEngine.Outcome> fb = CompletableFuture.supplyAsync(() -> engine.judge(b));
        var va = ((JudgeEngine.Outcome.Done) fa.get()).verdict();
        var vb = ((JudgeEngine.Outcome.Done) fb.get()).verdict();
        assertThat(server.requestCount()).isEqualTo(1);
        assertThat(vb.getRequestId()).isEqualTo("other-request");
        assertThat(vb.getGenerationId()).isEqualTo("gen-other");
        assertThat(vb.getCachedFrom()).isEqualTo(a.getRequestId());
        assertThat(vb.getMetrics()).isEqualTo(va.getMetrics());
        assertThat(vb.getAttempts()).isZero();
        assertThat(((JudgeEngine.Outcome.Done) fb.get()).fresh()).isFalse();
        assertThat(((JudgeEngine.Outcome.Done) fa.get()).fresh()).isTrue();
    }

    @Test
    void longAnswersAreCutOnTheVerdictAndInTheRepairTurn() throws Exception {
        String longWhy = "because ".repeat(2_000); // 16,000 characters
        String rambling = "I think the answer is probably right. ".repeat(1_500); // 57,000 characters, no JSON
        List<String> prompts = new java.util.concurrent.CopyOnWriteArrayList<>();
        server = ScriptedVlmServer.start(e -> {
            prompts.add(e.text());
            return e.caseName().equals("long-why")
                    ? Action.streamedAnswer(out -> out.write("{\"final_correctness\": {\"score\": 1, \"justification\": \""
                            + longWhy + "\"}, \"intermediate_correctness\": {\"score\": 0, \"justification\": \"short\"}}"))
                    : Action.streamedAnswer(out -> out.write(rambling));
        });
        JudgeEngine engine = engine(settings("openai"));

        var valid = ((JudgeEngine.Outcome.Done) engine.judge(JudgeFixtures.mathText("r", "long-why", "x = 4"))).verdict();
        assertThat(valid.getStatus()).isEqualTo("VALID");
        assertThat(valid.getMetrics()).containsEntry("final_correctness", 1.0).containsEntry("intermediate_correctness", 0.0);
        assertThat(valid.getJustifications().get("final_correctness"))
                .startsWith(longWhy.substring(0, JudgeEngine.MAX_JUSTIFICATION_CHARS))
                .endsWith(" ... [" + (longWhy.length() - JudgeEngine.MAX_JUSTIFICATION_CHARS) + " more characters cut]");
        assertThat(valid.getJustifications()).containsEntry("intermediate_correctness", "short");

        prompts.clear();
        var invalid = ((JudgeEngine.Outcome.Done) engine.judge(JudgeFixtures.mathText("r", "rambling", "x = 4"))).verdict();
        assertThat(invalid.getStatus()).isEqualTo("INVALID");
        assertThat(invalid.getReason()).isEqualTo("unusable answer after one repair: the answer holds no JSON object");
        String cut = " ... [" + (rambling.length() - JudgeEngine.MAX_KEPT_CHARS) + " more characters cut]";
        assertThat(invalid.getRawText()).isEqualTo(rambling.substring(0, JudgeEngine.MAX_KEPT_CHARS) + cut);
        // the repair turn echoed the same cut answer, not all of it
        assertThat(prompts).hasSize(2);
        assertThat(prompts.get(1)).contains(rambling.substring(0, JudgeEngine.MAX_KEPT_CHARS) + cut)
                .hasSizeLessThan(prompts.get(0).length() + JudgeEngine.MAX_KEPT_CHARS + 1_000);
    }

    @Test
    void sendsAreSpacedSoTheQuotaHoldsInEverySlidingWindow() {
        assertThat(JudgeResilience.permitSpacing(20, Duration.ofSeconds(1), Duration.ofMillis(25), 1))
                .isEqualTo(Duration.ofNanos(51_250_000));
        // two instances sharing the quota take half each
        assertThat(JudgeResilience.permitSpacing(20, Duration.ofSeconds(1), Duration.ZERO, 2)).isEqualTo(Duration.ofMillis(100));
        // a per-minute quota
        assertThat(JudgeResilience.permitSpacing(60, Duration.ofMinutes(1), Duration.ZERO, 1)).isEqualTo(Duration.ofSeconds(1));
    }
}
