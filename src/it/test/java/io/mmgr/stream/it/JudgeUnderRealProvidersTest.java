package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.bench.ScriptedVlmServer.Kind;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.judge.JudgeMetrics;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/**
 * The judged half end to end on the in-process broker against providers that behave as OpenAI and
 * Gemini do on a bad day (the scripted provider, answering as their documentation and real answers
 * show): failure bursts longer than any retry cycle, a request that gets no answer by its deadline, a
 * Gemini RetryInfo storm, an o4-mini run and a gemini-2.5-pro run with their own request parameters,
 * a Claude run with extended thinking through 529s, 429s and a max_tokens cut, and an Azure OpenAI run at
 * a deployment through a 429 (each new protocol's one short end-to-end case: their failure handling is
 * tested protocol by protocol in ScriptedProvidersTest); then a replay of everything, which bills nothing. Each scenario has a scorer with its own topics and
 * a judge worker on them; samples are Math answers whose judged scores the script gives, so the ground
 * truth of every sample is known.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("integration")
class JudgeUnderRealProvidersTest {

    static final Duration WAIT = Duration.ofSeconds(120);
    static final Duration BURST = Duration.ofSeconds(5);
    static final Duration DEADLINE = Duration.ofSeconds(15);

    @TempDir
    static Path dir;
    static EmbeddedKafka kafka;
    static RegistryServer registry;
    static ScriptedVlmServer server;
    static volatile Function<ScriptedVlmServer.Exchange, Action> script = e -> Action.of(Kind.SERVER_ERROR);
    /** What each scenario ran: its topic prefix, its judge settings and how many judge requests it published. */
    static final Map<String, Ran> ran = new LinkedHashMap<>();

    record Ran(JudgeSettings settings, Topics topics, int requests) {
    }

    @BeforeAll
    static void start() throws Exception {
        kafka = EmbeddedKafka.start(dir.resolve("broker"), 0);
        registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), dir.resolve("registry"));
        server = ScriptedVlmServer.start(e -> script.apply(e));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (registry != null) {
            registry.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    /** A scorer on its own topics (on the shared broker) with a judge worker on them. */
    static final class Scenario implements AutoCloseable {
        final String prefix;
        final ScorerApp scorer;
        final Topics topics;
        final KafkaProducer<byte[], byte[]> producer;
        final JudgeRuntime judge;
        final JudgeSettings settings;
        int requests;

        Scenario(String prefix, JudgeSettings settings, boolean web) throws Exception {
            this.prefix = prefix;
            this.settings = settings;
            ScorerSettings s = ScorerSettings.defaults().withPrefix(prefix).withPartitions(2).withJudge(true)
                    .withApplicationId(prefix + "app").withStreamThreads(1).withArtifactRoots(List.of(dir));
            ScorerApp.Options options = web ? ScorerApp.Options.defaults().withWeb("127.0.0.1", 0, "127.0.0.1")
                    : ScorerApp.Options.defaults();
            this.scorer = ScorerApp.start(s, options, kafka.bootstrapServers(), registry.url(), dir.resolve(prefix + "streams"),
                    Duration.ofMinutes(2));
            this.topics = scorer.topics();
            this.producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all"),
                    new ByteArraySerializer(), new ByteArraySerializer());
            this.judge = worker(settings, topics, prefix + "judge", dir.resolve(prefix + "judge-data"));
        }

        void publish(List<String> cases) {
            List<BenchmarkItem> items = cases.stream().map(JudgeUnderRealProvidersTest::item).toList();
            String t = topics.benchmark.name();
            items.forEach(i -> send(t, SampleKeys.itemKey(i.getTask(), i.getSampleId()), topics.benchmark.valueSerde().serializer()
                    .serialize(t, i)));
            await(() -> itemsInTable(items), n -> n == items.size(), WAIT, "the items of " + prefix);
            cases.forEach(this::publish);
        }

        void publish(String c) {
            GenerationEvent e = event(c);
            String t = topics.generations.name();
            send(t, SampleKeys.ref(SampleKeys.of(e)), topics.generations.valueSerde().serializer().serialize(t, e));
            requests++;
        }

        private void send(String topic, String key, byte[] value) {
            try {
                producer.send(new ProducerRecord<>(topic, key.getBytes(java.nio.charset.StandardCharsets.UTF_8), value)).get();
            } catch (Exception e) {
                throw new IllegalStateException("cannot publish to " + topic, e);
            }
        }

        private long itemsInTable(List<BenchmarkItem> items) {
            try {
                var store = scorer.streams().store(StoreQueryParameters.fromNameAndType(scorer.stores().benchmarkItems.name(),
                        QueryableStoreTypes.<String, BenchmarkItem>keyValueStore()));
                return items.stream().filter(i -> store.get(SampleKeys.itemKey(i.getTask(), i.getSampleId())) != null).count();
            } catch (RuntimeException e) {
                return -1;
            }
        }

        Map<SampleKey, SampleScore> scores() {
            return TopicSnapshot.latest(Map.of("bootstrap.servers", kafka.bootstrapServers()), topics.sampleScores.name(),
                    topics.sampleScores.keySerde().deserializer(), topics.sampleScores.valueSerde().deserializer(),
                    Duration.ofSeconds(30));
        }

        Map<SampleKey, SampleScore> allComplete(List<String> cases) {
            return await(this::scores, m -> cases.stream().allMatch(c -> m.values().stream()
                    .anyMatch(s -> s.getSampleId().equals(c) && "COMPLETE".equals(s.getStatus()))), WAIT,
                    "every sample of " + prefix + " COMPLETE");
        }

        /** Publishes the cases and waits until every sample is COMPLETE and judged right (primary 1, as scripted). */
        void judgedRight(List<String> cases) {
            publish(cases);
            Map<SampleKey, SampleScore> scores = allComplete(cases);
            cases.forEach(c -> assertThat(score(scores, c).getPrimary()).as(c).isEqualTo(1.0));
        }

        List<JudgeVerdict> verdicts() {
            return JudgeUnderRealProvidersTest.verdicts(topics);
        }

        @Override
        public void close() {
            judge.close();
            producer.close();
            scorer.close();
            ran.put(prefix, new Ran(settings, topics, requests));
        }
    }

    static JudgeRuntime worker(JudgeSettings settings, Topics topics, String group, Path data) {
        return JudgeRuntime.start(settings, Map.of(), topics, new JudgeWorker.Config(kafka.bootstrapServers(), group, Map.of()),
                new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                new SimpleMeterRegistry(), data);
    }

    static List<JudgeVerdict> verdicts(Topics topics) {
        List<JudgeVerdict> out = new ArrayList<>();
        String t = topics.judgeVerdicts.name();
        for (var r : TopicSnapshot.all(Map.of("bootstrap.servers", kafka.bootstrapServers()), t, Duration.ofSeconds(30))) {
            out.add(topics.judgeVerdicts.valueSerde().deserializer().deserialize(t, r.value()));
        }
        return out;
    }

    static BenchmarkItem item(String c) {
        return BenchmarkItem.newBuilder().setTask("math").setSampleId(c).setPrompt("case=" + c + " Solve 3x = 12.")
                .setGroundTruth(GroundTruth.newBuilder().setAnswer("x = 4").build()).build();
    }

    static GenerationEvent event(String c) {
        return GenerationEvent.newBuilder().setRunId("run-real").setModel("gen-model").setCheckpointId("ckpt-1")
                .setTrainingStep(1).setTask("math").setSampleId(c).setModality("text")
                .setInputs(GenerationInputs.newBuilder().setText("3x = 12, so x = 4").build()).setProducedAt(Instant.now())
                .build();
    }

    /** The model's own defaults (its profile), within 20 requests/s. */
    static JudgeSettings defaults(String protocol, URI base, String model) {
        return JudgeSettings.builder(protocol, base, model).quota(q -> q.requests(20, Duration.ofSeconds(1)))
                .timeout(Duration.ofSeconds(5)).build();
    }

    /** A correct Math answer, as the script's judge scores it: both metrics 1. */
    static Action correct() {
        return Action.ok(Duration.ofMillis(30), Map.of("final_correctness", 1.0, "intermediate_correctness", 1.0));
    }

    static SampleScore score(Map<SampleKey, SampleScore> scores, String sampleId) {
        return JudgeEndToEndTest.score(scores, sampleId);
    }

    static List<ScriptedVlmServer.Seen> seen(String prefix) {
        return server.seen().stream().filter(s -> s.caseName().startsWith(prefix)).toList();
    }

    @Test
    @Order(1)
    void failureBurstsLongerThanAnyRetryCycleEndCompleteAndARequestWithoutAnAnswerByItsDeadlineFailsUncached()
            throws Exception {
        AtomicLong burstStart = new AtomicLong();
        AtomicBoolean deadlineFixed = new AtomicBoolean();
        script = e -> {
            if (e.caseName().startsWith("deadline")) {
                return deadlineFixed.get() ? correct() : Action.of(Kind.SERVER_ERROR);
            }
            burstStart.compareAndSet(0, System.nanoTime());
            if (System.nanoTime() - burstStart.get() >= BURST.toNanos()) {
                return correct();
            }
            // a bad stretch of every kind of transient failure, several seconds long
            return switch (e.attempt() % 4) {
                case 0 -> Action.of(Kind.SERVER_ERROR);
                case 1 -> Action.of(Kind.OVERLOADED);
                case 2 -> Action.rateLimited(1.0);
                default -> new Action(Kind.HANG, Duration.ofSeconds(3), 0, Map.of());
            };
        };
        // one retry cycle: 3 calls with 100-400 ms between them and a 2 s time limit, well under the burst
        JudgeSettings s = JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "gpt-4.1")
                .quota(q -> q.requests(20, Duration.ofSeconds(1)))
                .timeout(Duration.ofSeconds(2))
                .retry(r -> r.maxAttempts(3).backoff(Duration.ofMillis(100), Duration.ofSeconds(1)).deadline(DEADLINE))
                .circuit(c -> c.openFor(Duration.ofSeconds(1)))
                .build();
        List<String> bursts = List.of("burst-1", "burst-2", "burst-3", "burst-4", "burst-5", "burst-6");
        try (Scenario sc = new Scenario("real-burst.", s, true)) {
            List<String> all = new ArrayList<>(bursts);
            all.add("deadline-1");
            sc.publish(all);
            String api = sc.scorer.web().orElseThrow().url() + "api/sample?run=run-real&checkpoint=ckpt-1&task=math&seed=0&sample=";

            // while no answer comes, the score and the dashboard say why the judge part waits
            // (the provider's failure, or the circuit it opened)
            java.util.function.Predicate<String> transientReason = r -> r != null
                    && (r.contains("no answer from the judge yet (HTTP 500") || r.contains("judge circuit open"));
            Map<SampleKey, SampleScore> waiting = await(sc::scores, m -> m.values().stream().anyMatch(x -> x.getSampleId()
                    .equals("deadline-1") && "PENDING".equals(x.getStatus()) && transientReason.test(x.getPending().get("judge"))),
                    WAIT, "the deadline sample PENDING with the reason");
            assertThat(score(waiting, "deadline-1").getPrimary()).isNull();
            JsonNode pendingView = await(() -> JudgeEndToEndTest.getJson(api + "deadline-1"),
                    j -> transientReason.test(j.path("why").toString()), WAIT, "the dashboard's why");
            assertThat(pendingView.at("/score/status").asText()).isEqualTo("PENDING");
            assertThat(pendingView.path("why").toString()).contains("part judge pending: ");

            // the bursts end, every burst sample completes, judged right, with no INVALID or FAILED verdict among them
            Map<SampleKey, SampleScore> scores = sc.allComplete(bursts);
            for (String c : bursts) {
                assertThat(score(scores, c).getPrimary()).as(c).isEqualTo(1.0);
            }
            List<JudgeVerdict> verdicts = sc.verdicts();
            assertThat(verdicts).extracting(JudgeVerdict::getStatus).as("a failure to get an answer is never final")
                    .doesNotContain("INVALID").contains("PENDING", "VALID");
            assertThat(verdicts.stream().filter(v -> "VALID".equals(v.getStatus())).mapToInt(JudgeVerdict::getAttempts).max()
                    .orElseThrow()).as("retried over more than one cycle").isGreaterThan(3);
            assertThat(seen("burst")).extracting(ScriptedVlmServer.Seen::status).contains(500, 503, 429);

            // the deadline passes without an answer: FAILED with the reason, on the score and the dashboard
            Map<SampleKey, SampleScore> failed = await(sc::scores, m -> "FAILED".equals(score(m, "deadline-1").getStatus()),
                    WAIT, "the deadline sample FAILED");
            String why = score(failed, "deadline-1").getErrors().get("judge");
            assertThat(why).startsWith("no answer from the judge within PT15S of the request: ");
            assertThat(transientReason.test(why)).as(why).isTrue();
            assertThat(JudgeEndToEndTest.getJson(api + "deadline-1").path("why").toString())
                    .contains("part judge failed: no answer from the judge within PT15S");
            JudgeVerdict failedVerdict = sc.verdicts().stream().filter(v -> "FAILED".equals(v.getStatus())).findFirst().orElseThrow();
            // not cached: no cache entry holds it
            assertThat(cacheEntries(sc.topics)).noneMatch(v -> v.getRequestId().equals(failedVerdict.getRequestId()));

            // published again once the provider answers: judged again, and complete
            deadlineFixed.set(true);
            int calls = seen("deadline").size();
            sc.publish("deadline-1");
            Map<SampleKey, SampleScore> after = await(sc::scores, m -> "COMPLETE".equals(score(m, "deadline-1").getStatus()),
                    WAIT, "the deadline sample COMPLETE after publishing it again");
            assertThat(score(after, "deadline-1").getPrimary()).isEqualTo(1.0);
            assertThat(seen("deadline").size()).isGreaterThan(calls);
        }
    }

    static List<JudgeVerdict> cacheEntries(Topics topics) {
        List<JudgeVerdict> out = new ArrayList<>();
        String t = topics.judgeCache.name();
        for (var r : TopicSnapshot.all(Map.of("bootstrap.servers", kafka.bootstrapServers()), t, Duration.ofSeconds(30))) {
            out.add(topics.judgeCache.valueSerde().deserializer().deserialize(t, r.value()));
        }
        return out;
    }

    @Test
    @Order(2)
    void aGeminiRetryInfoStormProducesNoEarlyRetries() throws Exception {
        // every request is first refused (the project is over its per-minute quota), announcing 1.0-1.8 s in RetryInfo
        // (whole seconds) and the message (precise); on top, the project's real quota is 4 requests in any 3 s while
        // the worker was told 20/s, so its bursts are refused past the fourth too
        script = e -> e.attempt() == 0 ? Action.rateLimited(1.0 + 0.2 * (Integer.parseInt(e.caseName().substring(6)) % 5))
                : correct();
        server.quota(new ScriptedVlmServer.Quota(4, Duration.ofSeconds(3)));
        JudgeSettings s = JudgeSettings.builder("gemini", URI.create(server.geminiBaseUrl()), "gemini-2.5-flash")
                .quota(q -> q.requests(20, Duration.ofSeconds(1)))
                .concurrency(8)
                .timeout(Duration.ofSeconds(5))
                .retry(r -> r.maxAttempts(4).backoff(Duration.ofMillis(100), Duration.ofSeconds(2)))
                .circuit(c -> c.openFor(Duration.ofSeconds(1)))
                .build();
        List<String> cases = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            cases.add("storm-" + i);
        }
        try (Scenario sc = new Scenario("real-storm.", s, false)) {
            sc.judgedRight(cases);
        } finally {
            server.quota(null);
        }
        List<ScriptedVlmServer.Seen> storm = seen("storm");
        List<ScriptedVlmServer.Seen> refused = storm.stream().filter(x -> x.status() == 429).toList();
        assertThat(refused).as("a storm of 429s: every first attempt, and bursts past the quota").hasSizeGreaterThanOrEqualTo(8);
        assertThat(refused).allSatisfy(x -> assertThat(x.announced()).isPositive());
        int early = 0;
        int earlyAny = 0;
        for (ScriptedVlmServer.Seen r : refused) {
            long notBefore = r.arrivedNanos() + r.announced().toNanos();
            // the refused request itself came back before the announced time
            early += (int) storm.stream().filter(x -> x.caseName().equals(r.caseName()) && x.arrivedNanos() > r.arrivedNanos()
                    && x.arrivedNanos() < notBefore).count();
            // any request sent once the 429 was in (a second for it to reach the worker) and before its time
            earlyAny += (int) storm.stream().filter(x -> x.arrivedNanos() > r.arrivedNanos() + 1_000_000_000L
                    && x.arrivedNanos() < notBefore).count();
        }
        System.out.printf("RetryInfo storm: %d requests, %d answered 429, %d early retries, %d requests early%n", storm.size(),
                refused.size(), early, earlyAny);
        assertThat(early).as("requests retried before the wait their 429 announced").isZero();
        assertThat(earlyAny).as("requests sent before an announced wait was over").isZero();
        assertThat(storm.stream().filter(x -> x.status() == 200)).hasSize(cases.size());
    }

    @Test
    @Order(3)
    void anO4MiniRunEndsWithEverySampleComplete() throws Exception {
        // o4-mini reasons 2,500 tokens at medium effort; one sample needs 20,000, more than the default cap holds
        script = e -> e.caseName().equals("o4-long") ? correct().thinking(20_000, 0) : correct();
        JudgeSettings s = defaults("openai", URI.create(server.openAiBaseUrl()), "o4-mini");
        List<String> cases = List.of("o4-1", "o4-2", "o4-3", "o4-4", "o4-5", "o4-long");
        try (Scenario sc = new Scenario("real-o4.", s, false)) {
            sc.judgedRight(cases);
            assertThat(sc.verdicts()).filteredOn(v -> "VALID".equals(v.getStatus()) && v.getCachedFrom() == null)
                    .allSatisfy(v -> assertThat(v.getOutputTokens()).as("reasoning is billed as output").isGreaterThan(2_500));
        }
        List<ScriptedVlmServer.Seen> o4 = seen("o4");
        assertThat(o4).allSatisfy(x -> {
            assertThat(x.model()).isEqualTo("o4-mini");
            assertThat(x.status()).as("no 400: neither max_tokens nor a temperature was sent").isEqualTo(200);
            assertThat(x.params()).doesNotContainKeys("max_tokens", "temperature").containsEntry("reasoning_effort", "medium");
        });
        assertThat(o4.stream().filter(x -> !x.caseName().equals("o4-long")))
                .allSatisfy(x -> assertThat(x.params()).containsEntry("max_completion_tokens", 16_384));
        assertThat(o4.stream().filter(x -> x.caseName().equals("o4-long")).map(x -> x.params().get("max_completion_tokens") + " "
                + x.finish())).containsExactly("16384 length", "30720 stop");
    }

    @Test
    @Order(4)
    void aGemini25ProRunEndsWithEverySampleComplete() throws Exception {
        // 2.5 Pro thinks 3,000 tokens on a rubric; one sample thinks 9,000 and overshoots its budget by 3,000
        script = e -> e.caseName().equals("pro-long") ? correct().thinking(9_000, 3_000) : correct();
        JudgeSettings s = defaults("gemini", URI.create(server.geminiBaseUrl()), "gemini-2.5-pro");
        List<String> cases = List.of("pro-1", "pro-2", "pro-3", "pro-4", "pro-5", "pro-long");
        try (Scenario sc = new Scenario("real-pro.", s, false)) {
            sc.judgedRight(cases);
        }
        List<ScriptedVlmServer.Seen> pro = seen("pro");
        assertThat(pro.stream().filter(x -> !x.caseName().equals("pro-long"))).allSatisfy(x -> {
            assertThat(x.params()).containsEntry("thinkingBudget", 4_096).containsEntry("maxOutputTokens", 6_144);
            assertThat(x.finish()).isEqualTo("STOP");
        });
        assertThat(pro.stream().filter(x -> x.caseName().equals("pro-long")).map(x -> x.params().get("thinkingBudget") + "/"
                + x.params().get("maxOutputTokens") + " " + x.finish())).containsExactly("4096/6144 MAX_TOKENS", "8192/10240 STOP");
    }

    /** Every verdict that called the provider was billed its tokens at the configured prices. */
    static void billedAt(List<JudgeVerdict> verdicts, double inputUsdPerMTok, double outputUsdPerMTok) {
        assertThat(verdicts).filteredOn(v -> "VALID".equals(v.getStatus()) && v.getCachedFrom() == null).isNotEmpty().allSatisfy(v -> {
            assertThat(v.getInputTokens()).isPositive();
            assertThat(v.getOutputTokens()).isPositive();
            assertThat(v.getCostUsd()).isCloseTo((v.getInputTokens() * inputUsdPerMTok + v.getOutputTokens() * outputUsdPerMTok) / 1e6,
                    org.assertj.core.api.Assertions.within(1e-9));
        });
    }

    @Test
    @Order(5)
    void aClaudeRunWithThinkingEndsWithEverySampleComplete() throws Exception {
        // one sample thinks past the cap (stop_reason max_tokens, no text), one meets 529 overloaded, one a 429 first
        script = e -> switch (e.caseName()) {
            case "claude-long" -> correct().thinking(9_000, 2_100);
            case "claude-busy" -> e.attempt() == 0 ? Action.of(Kind.OVERLOADED) : correct();
            case "claude-limited" -> e.attempt() == 0 ? Action.rateLimited(1.0) : correct();
            default -> correct();
        };
        JudgeSettings s = defaults("anthropic", URI.create(server.anthropicBaseUrl()), "claude-sonnet-4-5").toBuilder()
                .profile(io.mmgr.stream.judge.protocol.ModelProfile.defaults(
                        io.mmgr.stream.judge.protocol.ModelProfile.Kind.ANTHROPIC_THINKING, "claude-sonnet-4-5"))
                .pricing(io.mmgr.stream.judge.PricingSettings.of(3, 15, null)).build();
        List<String> cases = List.of("claude-1", "claude-2", "claude-busy", "claude-limited", "claude-long");
        try (Scenario sc = new Scenario("real-claude.", s, false)) {
            sc.judgedRight(cases);
            billedAt(sc.verdicts(), 3, 15);
        }
        List<ScriptedVlmServer.Seen> claude = seen("claude");
        assertThat(claude).extracting(ScriptedVlmServer.Seen::status).contains(529, 429);
        assertThat(claude).allSatisfy(x -> assertThat(x.params()).doesNotContainKey("temperature"));
        assertThat(claude.stream().filter(x -> x.caseName().equals("claude-long")).map(x -> x.params().get("max_tokens") + "/"
                + x.params().get("budget_tokens") + " " + x.finish())).containsExactly("6144/4096 max_tokens", "10240/8192 end_turn");
    }

    @Test
    @Order(6)
    void anAzureRunAtADeploymentEndsWithEverySampleComplete() throws Exception {
        script = e -> e.caseName().equals("azure-limited") && e.attempt() == 0 ? Action.rateLimited(0.8) : correct();
        JudgeSettings s = defaults("azure-openai", URI.create(server.azureEndpoint()), "gpt-4.1").toBuilder()
                .azure(new io.mmgr.stream.judge.AzureSettings("judge-41", null))
                .pricing(io.mmgr.stream.judge.PricingSettings.of(2, 8, null)).build();
        List<String> cases = List.of("azure-1", "azure-2", "azure-limited");
        try (Scenario sc = new Scenario("real-azure.", s, false)) {
            sc.judgedRight(cases);
            billedAt(sc.verdicts(), 2, 8);
        }
        List<ScriptedVlmServer.Seen> azure = seen("azure");
        assertThat(azure).allSatisfy(x -> {
            assertThat(x.model()).as("the deployment in the path").isEqualTo("judge-41");
            assertThat(x.params()).containsEntry("api-version", "2024-10-21").containsEntry("max_tokens", 2048);
        });
        List<ScriptedVlmServer.Seen> limited = azure.stream().filter(x -> x.caseName().equals("azure-limited")).toList();
        assertThat(limited).extracting(ScriptedVlmServer.Seen::status).startsWith(429).endsWith(200);
        // retry-after-ms said 800, retry-after and the message 1 s: the longest is waited
        assertThat(limited.get(1).arrivedNanos() - limited.get(0).arrivedNanos()).isGreaterThanOrEqualTo(1_000_000_000L);
    }

    @Test
    @Order(7)
    void aReplayOfAllOfThisBillsNothing() throws Exception {
        assertThat(ran.keySet()).containsExactly("real-burst.", "real-storm.", "real-o4.", "real-pro.", "real-claude.", "real-azure.");
        script = e -> Action.of(Kind.SERVER_ERROR); // anything that reached the provider now would fail and show
        int calls = server.requestCount();
        for (var e : ran.entrySet()) {
            Ran r = e.getValue();
            long copiesBefore = verdicts(r.topics()).stream().filter(v -> v.getCachedFrom() != null).count();
            // a new group from the beginning of the requests, a data directory with nothing in it: the cache comes from
            // the cache topic
            try (JudgeRuntime replay = worker(r.settings(), r.topics(), e.getKey() + "replay", dir.resolve(e.getKey() + "replay"))) {
                List<JudgeVerdict> all = await(() -> verdicts(r.topics()),
                        l -> l.stream().filter(v -> v.getCachedFrom() != null).count() >= copiesBefore + r.requests(), WAIT,
                        "a copy of every verdict of " + e.getKey());
                assertThat(all.stream().filter(v -> v.getCachedFrom() != null).skip(copiesBefore)).allSatisfy(v -> {
                    assertThat(v.getCostUsd()).isZero();
                    assertThat(v.getAttempts()).isZero();
                    assertThat(v.getStatus()).isEqualTo("VALID");
                });
                JudgeMetrics m = replay.metrics();
                assertThat(m.count("mmgr.judge.calls")).as("calls of the replay of " + e.getKey()).isZero();
                assertThat(m.count("mmgr.judge.cost_usd")).isZero();
                assertThat(m.count("mmgr.judge.cache", "result", "hit")).isGreaterThanOrEqualTo(r.requests());
            }
        }
        assertThat(server.requestCount()).as("requests the provider saw during the replays").isEqualTo(calls);
    }
}
