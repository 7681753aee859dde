package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.CompositeArtifactResolver;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.artifacts.S3Settings;
import io.mmgr.stream.it.S3TestStore;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.judge.protocol.ModelProfile;
import io.mmgr.stream.judge.protocol.StructuredOutput;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judge engine without Kafka, against the scripted provider: budget, configuration errors, video as
 * frames or whole, shared calls, transient failures until the deadline, rejections final per configuration,
 * the cache key, thinking answers cut before any text, a cache still loading, a generation whose object store is
 * out of reach.
 */
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

    final List<VerdictCache> caches = new java.util.ArrayList<>();

    @AfterEach
    void closeCaches() {
        caches.forEach(VerdictCache::close);
    }

    JudgeEngine engine(JudgeSettings s) {
        VerdictCache cache = VerdictCache.open(dir.resolve("cache-" + caches.size()));
        caches.add(cache);
        return engine(s, cache);
    }

    JudgeEngine engine(JudgeSettings s, VerdictCache cache) {
        return engine(s, cache, JudgeMetrics.standalone());
    }

    JudgeEngine engine(JudgeSettings s, VerdictCache cache, JudgeMetrics metrics) {
        return JudgeRuntime.engine(s, JudgeRuntime.client(s, Map.of("KEY", KEY)),
                new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                cache, metrics);
    }

    JudgeSettings.Builder builder(String protocol, String model) {
        URI base = URI.create(protocol.equals("openai") ? server.openAiBaseUrl() : server.geminiBaseUrl());
        return JudgeSettings.builder(protocol, base, model).apiKeyEnv("KEY")
                .quota(q -> q.requests(50, Duration.ofSeconds(1)))
                .timeout(Duration.ofSeconds(2))
                .retry(r -> r.maxAttempts(2).backoff(Duration.ofMillis(50), Duration.ofMillis(100)));
    }

    JudgeSettings settings(String protocol) {
        return builder(protocol, "jm").build();
    }

    @Test
    void aSpentBudgetStopsCallsVisiblyAndKeepsTheRequest() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
        // only output is priced, $1000 per million tokens: a call reserves its 40-token cap ($0.04) and the
        // scripted answers bill 31 tokens ($0.031); $0.10 allows 0.031 + 0.031 + 0.04 > 0.10, i.e. two calls
        JudgeSettings s = builder("openai", "jm").pricing(PricingSettings.of(0.0, 1000.0, 0.10))
                .profile(p -> p.withAnswerTokens(40)).build();
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
        // OpenAI: 401 invalid_api_key, echoing the key
        JudgeEngine.Outcome o = engine(settings("openai")).judge(JudgeFixtures.mathText("r", "k1", "x = 4"));
        assertThat(o).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class, w -> {
            assertThat(w.reason()).contains("rejects the configuration").contains("HTTP 401").contains("invalid_api_key")
                    .contains("***");
            assertThat(w.reason()).doesNotContain(KEY);
        });
        // Gemini: a 400 INVALID_ARGUMENT whose ErrorInfo says API_KEY_INVALID is about the key, not the request
        JudgeEngine.Outcome g = engine(settings("gemini")).judge(JudgeFixtures.mathText("r", "k2", "x = 4"));
        assertThat(g).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class, w ->
                assertThat(w.reason()).contains("rejects the configuration").contains("HTTP 400").contains("API_KEY_INVALID"));
        assertThat(server.requestCount()).isEqualTo(2);
    }

    @Test
    void aGenerationWhoseObjectStoreIsOutOfReachWaitsAndNothingIsAskedOrBilled() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        JudgeRequest request = JudgeFixtures.mathImage("r", "s3-out", 0x00ff00);
        ArtifactRef inline = request.getEvent().getArtifacts().get(0);
        request.getEvent().setArtifacts(List.of(ArtifactRef.newBuilder(inline).setUri("s3://outputs/r/s3-out.png").build()));
        var artifacts = CompositeArtifactResolver.standard(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill"),
                List.of(), Duration.ofSeconds(1), S3Settings.defaults().withEndpoint(URI.create("http://127.0.0.1:" + closed))
                        // long enough for the SDK's first call on a loaded machine: a closed port refuses at once
                        .withPathStyle(true).withTimeout(Duration.ofSeconds(30)));
        VerdictCache cache = VerdictCache.open(dir.resolve("cache-s3"));
        caches.add(cache);
        JudgeSettings s = settings("openai");
        try (AutoCloseable credentials = S3TestStore.jvmCredentials("engine-test", "engine-test-secret")) {
            JudgeEngine engine = JudgeRuntime.engine(s, JudgeRuntime.client(s, Map.of("KEY", KEY)), artifacts, cache,
                    JudgeMetrics.standalone());
            assertThat(engine.judge(request)).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class, w -> assertThat(w.reason())
                    .startsWith("cannot read the generation for the judge yet: artifact s3://outputs/r/s3-out.png: the store at "
                            + "http://127.0.0.1:" + closed + " cannot be reached"));
            assertThat(engine.ledger().run("r").calls()).isZero();
        }
        assertThat(server.requestCount()).as("the provider was not asked").isZero();
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

        JudgeEngine.Outcome framed = engine(builder("openai", "jm").media(MediaSettings.defaults().withFrames(6, false)).build())
                .judge(r);
        assertThat(framed).isInstanceOfSatisfying(JudgeEngine.Outcome.Done.class,
                d -> assertThat(d.verdict().getStatus()).isEqualTo("VALID"));
        assertThat(server.seen().get(0).images()).isEqualTo(6);
        assertThat(server.seen().get(0).videos()).isZero();

        JudgeEngine.Outcome whole = engine(builder("gemini", "jm").media(MediaSettings.defaults().withFrames(6, true)).build())
                .judge(r);
        assertThat(whole).isInstanceOf(JudgeEngine.Outcome.Done.class);
        assertThat(server.seen().get(1).videos()).isEqualTo(1);
        assertThat(server.seen().get(1).images()).isZero();
        // frames and a whole video are different prompts: different cache keys
        assertThat(((JudgeEngine.Outcome.Done) whole).verdict().getCacheKey())
                .isNotEqualTo(((JudgeEngine.Outcome.Done) framed).verdict().getCacheKey());
    }

    @Test
    void identicalPromptsInFlightTogetherMakeOneCall() throws Exception {
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        // the provider holds its answer until the second request has joined the first one's call
        server = ScriptedVlmServer.start(e -> {
            arrived.countDown();
            try {
                answer.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            return Action.ok(Duration.ZERO, Map.of());
        });
        JudgeMetrics metrics = JudgeMetrics.standalone();
        VerdictCache cache = VerdictCache.open(dir.resolve("shared-cache"));
        caches.add(cache);
        JudgeEngine engine = engine(settings("openai"), cache, metrics);
        JudgeRequest a = JudgeFixtures.mathImage("r", "same", 0x00FF00);
        // the same generation and item under another sample id and request id
        JudgeRequest b = JudgeRequest.newBuilder(a).setRequestId("other-request").setGenerationId("gen-other").build();
        CompletableFuture<JudgeEngine.Outcome> fa = CompletableFuture.supplyAsync(() -> engine.judge(a));
        assertThat(arrived.await(60, TimeUnit.SECONDS)).as("the first request's call reached the provider").isTrue();
        CompletableFuture<JudgeEngine.Outcome> fb = CompletableFuture.supplyAsync(() -> engine.judge(b));
        Awaitility.await("the second request joined the call under way").atMost(Duration.ofSeconds(60))
                .until(() -> metrics.count("mmgr.judge.cache", "result", "in-flight") == 1);
        assertThat(fb).as("it waits for that call's answer").isNotDone();
        answer.countDown();
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
        assertThat(metrics.count("mmgr.judge.cache", "result", "miss")).as("one request called").isEqualTo(1);
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

    static JudgeRequest requestedAt(JudgeRequest r, Instant at) {
        return JudgeRequest.newBuilder(r).setRequestedAt(at).build();
    }

    @Test
    void aFailureToGetAnAnswerIsNeverFinalUntilTheDeadlineAndEvenThenNotCached() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        server = ScriptedVlmServer.start(e -> down.get() ? Action.of(Kind.SERVER_ERROR) : Action.ok(Duration.ZERO, Map.of()));
        JudgeEngine engine = engine(builder("openai", "jm").retry(r -> r.maxAttempts(2)
                .backoff(Duration.ofMillis(20), Duration.ofMillis(50)).deadline(Duration.ofMinutes(10))).build());
        JudgeRequest fresh = JudgeFixtures.mathText("r", "down", "x = 4");
        JudgeEngine.Tries tries = new JudgeEngine.Tries();
        for (int cycle = 1; cycle <= 3; cycle++) {
            JudgeEngine.Outcome o = engine.judge(fresh, tries);
            assertThat(o).as("cycle %d", cycle).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class, w -> {
                assertThat(w.reason()).contains("no answer from the judge yet").contains("HTTP 500").contains("server_error");
                assertThat(w.resume()).isEqualTo(JudgeEngine.Resume.BACKOFF);
            });
        }
        assertThat(tries.tally().attempts()).as("three cycles of two calls").isEqualTo(6);
        assertThat(tries.cycles()).isEqualTo(3);

        // past its deadline (requested 11 minutes ago): FAILED with the last reason, not fresh, nothing cached
        JudgeRequest old = requestedAt(fresh, Instant.now().minus(Duration.ofMinutes(11)));
        JudgeEngine.Outcome o = engine.judge(old, tries);
        assertThat(o).isInstanceOfSatisfying(JudgeEngine.Outcome.Done.class, d -> {
            assertThat(d.fresh()).isFalse();
            assertThat(d.verdict().getStatus()).isEqualTo("FAILED");
            assertThat(d.verdict().getReason()).startsWith("no answer from the judge within PT10M of the request: ")
                    .contains("HTTP 500");
            assertThat(d.verdict().getAttempts()).isEqualTo(8);
        });
        assertThat(engine.cache().count()).isZero();

        // published again once the provider is back: judged (nothing cached stood in the way)
        down.set(false);
        int before = server.requestCount();
        JudgeEngine.Outcome again = engine.judge(requestedAt(fresh, Instant.now()));
        assertThat(again).isInstanceOfSatisfying(JudgeEngine.Outcome.Done.class, d -> {
            assertThat(d.verdict().getStatus()).isEqualTo("VALID");
            assertThat(d.fresh()).isTrue();
        });
        assertThat(server.requestCount()).isEqualTo(before + 1);
    }

    @Test
    void aRejectionIsFinalOnlyForTheRequestConfigurationThatProducedIt() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
        JudgeRequest r = JudgeFixtures.mathText("r", "reasoner", "x = 4");
        // o4-mini asked as a chat model (max_tokens, temperature 0): OpenAI's 400 unsupported_parameter, final and cached
        VerdictCache cache = VerdictCache.open(dir.resolve("shared-cache"));
        caches.add(cache);
        JudgeEngine wrong = engine(builder("openai", "o4-mini")
                .profile(ModelProfile.defaults(ModelProfile.Kind.OPENAI_CHAT, "o4-mini")).build(), cache);
        JudgeVerdict rejected = ((JudgeEngine.Outcome.Done) wrong.judge(r)).verdict();
        assertThat(rejected.getStatus()).isEqualTo("INVALID");
        assertThat(rejected.getReason()).contains("rejected the request as configured (openai-chat max_tokens=2048 temperature=0)")
                .contains("HTTP 400").contains("Unsupported parameter: 'max_tokens' is not supported with this model");
        assertThat(rejected.getAttempts()).as("a 400 is not retried").isEqualTo(1);
        assertThat(wrong.judge(r)).as("cached: the same configuration is not asked again")
                .isInstanceOfSatisfying(JudgeEngine.Outcome.Done.class, d -> assertThat(d.verdict().getCachedFrom()).isNotNull());
        assertThat(server.requestCount()).isEqualTo(1);

        // the model's own profile is another configuration, so another key: asked, and answered
        JudgeEngine right = engine(builder("openai", "o4-mini").build(), cache);
        JudgeVerdict valid = ((JudgeEngine.Outcome.Done) right.judge(r)).verdict();
        assertThat(valid.getStatus()).isEqualTo("VALID");
        assertThat(valid.getCacheKey()).isNotEqualTo(rejected.getCacheKey());
        assertThat(server.requestCount()).isEqualTo(2);
        assertThat(server.seen().get(1).params()).containsEntry("max_completion_tokens", 16_384)
                .containsEntry("reasoning_effort", "medium").doesNotContainKeys("max_tokens", "temperature");
    }

    @Test
    void theCacheKeyHoldsProtocolModelAndRequestParameters() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
        JudgeRequest r = JudgeFixtures.mathText("r", "keyed", "x = 4");
        java.util.function.Function<JudgeSettings, String> key = s -> ((JudgeEngine.Outcome.Done) engine(s).judge(r)).verdict().getCacheKey();
        String base = key.apply(builder("openai", "gpt-4.1").build());
        assertThat(key.apply(builder("openai", "gpt-4.1").build())).as("the same configuration").isEqualTo(base);
        assertThat(key.apply(builder("openai", "gpt-4o").build())).as("another model").isNotEqualTo(base);
        assertThat(key.apply(builder("gemini", "gpt-4.1").build())).as("another protocol").isNotEqualTo(base);
        assertThat(key.apply(builder("openai", "gpt-4.1").profile(p -> p.withAnswerTokens(4096)).build()))
                .as("another output cap").isNotEqualTo(base);
        assertThat(key.apply(builder("openai", "gpt-4.1").structuredOutput(StructuredOutput.JSON_OBJECT).build()))
                .as("another structured-output mode").isNotEqualTo(base);
        assertThat(key.apply(builder("openai", "o4-mini").build())).isNotEqualTo(
                key.apply(builder("openai", "o4-mini").profile(p -> p.withReasoningEffort("high")).build()));
        assertThat(key.apply(builder("gemini", "gemini-2.5-pro").build())).isNotEqualTo(
                key.apply(builder("gemini", "gemini-2.5-pro").profile(p -> p.withThinkingTokens(2048)).build()));
    }

    @Test
    void aThinkingAnswerCutBeforeAnyTextIsAskedOnceMoreWithTwiceTheBudgetThenIsInvalid() throws Exception {
        // gemini-2.5-pro thinks 9,000 tokens and overshoots its budget by 3,000: with 4,096 (cap 6,144) nothing is left
        // for text; with 8,192 (cap 10,240) the answer fits. "stubborn" overshoots even that.
        server = ScriptedVlmServer.start(e -> e.caseName().equals("stubborn")
                ? Action.ok(Duration.ZERO, Map.of()).thinking(30_000, 20_000)
                : Action.ok(Duration.ZERO, Map.of()).thinking(9_000, 3_000));
        JudgeEngine engine = engine(builder("gemini", "gemini-2.5-pro").build());
        JudgeVerdict v = ((JudgeEngine.Outcome.Done) engine.judge(JudgeFixtures.mathText("r", "thinker", "x = 4"))).verdict();
        assertThat(v.getStatus()).isEqualTo("VALID");
        assertThat(v.getAttempts()).isEqualTo(2);
        assertThat(server.seen()).extracting(ScriptedVlmServer.Seen::finish).containsExactly("MAX_TOKENS", "STOP");
        assertThat(server.seen().get(0).params()).containsEntry("thinkingBudget", 4_096).containsEntry("maxOutputTokens", 6_144);
        assertThat(server.seen().get(1).params()).containsEntry("thinkingBudget", 8_192).containsEntry("maxOutputTokens", 10_240);
        assertThat(v.getOutputTokens()).as("both answers' thoughts are billed").isGreaterThan(6_144 + 9_000);

        JudgeVerdict cut = ((JudgeEngine.Outcome.Done) engine.judge(JudgeFixtures.mathText("r", "stubborn", "x = 4"))).verdict();
        assertThat(cut.getStatus()).isEqualTo("INVALID");
        assertThat(cut.getReason()).contains("cut at the output cap before any text").contains("finish MAX_TOKENS")
                .contains("gemini-thinking maxOutputTokens=6144 thinkingBudget=4096")
                .contains("and again with gemini-thinking maxOutputTokens=10240 thinkingBudget=8192")
                .contains("--judge-thinking-budget");
        assertThat(cut.getAttempts()).isEqualTo(2);
        assertThat(engine.cache().get(cut.getCacheKey())).as("an answer: final and cached").isPresent();
    }

    @Test
    void whileTheCacheIsLoadingAMissWaitsAndAHitIsServed() throws Exception {
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ZERO, Map.of()));
        JudgeEngine engine = engine(settings("openai"));
        JudgeVerdict first = ((JudgeEngine.Outcome.Done) engine.judge(JudgeFixtures.mathText("r", "known", "x = 4"))).verdict();
        engine.cache().loading();
        assertThat(engine.judge(JudgeFixtures.mathText("r", "known", "x = 4")))
                .isInstanceOfSatisfying(JudgeEngine.Outcome.Done.class, d -> assertThat(d.verdict().getCachedFrom())
                        .isEqualTo(first.getRequestId()));
        assertThat(engine.judge(JudgeFixtures.mathText("r", "unknown", "x = 4")))
                .isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class, w -> {
                    assertThat(w.reason()).contains("judge cache still loading");
                    assertThat(w.resume()).isEqualTo(JudgeEngine.Resume.CACHE);
                });
        assertThat(server.requestCount()).isEqualTo(1);
        engine.cache().loaded();
        assertThat(engine.judge(JudgeFixtures.mathText("r", "unknown", "x = 4"))).isInstanceOf(JudgeEngine.Outcome.Done.class);
        assertThat(server.requestCount()).isEqualTo(2);
    }
}
