package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.web.WebAccess;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's Prometheus server, as an operator runs it (its own process, a generated configuration, the
 * bearer token in a credentials file, docs/operations.md "Web access"), scrapes two scorer instances
 * sharing the work on one broker; the test asks Prometheus' HTTP API, not the scorers, for the samples
 * scored before and after a load, and for each checkpoint's primary per task, which must equal the
 * leaderboard's. A job without the token is refused (HTTP 401). The example alerting rules
 * (deploy/prometheus/mmgr-rules.yml) pass {@code promtool check rules} and, loaded from a copy whose
 * {@code for:} durations are 1 s, fire as their conditions are provoked: a checkpoint regression, dead
 * letters, a judge whose provider answers too slowly (the judge in the first scorer's process, as {@code run}
 * starts it), a scorer stopped.
 */
@Tag("integration")
class PrometheusScrapeTest {

    static final String TOKEN = "prometheus-scrape-" + Long.toHexString(System.nanoTime());
    static final Duration WAIT = Duration.ofSeconds(60);
    /** AlertRule.DEFAULT's minimum of compared samples, so the regression raises an alert. */
    static final int SAMPLES = 20;
    /** Judged samples sent to the slow provider. */
    static final int JUDGED = 6;
    static final Path RULES = Path.of("deploy", "prometheus", "mmgr-rules.yml");
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void theExampleRulesPassPromtool() throws Exception {
        SystemPackages.require(SystemPackages.runs("promtool", "--version"), "promtool is missing: install the "
                + "Debian package prometheus (.ci/run does)", "mmgr.interop.required");
        Process p = new ProcessBuilder("promtool", "check", "rules", RULES.toString(), testRules().toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out).contains("SUCCESS: 4 rules found");
    }

