package io.mmgr.stream.judge;

import static io.mmgr.stream.bench.ScriptedVlmServer.Action;
import static io.mmgr.stream.bench.ScriptedVlmServer.Kind;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.tasks.math.MathRubric;
import io.mmgr.stream.contract.Topics;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The worker on a real broker against a real HTTP server on loopback that is scripted per request.
 * Each request's case (in its prompt) decides what the server does on each attempt; the expected
 * verdict of every case is written here from the script, not from the worker's code.
 */
@Tag("integration")
@Tag("alone")
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class JudgeWorkerResilienceTest {

    static final String KEY_ENV = "MMGR_TEST_JUDGE_KEY";
    static final String KEY = "sk-test-0123456789abcdef-secret";
    static final int QUOTA = 10;
    static final int BULK = 24;
    static final double IN_PRICE = 3.0;
    static final double OUT_PRICE = 15.0;

    @TempDir
    static Path dir;
    static JudgeKafka k;
    static ScriptedVlmServer server;
    static final AtomicBoolean recovered = new AtomicBoolean(false);

    static final java.io.StringWriter LOGS = new java.io.StringWriter();

    /** Captures every log line of this JVM (our DEBUG included) for the secret check. */
    static void captureLogs() {
        var ctx = (org.apache.logging.log4j.core.LoggerContext) org.apache.logging.log4j.LogManager.getContext(false);
        var config = ctx.getConfiguration();
        var appender = org.apache.logging.log4j.core.appender.WriterAppender.newBuilder().setName("secret-check")
                .setTarget(LOGS).setLayout(org.apache.logging.log4j.core.layout.PatternLayout.newBuilder()
                        .withPattern("%c %m %ex%n").build()).build();
        appender.start();
        config.addAppender(appender);
        config.getRootLogger().addAppender(appender, org.apache.logging.log4j.Level.ALL, null);
        config.getLoggerConfig("io.mmgr").setLevel(org.apache.logging.log4j.Level.DEBUG);
        ctx.updateLoggers();
    }

    @BeforeAll
    static void start() throws Exception {
        captureLogs();
        k = new JudgeKafka(dir);
        server = ScriptedVlmServer.start(JudgeWorkerResilienceTest::script);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (k != null) {
            k.close();
        }
    }

    /** The script: the part of the case name after the protocol says what happens on each attempt. */
    static Action script(ScriptedVlmServer.Exchange e) {
        String c = e.caseName();
        // a protocol's id may hold a hyphen itself (azure-openai)
        String protocol = e.protocol().id();
        String kind = c.startsWith(protocol + "-") ? c.substring(protocol.length() + 1) : c.substring(c.indexOf('-') + 1);
        int a = e.attempt();
        Action ok = Action.ok(Duration.ofMillis(40), Map.of());
        if (kind.startsWith("bulk")) {
            int n = Integer.parseInt(kind.substring(4));
            return Action.ok(Duration.ofMillis(40), Map.of("final_correctness", 1.0, "intermediate_correctness", (double) (n % 2)));
        }
        if (kind.startsWith("outage")) {
            return recovered.get() ? ok : Action.of(Kind.SERVER_ERROR);
        }
        if (kind.startsWith("secret")) {
            return recovered.get() ? ok : Action.of(Kind.UNAUTHORIZED);
        }
        return switch (kind) {
            case "slow" -> Action.ok(Duration.ofMillis(300), Map.of("final_correctness", 0.0));
            case "retry429" -> a == 0 ? new Action(Kind.RATE_LIMITED, Duration.ZERO, 1, Map.of()) : ok;
            case "twice500" -> a < 2 ? Action.of(Kind.SERVER_ERROR) : ok;
            case "hang" -> a == 0 ? new Action(Kind.HANG, Duration.ofSeconds(2), 0, Map.of()) : ok;
            case "malformed" -> a == 0 ? Action.of(Kind.MALFORMED) : ok;
            case "truncated" -> a == 0 ? Action.of(Kind.TRUNCATED) : ok;
            case "refusal" -> Action.of(Kind.REFUSAL);
            case "missingonce" -> a == 0 ? Action.of(Kind.MISSING_METRIC) : ok;
            case "missingalways" -> Action.of(Kind.MISSING_METRIC);
            case "nonbinary" -> Action.of(Kind.NON_BINARY);
            case "always500" -> Action.of(Kind.SERVER_ERROR);
            default -> ok;
        };
    }

    static JudgeSettings.Builder builder(String protocol, URI base) {
        return JudgeSettings.builder(protocol, base, "judge-model-x")
                .apiKeyEnv(KEY_ENV)
                // the broker, the worker and the server share this JVM and two cores: arrivals can lag a send by ~100 ms
                .quota(q -> q.requests(QUOTA, Duration.ofSeconds(1)).margin(Duration.ofMillis(150)))
                .concurrency(8)
                .timeout(Duration.ofMillis(1500)) // under the hang case's 2 s, with room for a loaded machine's slow answers
                .retry(r -> r.maxAttempts(3).backoff(Duration.ofMillis(100), Duration.ofSeconds(2)))
                // this test is about per-request outcomes: the circuit opens only if every call fails
                .circuit(c -> c.failureRate(100f).openFor(Duration.ofSeconds(1)))
                .pricing(PricingSettings.of(IN_PRICE, OUT_PRICE, null));
    }

    static JudgeSettings settings(String protocol, URI base) {
        return builder(protocol, base).build();
    }

    /** The latest verdict of each request that is final (VALID or INVALID). */
    static Map<String, JudgeVerdict> finals(List<Map.Entry<SampleKey, JudgeVerdict>> all) {
        Map<String, JudgeVerdict> out = new LinkedHashMap<>();
        for (var e : all) {
            if (!"PENDING".equals(e.getValue().getStatus())) {
                out.put(e.getValue().getRequestId(), e.getValue());
            }
        }
        return out;
    }

    static <T> T await(java.util.function.Supplier<T> read, Predicate<T> done, Duration timeout, String what) {
        return Awaitility.await(what).atMost(timeout).pollInSameThread().pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(200)).until(read::get, done);
    }

    @org.junit.jupiter.api.Order(1)
    @ParameterizedTest
    @ValueSource(strings = {"openai", "gemini", "anthropic", "azure-openai"})
    void everyRequestEndsAsAVerdictWithinTheQuotaAndReplaysCallNothing(String protocol) throws Exception {
        Topics topics = k.topics("jw-" + protocol.replace("-", "") + ".", 3);
        URI base = URI.create(server.baseUrl(io.mmgr.stream.judge.protocol.JudgeProtocol.parse(protocol)));
        List<String> cases = new ArrayList<>(List.of("slow", "retry429", "twice500", "hang", "malformed", "truncated",
                "refusal", "missingonce", "missingalways", "nonbinary"));
        for (int i = 0; i < BULK; i++) {
            cases.add(i * cases.size() / BULK, "bulk" + i);
        }
        Map<String, JudgeRequest> byCase = new LinkedHashMap<>();
        for (String c : cases) {
            String name = protocol + "-" + c;
            byCase.put(c, c.equals("slow") || c.startsWith("bulk1")
                    ? JudgeFixtures.mathImage("run-" + protocol, name, 0x3366CC)
                    : JudgeFixtures.mathText("run-" + protocol, name, "2x = 8, so x = 4"));
        }
        int callsBefore = server.requestCount();
        try (JudgeRuntime judge = k.start(settings(protocol, base), Map.of(KEY_ENV, KEY), topics, "jw-" + protocol)) {
            byCase.values().forEach(r -> k.publish(topics, r));
            Map<String, JudgeVerdict> done = await(() -> finals(k.verdicts(topics)), m -> m.size() == byCase.size(),
                    Duration.ofSeconds(60), "a final verdict for every request");

            Map<String, JudgeVerdict> v = new HashMap<>();
            byCase.forEach((c, r) -> v.put(c, done.get(r.getRequestId())));
            assertThat(v).doesNotContainValue(null);

            // retried failures end VALID, with the calls the script needed
            for (var e : Map.of("retry429", 2, "twice500", 3, "hang", 2, "malformed", 2, "truncated", 2, "missingonce", 2).entrySet()) {
                assertThat(v.get(e.getKey()).getStatus()).as(e.getKey()).isEqualTo("VALID");
                assertThat(v.get(e.getKey()).getAttempts()).as(e.getKey() + " attempts").isEqualTo(e.getValue());
            }
            // answers that cannot be used end INVALID with the reason and, where there was one, the raw answer
            assertThat(v.get("refusal").getStatus()).isEqualTo("INVALID");
            assertThat(v.get("refusal").getReason()).contains("refused");
            assertThat(v.get("refusal").getAttempts()).isEqualTo(1);
            assertThat(v.get("missingalways").getStatus()).isEqualTo("INVALID");
            assertThat(v.get("missingalways").getReason()).contains("after one repair").contains("final_correctness");
            assertThat(v.get("missingalways").getRawText()).contains("intermediate_correctness");
            assertThat(v.get("missingalways").getAttempts()).isEqualTo(2);
            assertThat(v.get("nonbinary").getStatus()).isEqualTo("INVALID");
            assertThat(v.get("nonbinary").getReason()).contains("binary").contains("0.5");

            // the 429's announced second (x-ratelimit-reset-requests, RetryInfo, retry-after) was honoured before the retry
            List<Long> arrivals = server.seen().stream().filter(s -> s.caseName().equals(protocol + "-retry429"))
                    .map(ScriptedVlmServer.Seen::arrivedNanos).sorted().toList();
            assertThat(arrivals).hasSize(2);
            assertThat(Duration.ofNanos(arrivals.get(1) - arrivals.get(0))).isGreaterThanOrEqualTo(Duration.ofSeconds(1));

            // valid verdicts carry the scripted scores and their bookkeeping
            for (int i = 0; i < BULK; i++) {
                JudgeVerdict b = v.get("bulk" + i);
                assertThat(b.getStatus()).isEqualTo("VALID");
                assertThat(b.getMetrics()).containsEntry("final_correctness", 1.0)
                        .containsEntry("intermediate_correctness", (double) (i % 2))
                        .containsEntry("action_reflection", null);
                assertThat(b.getJudgeModel()).isEqualTo("judge-model-x");
                assertThat(b.getRubricVersion()).isEqualTo(new MathRubric().version());
                assertThat(b.getAttempts()).isEqualTo(1);
                assertThat(b.getInputTokens()).isPositive();
                assertThat(b.getOutputTokens()).isPositive();
                assertThat(b.getCostUsd()).isCloseTo(b.getInputTokens() * IN_PRICE / 1e6 + b.getOutputTokens() * OUT_PRICE / 1e6,
                        org.assertj.core.data.Offset.offset(1e-12));
                assertThat(b.getCacheKey()).isNotNull();
                assertThat(b.getCachedFrom()).isNull();
            }
            assertThat(v.get("slow").getMetrics()).containsEntry("final_correctness", 0.0);
            assertThat(v.get("slow").getLatencyMs()).isGreaterThanOrEqualTo(300);

            // the server never saw more than the quota in any one-second window
            assertThat(server.maxInAnyWindow(Duration.ofSeconds(1))).isLessThanOrEqualTo(QUOTA);
            // the key went to the provider, the way its protocol wants it
            String auth = server.seen().stream().filter(s -> s.protocol().id().equals(protocol)).findFirst().orElseThrow().authorization();
            assertThat(auth).isEqualTo(protocol.equals("openai") ? "Bearer " + KEY : KEY);
            assertThat(server.seen().stream().filter(s -> s.caseName().equals(protocol + "-slow")).findFirst().orElseThrow().images())
                    .isEqualTo(1);
            // tokens and cost per run and checkpoint
            double verdictCost = done.values().stream().mapToDouble(JudgeVerdict::getCostUsd).sum();
            assertThat(judge.ledger().checkpoint("run-" + protocol, "ckpt-1").costUsd())
                    .isCloseTo(verdictCost, org.assertj.core.data.Offset.offset(1e-9));

            // duplicates while running: answered from the cache, no new call
            int calls = server.requestCount();
            byCase.values().forEach(r -> k.publish(topics, r));
            await(() -> k.verdicts(topics).stream().filter(e -> !"PENDING".equals(e.getValue().getStatus())).count(),
                    n -> n >= 2L * byCase.size(), Duration.ofSeconds(30), "verdicts for the duplicates");
            assertThat(server.requestCount()).isEqualTo(calls);
        }
        int calls = server.requestCount();
        // a replay of everything by a new worker (a new group, from the beginning): no new call either
        try (JudgeRuntime replay = k.start(settings(protocol, base), Map.of(KEY_ENV, KEY), topics, "jw-" + protocol + "-replay")) {
            await(() -> k.verdicts(topics).stream().filter(e -> !"PENDING".equals(e.getValue().getStatus())).count(),
                    n -> n >= 4L * byCase.size(), Duration.ofSeconds(30), "verdicts of the replay");
            assertThat(replay.metrics().count("mmgr.judge.cache", "result", "hit")).isGreaterThanOrEqualTo(2.0 * byCase.size() - 2);
        }
        assertThat(server.requestCount()).isEqualTo(calls);
        List<JudgeVerdict> copies = k.verdicts(topics).stream().map(Map.Entry::getValue)
                .filter(x -> x.getCachedFrom() != null).toList();
        assertThat(copies).allSatisfy(c -> {
            assertThat(c.getAttempts()).isZero();
            assertThat(c.getCostUsd()).isZero();
        });
        assertThat(callsBefore).isLessThan(calls);
    }

    @org.junit.jupiter.api.Order(2)
    @Test
    void anOpenCircuitHoldsRequestsAsPendingAndReleasesThemTheMomentItLetsCallsThrough() throws Exception {
        Topics topics = k.topics("jw-circuit.", 2);
        // a long backoff: a request retried on a timer would wait up to 30 s; released by the circuit, at once
        JudgeSettings s = builder("openai", URI.create(server.openAiBaseUrl()))
                .retry(r -> r.maxAttempts(2).backoff(Duration.ofMillis(50), Duration.ofSeconds(30)))
                .circuit(c -> c.failureRate(50f).window(4).openFor(Duration.ofSeconds(2)))
                .build();
        List<JudgeRequest> reqs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            reqs.add(JudgeFixtures.mathText("run-cb", "cb-outage" + i, "x = 4"));
        }
        recovered.set(false);
        try (JudgeRuntime judge = k.start(s, Map.of(KEY_ENV, KEY), topics, "jw-circuit")) {
            List<long[]> permitted = new java.util.concurrent.CopyOnWriteArrayList<>();
            judge.engine().resilience().onCallsPermitted(state -> permitted.add(new long[] {System.nanoTime()}));
            Map<String, org.apache.kafka.clients.producer.RecordMetadata> where = new HashMap<>();
            reqs.forEach(r -> where.put(r.getRequestId(), k.publish(topics, r)));
            List<Map.Entry<SampleKey, JudgeVerdict>> seen = await(() -> k.verdicts(topics),
                    l -> l.stream().anyMatch(e -> "PENDING".equals(e.getValue().getStatus())
                            && e.getValue().getReason().contains("circuit open")),
                    Duration.ofSeconds(30), "a PENDING verdict naming the open circuit");
            assertThat(judge.engine().resilience().circuit().name()).isIn("OPEN", "HALF_OPEN");
            // while the circuit is open the worker takes no more requests: its partitions pause
            await(() -> judge.metrics().pausedPartitions().get(), n -> n > 0, Duration.ofSeconds(10), "paused partitions");
            // a request held as PENDING has not been committed past: its offset waits for its verdict
            Map<Integer, Long> committed = k.committed("jw-circuit");
            for (var e : seen) {
                if ("PENDING".equals(e.getValue().getStatus())) {
                    var at = where.get(e.getValue().getRequestId());
                    assertThat(committed.getOrDefault(at.partition(), 0L)).isLessThanOrEqualTo(at.offset());
                }
            }
            int permittedBefore = permitted.size();
            recovered.set(true);
            long recoveredAt = System.nanoTime();
            Map<String, JudgeVerdict> done = await(() -> finals(k.verdicts(topics)), m -> m.size() == reqs.size(),
                    Duration.ofSeconds(30), "every request final after recovery");
            long allDone = System.nanoTime();
            List<String> heldBack = seen.stream().filter(e -> "PENDING".equals(e.getValue().getStatus()))
                    .map(e -> e.getValue().getRequestId()).distinct().toList();
            assertThat(heldBack).isNotEmpty();
            assertThat(heldBack).allSatisfy(id -> assertThat(done.get(id).getStatus()).isEqualTo("VALID"));
            assertThat(done.values().stream().map(JudgeVerdict::getStatus).collect(Collectors.toSet())).containsOnly("VALID");
            // the circuit let calls through after the recovery, and the held requests went out right then: within
            // seconds of that moment, long before the 30 s a timer-based retry could take
            assertThat(permitted.size()).isGreaterThan(permittedBefore);
            long firstPermitAfter = permitted.stream().mapToLong(p -> p[0]).filter(t -> t >= recoveredAt).min().orElseThrow();
            long firstArrivalAfter = server.seen().stream().filter(x -> x.caseName().startsWith("cb-outage"))
                    .mapToLong(ScriptedVlmServer.Seen::arrivedNanos).filter(t -> t >= firstPermitAfter).min().orElseThrow();
            assertThat(Duration.ofNanos(firstArrivalAfter - firstPermitAfter)).isLessThan(Duration.ofSeconds(3));
            assertThat(Duration.ofNanos(allDone - recoveredAt)).as("recovery to every verdict").isLessThan(Duration.ofSeconds(25));
            // once everything is verdicted, every offset has moved past its request
            await(() -> k.committed("jw-circuit"), c -> where.values().stream()
                    .allMatch(m -> c.getOrDefault(m.partition(), 0L) > m.offset()), Duration.ofSeconds(10), "offsets past every request");
        }
    }

    /** Runs last: every log line and every record byte written so far, including a provider echoing the key. */
    @org.junit.jupiter.api.Order(3)
    @Test
    void theKeyReachesNeitherALogNorATopic() throws Exception {
        Topics topics = k.topics("jw-secret.", 2);
        recovered.set(false);
        JudgeRequest r = JudgeFixtures.mathText("run-secret", "openai-secret1", "x = 4");
        try (JudgeRuntime judge = k.start(settings("openai", URI.create(server.openAiBaseUrl())), Map.of(KEY_ENV, KEY), topics,
                "jw-secret")) {
            k.publish(topics, r);
            Predicate<JudgeVerdict> refused = v -> "PENDING".equals(v.getStatus()) && v.getReason().contains("HTTP 401");
            List<Map.Entry<SampleKey, JudgeVerdict>> pending = await(() -> k.verdicts(topics),
                    l -> l.stream().anyMatch(e -> refused.test(e.getValue())), Duration.ofSeconds(30),
                    "a PENDING verdict for the refused key");
            // the provider echoed the key; the reason shows that it was refused, not the key
            assertThat(pending.stream().map(Map.Entry::getValue).filter(refused).findFirst().orElseThrow().getReason())
                    .contains("invalid_api_key").contains("***");
            recovered.set(true);
            await(() -> finals(k.verdicts(topics)), m -> m.containsKey(r.getRequestId()), Duration.ofSeconds(30), "the verdict");
        }
        byte[] key = KEY.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        List<String> topicNames = new ArrayList<>();
        for (String prefix : List.of("jw-openai.", "jw-gemini.", "jw-circuit.", "jw-secret.")) {
            topicNames.add(prefix + "judge-requests");
            topicNames.add(prefix + "judge-verdicts");
            topicNames.add(prefix + "judge-cache");
        }
        List<byte[]> records = k.rawRecords(topicNames.toArray(String[]::new));
        assertThat(records).hasSizeGreaterThan(100);
        assertThat(records).noneMatch(b -> indexOf(b, key) >= 0);
        String logs = LOGS.toString();
        assertThat(logs).contains("judge worker");
        assertThat(logs).doesNotContain(KEY).doesNotContain(KEY.substring(3, 20));
        assertThat(server.seen().stream().filter(s -> s.caseName().contains("secret")).count()).isGreaterThanOrEqualTo(2);
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
