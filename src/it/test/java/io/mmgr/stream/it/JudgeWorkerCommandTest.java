package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.cli.JudgeWorkerCommand;
import io.mmgr.stream.topology.ScorerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mmgr judge-worker} as its own JVM, configured only by environment variables (as the compose
 * file's judge-worker service is), answering the judge requests of a scorer that plans judge parts.
 * Its state file says RUNNING, then CIRCUIT_OPEN while the provider rejects every call, then RUNNING
 * again, and STOPPED after SIGTERM; its meters are served at /metrics; the provider's echo of the key
 * reaches no log. The scorer's {@code /api/judge-cost} shows what the worker spent (the sum of its verdicts' costs)
 * and what it projected, as the compose file's scorers do.
 */
@Tag("integration")
class JudgeWorkerCommandTest {

    static final String KEY = "gm-key-5Rt8Wq2Zs3cr3tJ";
    static final Duration WAIT = Duration.ofSeconds(120);
    static final int HELD = 12;

    @TempDir
    Path dir;

    final AtomicBoolean keyFixed = new AtomicBoolean(false);

    Action script(ScriptedVlmServer.Exchange e) {
        if (e.caseName().equals("worker-held") && !keyFixed.get()) {
            return Action.of(ScriptedVlmServer.Kind.UNAUTHORIZED);
        }
        return Action.ok(Duration.ofMillis(10), Map.of("final_correctness", 1.0, "intermediate_correctness", 1.0));
    }