    @Test
    void prometheusScrapesTwoScorersReadsTheLeaderboardsPrimaryAndTheExampleAlertsFire() throws Exception {
        // 53 s at load 8 (over 20 s: two scorers on one broker, 20 s of it their start, and four alerts provoked one after the other)
        SystemPackages.require(SystemPackages.runs("prometheus", "--version"), "the Prometheus server is missing: install the "
                + "Debian package prometheus (.ci/run does)", "mmgr.interop.required");
        long t0 = System.nanoTime();
        int portA = freePort();
        int portB = freePort();
        String targetA = "127.0.0.1:" + portA;
        String targetB = "127.0.0.1:" + portB;
        Path log = dir.resolve("prometheus.log");
        Prometheus prometheus = startPrometheus(List.of(targetA, targetB), log);
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("prom.").withPartitions(4).withJudge(true);
        ScorerApp b = null;
        JudgeRuntime judge = null;
        // a provider slower than the test: every judge request stays in the worker's backlog
        ScriptedVlmServer slow = ScriptedVlmServer.start(e -> Action.ok(Duration.ofMinutes(2), Map.of()));
        try (ScorerHarness h = new ScorerHarness(dir.resolve("stack"), settings, web(portA))) {
            try {
                b = ScorerApp.start(settings, web(portB), h.kafka.bootstrapServers(), h.registry.url(), dir.resolve("b"), WAIT);
                long started = System.nanoTime();
                String api = prometheus.url();
                await(() -> value(api, "sum(up{job=\"mmgr\"})"), 2.0, "both scorers scraped with the token", log);
                // refused by the scorer, not merely unreachable
                await(() -> lastError(api, "without-token").contains("401") ? 1.0 : 0.0, 1.0,
                        "the scrape without the token refused with HTTP 401", log);
                // what the stopped-scorer rule reads besides up: each instance's live stream threads
                await(() -> value(api, "count(kafka_stream_alive_stream_threads{job=\"mmgr\"} > 0)"), 2.0, "both scorers' stream threads", log);
                long scraped = System.nanoTime();
                String scored = "sum(mmgr_samples_scored_total{task=\"mind2web\"})";
                assertThat(value(api, scored)).as("nothing scored yet").isNull();
                // a scorer not listening yet was down: that alert clears once both are scraped, and no other fires
                awaitQuiet(api, log);

                for (int i = 0; i < SAMPLES; i++) {
                    h.publish(item("s" + i));
                }
                // c1 answers every sample right, c2 none: a significant drop, which the scorer's comparison raises
                for (int i = 0; i < SAMPLES; i++) {
                    h.publish(event("s" + i, "c1", 1, true));
                }
                for (int i = 0; i < SAMPLES; i++) {
                    h.publish(event("s" + i, "c2", 2, false));
                }
                long loaded = System.nanoTime();
                ScorerHarness.await(h::scores, s -> s.size() == 2 * SAMPLES, WAIT, "the load's scores");
                long scoredAt = System.nanoTime();
                // the meter counts score records: as many as the topic holds (one per sample, unless one was re-scored)
                long records = h.records(h.topics().sampleScores.name()).size();
                assertThat(records).isGreaterThanOrEqualTo(2 * SAMPLES);
                await(() -> value(api, scored), (double) records, "the samples scored, summed over both scorers", log);
                assertThat(h.scores().values()).extracting(SampleScore::getStatus).containsOnly("COMPLETE");

                // each checkpoint's primary per task (and over all tasks), as the leaderboard topic's final rows have it
                Map<LeaderboardKey, LeaderboardRow> board = ScorerHarness.await(h::leaderboard, m -> m.size() == 4
                        && m.values().stream().allMatch(r -> r.getSamplesScored() == SAMPLES), WAIT, "both checkpoints' final rows");
                for (LeaderboardRow row : board.values()) {
                    assertThat(row.getPrimaryRate()).isNotNull();
                    String query = "max by (run, checkpoint, task) (mmgr_checkpoint_primary{run=\"" + row.getRunId()
                            + "\", checkpoint=\"" + row.getCheckpointId() + "\", task=\"" + row.getTask() + "\"})";
                    await(() -> value(api, query), row.getPrimaryRate(), "the primary of " + row.getCheckpointId() + "/" + row.getTask(), log);
                }
                assertThat(board.values()).extracting(LeaderboardRow::getPrimaryRate).contains(1.0, 0.0);
                // each row on exactly one instance: the one whose partition holds it
                assertThat(value(api, "count(mmgr_checkpoint_primary{run=\"prom\"})")).isEqualTo(4.0);
                long primaries = System.nanoTime();
                awaitFiring(api, "MmgrCheckpointRegression", log);

                h.publishRaw("not-a-key".getBytes(StandardCharsets.UTF_8), "not an Avro record".getBytes(StandardCharsets.UTF_8));
                awaitFiring(api, "MmgrDeadLetters", log);
                assertThat(firing(api)).doesNotContain("MmgrScorerDown", "MmgrJudgeBacklogGrowing");

                judge = JudgeRuntime.start(JudgeSettings.builder("openai", URI.create(slow.openAiBaseUrl()), "judge-prom")
                                .timeout(Duration.ofMinutes(5)).retry(r -> r.maxAttempts(1)).build(),
                        Map.of(), h.topics(), new JudgeWorker.Config(h.kafka.bootstrapServers(), "prom-judge", Map.of()),
                        new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                        h.scorer().meters(), dir.resolve("judge-cache"));
                // judged samples arriving one by one, so the backlog rises while Prometheus watches
                for (int i = 0; i < JUDGED; i++) {
                    h.publish(BenchmarkItem.newBuilder().setTask("math").setSampleId("m" + i).setPrompt("case=slow Solve 3x = 12.")
                            .setGroundTruth(GroundTruth.newBuilder().setAnswer("x = 4").build()).build());
                    h.publish(GenerationEvent.newBuilder().setRunId("prom-judged").setModel("m").setCheckpointId("c1").setTrainingStep(1)
                            .setTask("math").setSampleId("m" + i).setModality("text").setProducedAt(Instant.now())
                            .setInputs(GenerationInputs.newBuilder().setText("3x = 12, x = 4").build()).build());
                    Thread.sleep(500);
                }
                awaitFiring(api, "MmgrJudgeBacklogGrowing", log);
                // every judged sample waits: none was verdicted (the provider has not answered)
                await(() -> value(api, "sum(mmgr_judge_backlog)"), (double) JUDGED, "the judge backlog", log);

                b.close();
                b = null;
                JsonNode down = awaitFiring(api, "MmgrScorerDown", log);
                assertThat(down.path("labels").path("instance").asText()).isEqualTo(targetB);
                System.out.printf("Prometheus scrape: stack up in %.1f s, both jobs scraped %.1f s later, the load scored in %.1f s, "
                        + "its primaries seen by Prometheus %.1f s after that, the four alerts fired within %.1f s (load average %s)%n",
                        (started - t0) / 1e9, (scraped - started) / 1e9, (scoredAt - loaded) / 1e9, (primaries - scoredAt) / 1e9,
                        (System.nanoTime() - primaries) / 1e9, Files.readString(Path.of("/proc/loadavg")).trim());
                // the token went to Prometheus in a file, and no further
                assertThat(Files.readString(log)).contains("Server is ready").doesNotContain(TOKEN);
            } finally {
                // the provider first: the judge's call in flight ends, so the judge stops at once, while the broker runs
                slow.close();
                if (judge != null) {
                    judge.close();
                }
                if (b != null) {
                    b.close();
                }
            }
        } finally {
            slow.close();
            prometheus.process().destroy();
            if (!prometheus.process().waitFor(20, TimeUnit.SECONDS)) {
                prometheus.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    static ScorerApp.Options web(int port) {
        return ScorerApp.Options.defaults().withWeb("127.0.0.1", port, "127.0.0.1").withWebAccess(WebAccess.token(TOKEN));
    }

    /** The example rules with every {@code for:} cut to 1 s, so a provoked condition fires within seconds. */
    private Path testRules() throws IOException {
        Path copy = dir.resolve("mmgr-rules.yml");
        String rules = Files.readString(RULES).replaceAll("(?m)^(\\s+)for: \\S+$", "$1for: 1s");
        assertThat(rules).contains("for: 1s").doesNotContain("for: 2m");
        Files.writeString(copy, rules);
        return copy;
    }

    /** Names of the alerts Prometheus reports firing. */
    private static List<String> firing(String api) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        for (JsonNode a : JsonAvro.MAPPER.readTree(get(api + "/api/v1/alerts")).path("data").path("alerts")) {
            if ("firing".equals(a.path("state").asText())) {
                out.add(a.path("labels").path("alertname").asText());
            }
        }
        return out;
    }

    /** Polls /api/v1/alerts until no alert is pending or firing. */
    private static void awaitQuiet(String api, Path log) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        String last = "";
        while (System.nanoTime() < end) {
            last = get(api + "/api/v1/alerts");
            if (JsonAvro.MAPPER.readTree(last).path("data").path("alerts").isEmpty()) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("alerts still active: " + last + "; Prometheus' log:\n" + Files.readString(log));
    }

    /** Polls /api/v1/alerts until the alert fires; returns it. */
    private static JsonNode awaitFiring(String api, String alert, Path log) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        String last = "";
        while (System.nanoTime() < end) {
            last = get(api + "/api/v1/alerts");
            for (JsonNode a : JsonAvro.MAPPER.readTree(last).path("data").path("alerts")) {
                if (alert.equals(a.path("labels").path("alertname").asText()) && "firing".equals(a.path("state").asText())) {
                    return a;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError(alert + " did not fire; last answer " + last + "; Prometheus' log:\n" + Files.readString(log));
    }

    record Prometheus(Process process, String url) {
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Prometheus on a free loopback port, scraping the scorers every second with the token and the first one
     * without, evaluating the test copy of the rules every second; started before the scorers listen (a target
     * that does not answer yet is just down).
     */
    private Prometheus startPrometheus(List<String> targets, Path log) throws IOException {
        Path token = dir.resolve("mmgr-token");
        Files.writeString(token, TOKEN);
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
                "global:",
                "  scrape_interval: 1s",
                "  evaluation_interval: 1s",
                "rule_files: ['" + testRules() + "']",
                "scrape_configs:",
                "  - job_name: mmgr",
                "    authorization: {type: Bearer, credentials_file: " + token + "}",
                "    static_configs: [{targets: ['" + String.join("', '", targets) + "']}]",
                "  - job_name: without-token",
                "    static_configs: [{targets: ['" + targets.get(0) + "']}]",
                ""));
        int port = freePort();
        return new Prometheus(new ProcessBuilder("prometheus", "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + port, "--log.level=info")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start(), "http://127.0.0.1:" + port);
    }

    interface Query {
        Double get() throws Exception;
    }

    /** Queries until the answer is {@code expected} or the time is up (Prometheus scrapes every second). */
    private static void await(Query query, double expected, String what, Path log) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        Double last = null;
        Exception error = null;
        while (System.nanoTime() < end) {
            try {
                last = query.get();
                error = null;
                if (last != null && last == expected) {
                    return;
                }
            } catch (IOException e) {
                error = e; // not listening yet
            }
            Thread.sleep(250);
        }
        throw new AssertionError(what + ": expected " + expected + ", last answer " + last + (error == null ? "" : " (" + error + ")")
                + "; Prometheus' log:\n" + Files.readString(log));
    }

    /** The single value of an instant query, or null for an empty answer. */
    private static Double value(String api, String promql) throws Exception {
        String body = get(api + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        JsonNode answer = JsonAvro.MAPPER.readTree(body);
        assertThat(answer.path("status").asText()).as(body).isEqualTo("success");
        JsonNode result = answer.path("data").path("result");
        assertThat(result.size()).as(body).isLessThanOrEqualTo(1);
        return result.isEmpty() ? null : Double.parseDouble(result.get(0).path("value").get(1).asText());
    }

    /** The last scrape error of a job's only target, as Prometheus' targets API gives it ("" when it was scraped). */
    private static String lastError(String api, String job) throws Exception {
        JsonNode answer = JsonAvro.MAPPER.readTree(get(api + "/api/v1/targets?state=active"));
        for (JsonNode t : answer.path("data").path("activeTargets")) {
            if (job.equals(t.path("labels").path("job").asText())) {
                return t.path("lastError").asText();
            }
        }
        return "";
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 503) {
            throw new IOException("Prometheus is starting");
        }
        return r.body();
    }

    static BenchmarkItem item(String sample) {
        return BenchmarkItem.newBuilder().setTask("mind2web").setSampleId(sample).setBenchmark("magma")
                .setGroundTruth(GroundTruth.newBuilder().setUiSteps(List.of(UiAction.newBuilder().setElement("e")
                        .setOp("CLICK").build())).build()).build();
    }

    /** A generation of the sample at a checkpoint, its one step right or wrong. */
    static GenerationEvent event(String sample, String checkpoint, long step, boolean right) {
        return GenerationEvent.newBuilder().setRunId("prom").setModel("m").setCheckpointId(checkpoint).setTrainingStep(step)
                .setTask("mind2web").setSampleId(sample).setModality("ui").setProducedAt(Instant.now())
                .setInputs(GenerationInputs.newBuilder().setUiActions(List.of(UiAction.newBuilder().setElement(right ? "e" : "x")
                        .setOp("CLICK").build())).build()).build();
    }
}
