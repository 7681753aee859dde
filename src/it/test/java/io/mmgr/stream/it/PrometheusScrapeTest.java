package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.UiAction;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's Prometheus server, as an operator runs it (its own process, a generated configuration, the
 * bearer token in a credentials file, docs/operations.md "Web access"), scrapes a running scorer's
 * /metrics; the test asks Prometheus' HTTP API, not the scorer, for the samples scored, before and after
 * a load. A second job without the token shows the token is what lets the scrape in.
 */
@Tag("integration")
class PrometheusScrapeTest {

    static final String TOKEN = "prometheus-scrape-" + Long.toHexString(System.nanoTime());
    static final Duration WAIT = Duration.ofSeconds(60);
    static final int SAMPLES = 12;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void prometheusScrapesTheScorerWithItsTokenAndSeesTheSamplesScoredRiseWithTheLoad() throws Exception {
        SystemPackages.require(SystemPackages.runs("prometheus", "--version"), "the Prometheus server is missing: install the "
                + "Debian package prometheus (.ci/run does)", "mmgr.interop.required");
        ScorerApp.Options web = ScorerApp.Options.defaults().withWeb("127.0.0.1", 0, "127.0.0.1").withWebAccess(WebAccess.token(TOKEN));
        try (ScorerHarness h = new ScorerHarness(dir.resolve("stack"), ScorerSettings.defaults().withPrefix("prom.").withPartitions(1), web)) {
            URI scorer = URI.create(h.scorer().web().orElseThrow().url());
            Path log = dir.resolve("prometheus.log");
            Prometheus prometheus = startPrometheus(scorer.getHost() + ":" + scorer.getPort(), log);
            try {
                String api = prometheus.url();
                await(() -> value(api, "up{job=\"mmgr\"}"), 1.0, "the scrape with the token", log);
                await(() -> value(api, "up{job=\"mmgr-without-token\"}"), 0.0, "the scrape without the token (refused)", log);
                String scored = "sum(mmgr_samples_scored_total{task=\"mind2web\"})";
                assertThat(value(api, scored)).as("nothing scored yet").isNull();

                for (int i = 0; i < SAMPLES; i++) {
                    h.publish(item("s" + i));
                }
                for (int i = 0; i < SAMPLES; i++) {
                    h.publish(event("s" + i));
                }
                ScorerHarness.await(h::scores, s -> s.size() == SAMPLES, WAIT, "the load's scores");
                // the meter counts score records: as many as the topic holds (one per sample, unless one was re-scored)
                long records = h.records(h.topics().sampleScores.name()).size();
                assertThat(records).isGreaterThanOrEqualTo(SAMPLES);
                await(() -> value(api, scored), (double) records, "the samples scored, as Prometheus scraped them", log);
                assertThat(h.scores().values()).extracting(SampleScore::getStatus).containsOnly("COMPLETE");
                // the token went to Prometheus in a file, and no further
                assertThat(Files.readString(log)).contains("Server is ready").doesNotContain(TOKEN);
            } finally {
                prometheus.process().destroy();
                if (!prometheus.process().waitFor(20, TimeUnit.SECONDS)) {
                    prometheus.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    record Prometheus(Process process, String url) {
    }

    /** Prometheus on a free loopback port, scraping the scorer every second with and without the token. */
    private Prometheus startPrometheus(String target, Path log) throws IOException, InterruptedException {
        Path token = dir.resolve("mmgr-token");
        Files.writeString(token, TOKEN);
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
                "global:",
                "  scrape_interval: 1s",
                "scrape_configs:",
                "  - job_name: mmgr",
                "    authorization: {type: Bearer, credentials_file: " + token + "}",
                "    static_configs: [{targets: ['" + target + "']}]",
                "  - job_name: mmgr-without-token",
                "    static_configs: [{targets: ['" + target + "']}]",
                ""));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
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
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 503) {
            throw new IOException("Prometheus is starting");
        }
        JsonNode answer = JsonAvro.MAPPER.readTree(r.body());
        assertThat(answer.path("status").asText()).as(r.body()).isEqualTo("success");
        JsonNode result = answer.path("data").path("result");
        assertThat(result.size()).as(r.body()).isLessThanOrEqualTo(1);
        return result.isEmpty() ? null : Double.parseDouble(result.get(0).path("value").get(1).asText());
    }

    static BenchmarkItem item(String sample) {
        return BenchmarkItem.newBuilder().setTask("mind2web").setSampleId(sample).setBenchmark("magma")
                .setGroundTruth(GroundTruth.newBuilder().setUiSteps(List.of(UiAction.newBuilder().setElement("e")
                        .setOp("CLICK").build())).build()).build();
    }

    static GenerationEvent event(String sample) {
        return GenerationEvent.newBuilder().setRunId("prom").setModel("m").setCheckpointId("c1").setTrainingStep(1)
                .setTask("mind2web").setSampleId(sample).setModality("ui").setProducedAt(Instant.now())
                .setInputs(GenerationInputs.newBuilder().setUiActions(List.of(UiAction.newBuilder().setElement("e")
                        .setOp("CLICK").build())).build()).build();
    }
}