    @Test
    void aWorkerConfiguredByTheEnvironmentAnswersTheScorerAndReportsItsState() throws Exception {
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("jw.").withPartitions(2).withJudge(true)
                .withApplicationId("jw-app").withStreamThreads(1).withArtifactRoots(List.of(dir));
        Path data = dir.resolve("worker");
        Path state = data.resolve(JudgeWorkerCommand.STATE_FILE);
        try (ScriptedVlmServer server = ScriptedVlmServer.start(this::script);
             ScorerHarness h = new ScorerHarness(dir, settings, ScorerApp.Options.defaults().withWeb("127.0.0.1", 0, "127.0.0.1"))) {
            Map<String, String> env = new HashMap<>();
            env.put("MMGR_BOOTSTRAP_SERVERS", h.kafka.bootstrapServers());
            env.put("MMGR_SCHEMA_REGISTRY_URL", h.registry.url());
            env.put("MMGR_TOPIC_PREFIX", "jw.");
            env.put("MMGR_APPLICATION_ID", "jw-app");
            env.put("MMGR_DATA_DIR", data.toString());
            env.put("MMGR_ARTIFACT_ROOTS", dir.toString());
            env.put("MMGR_JUDGE_PROTOCOL", "gemini");
            env.put("MMGR_JUDGE_BASE_URL", server.geminiBaseUrl());
            env.put("MMGR_JUDGE_MODEL", "judge-from-env");
            env.put("MMGR_JUDGE_API_KEY_ENV", "JW_TEST_GEMINI_KEY");
            env.put("JW_TEST_GEMINI_KEY", KEY);
            env.put("MMGR_JUDGE_RPS", "20");
            env.put("MMGR_JUDGE_CONCURRENCY", "3");
            env.put("MMGR_JUDGE_TIMEOUT", "PT10S");
            env.put("MMGR_JUDGE_MAX_ATTEMPTS", "2");
            env.put("MMGR_JUDGE_CIRCUIT_OPEN_FOR", "PT3S");
            env.put("MMGR_JUDGE_PRICE_INPUT", "2");
            env.put("MMGR_JUDGE_PRICE_OUTPUT", "8");
            env.put("MMGR_JUDGE_METRICS_PORT", "0");
            // the state file every 500 ms, not every 5 s: four of the waits below are for its next write
            env.put("MMGR_JUDGE_STATE_EVERY", "PT0.5S");
            ChildScorer worker = ChildScorer.judgeWorker("judge-worker", data, List.of(), env, List.of());
            try (worker) {
                worker.start(Duration.ofMinutes(2));
                // every setting came from the environment
                assertThat(worker.log()).contains("judge worker running: gemini judge-from-env at " + server.geminiBaseUrl()
                        + ", 20 requests per 1s, 3 in flight").contains("(group jw-app-judge, 2 partitions)");
                await(() -> read(state), s -> s.equals("RUNNING"), WAIT, "the state file saying RUNNING");

                List<BenchmarkItem> items = new ArrayList<>();
                items.add(item("ok", "worker-ok"));
                for (int i = 0; i < HELD; i++) {
                    items.add(item("held-" + i, "worker-held"));
                }
                items.forEach(h::publish);
                items.forEach(i -> h.publish(event(i.getSampleId())));

                // the provider rejects the key for the held samples (Gemini: 400 INVALID_ARGUMENT, API_KEY_INVALID): the
                // circuit opens, the state file says so, and the scores say why they wait
                await(() -> read(state), s -> s.equals("CIRCUIT_OPEN"), WAIT, "the state file saying CIRCUIT_OPEN");
                // the state file can say so before the scorer has written the score (a busy machine)
                await(h::scores, m -> m.containsKey(key("held-0")) && "PENDING".equals(m.get(key("held-0")).getStatus()), WAIT,
                        "the held sample's score PENDING");
                assertThat(verdicts(h)).anySatisfy(v -> {
                    assertThat(v.getStatus()).isEqualTo("PENDING");
                    assertThat(v.getReason()).contains("HTTP 400").contains("API_KEY_INVALID").contains("rejects the configuration");
                }).allSatisfy(v -> assertThat(String.valueOf(v.getReason())).doesNotContain(KEY));

                // the key is fixed: every sample completes and the worker reports RUNNING again
                keyFixed.set(true);
                Map<SampleKey, SampleScore> scores = await(h::scores, m -> items.stream().allMatch(i -> m.containsKey(key(i.getSampleId()))
                        && "COMPLETE".equals(m.get(key(i.getSampleId())).getStatus())), WAIT, "every sample complete");
                await(() -> read(state), s -> s.equals("RUNNING"), WAIT, "the state file saying RUNNING again");

                // judged by the worker with the environment's model, protocol, key and prices
                SampleScore ok = scores.get(key("ok"));
                assertThat(ok.getPrimary()).isEqualTo(1.0);
                assertThat(ok.getPartsUsed()).anyMatch(p -> p.startsWith("judge@math@") && p.endsWith("by judge-from-env"));
                JudgeVerdict valid = verdicts(h).stream().filter(v -> "VALID".equals(v.getStatus()) && v.getCachedFrom() == null)
                        .findFirst().orElseThrow();
                assertThat(valid.getCostUsd()).isPositive()
                        .isEqualTo((2.0 * valid.getInputTokens() + 8.0 * valid.getOutputTokens()) / 1e6);
                assertThat(server.seen()).hasSizeGreaterThan(HELD).allSatisfy(s -> {
                    assertThat(s.protocol()).isEqualTo(io.mmgr.stream.judge.protocol.JudgeProtocol.GEMINI);
                    assertThat(s.authorization()).isEqualTo(KEY);
                });

                // its meters, at /metrics: the refused calls, the spend of the run, the circuit
                java.util.regex.Matcher url = java.util.regex.Pattern.compile("metrics at (http://\\S+/metrics)").matcher(worker.log());
                assertThat(url.find()).as("the metrics address in the banner").isTrue();
                String metrics = SecretsTest.httpGet(url.group(1));
                assertThat(metrics).contains("mmgr_judge_calls_total", "mmgr_judge_cost_usd_total{checkpoint=\"c1\",run=\"jw-run\"}",
                        "mmgr_judge_circuit_state").doesNotContain(KEY);
                assertThat(metrics).containsPattern("mmgr_judge_calls_total\\{[^}]*\\} [1-9]");

                // the scorer's dashboard figures, from the verdicts and the worker's projection record: what the verdicts cost
                double spent = verdicts(h).stream().filter(v -> !"PENDING".equals(v.getStatus()) && v.getCachedFrom() == null)
                        .mapToDouble(JudgeVerdict::getCostUsd).sum();
                assertThat(spent).isPositive();
                String costUrl = h.scorer().web().orElseThrow().url() + "api/judge-cost?run=jw-run";
                com.fasterxml.jackson.databind.JsonNode cost = await(() -> judgeCost(costUrl),
                        c -> Math.abs(c.path("spentUsd").asDouble() - spent) < 1e-12 && c.path("projectedUsd").isNumber(), WAIT,
                        "the scorer's /api/judge-cost showing the worker's spend and projection");
                assertThat(cost.get("checkpoint").asText()).isEqualTo("c1");
                assertThat(cost.get("plannedRequests").asLong()).as("every request reached the worker").isGreaterThanOrEqualTo(HELD + 1);
                assertThat(cost.get("projectedUsd").asDouble()).isPositive();

                // and it is rewritten as the worker lives, so a hung worker would show by the file's age
                Instant written = Files.getLastModifiedTime(state).toInstant();
                await(() -> modified(state), t -> t.isAfter(written), Duration.ofSeconds(20), "the state file rewritten");

                try (Admin admin = Admin.create(Map.of("bootstrap.servers", h.kafka.bootstrapServers()))) {
                    assertThat(admin.describeConsumerGroups(List.of("jw-app-judge")).all().get().get("jw-app-judge").members())
                            .isNotEmpty();
                }
                assertThat(worker.stop()).isIn(0, 143);
            }
            assertThat(read(state)).isEqualTo("STOPPED");
            String log = worker.allLogs();
            assertThat(log).contains("Stopping the judge worker");
            assertThat(log).as("the worker's output").doesNotContain(KEY);
        }
    }

    static BenchmarkItem item(String sample, String caseName) {
        return BenchmarkItem.newBuilder().setTask("math").setSampleId(sample).setPrompt("case=" + caseName + " Solve 3x = 12.")
                .setGroundTruth(GroundTruth.newBuilder().setAnswer("x = 4").build()).build();
    }

    static GenerationEvent event(String sample) {
        return GenerationEvent.newBuilder().setRunId("jw-run").setModel("m").setCheckpointId("c1").setTrainingStep(1)
                .setTask("math").setSampleId(sample).setModality("text").setProducedAt(Instant.now())
                .setInputs(GenerationInputs.newBuilder().setText("3x = 12, so x = 4 (" + sample + ")").build()).build();
    }

    static SampleKey key(String sample) {
        return new SampleKey("jw-run", "c1", "math", sample, 0);
    }

    static List<JudgeVerdict> verdicts(ScorerHarness h) {
        List<JudgeVerdict> out = new ArrayList<>();
        for (var r : TopicSnapshot.all(h.clientConfig, h.topics.judgeVerdicts.name(), Duration.ofSeconds(30))) {
            out.add(h.topics.judgeVerdicts.valueSerde().deserializer().deserialize(r.topic(), r.value()));
        }
        return out;
    }

    /** c1's entry of the scorer's /api/judge-cost (empty before it has one). */
    static com.fasterxml.jackson.databind.JsonNode judgeCost(String url) {
        try {
            var body = new com.fasterxml.jackson.databind.ObjectMapper().readTree(SecretsTest.httpGet(url));
            for (var c : body.path("checkpoints")) {
                if ("c1".equals(c.path("checkpoint").asText())) {
                    return c;
                }
            }
        } catch (Exception | AssertionError e) {
            // not answering yet: asked again
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file).strip() : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    static Instant modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toInstant();
        } catch (java.io.IOException e) {
            return Instant.EPOCH;
        }
    }
}
