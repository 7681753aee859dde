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
 * a load. A second job without the token is refused (HTTP 401): the token is what lets the scrape in.
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
        // 25 s at load 14, 17 s of it the stack's start (Prometheus starts meanwhile): it needs a scorer with a token of its own
        SystemPackages.require(SystemPackages.runs("prometheus", "--version"), "the Prometheus server is missing: install the "
                + "Debian package prometheus (.ci/run does)", "mmgr.interop.required");
        long t0 = System.nanoTime();
        int webPort = freePort();
        Path log = dir.resolve("prometheus.log");
        Prometheus prometheus = startPrometheus("127.0.0.1:" + webPort, log);
        ScorerApp.Options web = ScorerApp.Options.defaults().withWeb("127.0.0.1", webPort, "127.0.0.1").withWebAccess(WebAccess.token(TOKEN));
        try (ScorerHarness h = new ScorerHarness(dir.resolve("stack"), ScorerSettings.defaults().withPrefix("prom.").withPartitions(1), web)) {
            long started = System.nanoTime();
            String api = prometheus.url();
            await(() -> value(api, "up{job=\"mmgr\"}"), 1.0, "the scrape with the token", log);
            // refused by the scorer, not merely unreachable
            await(() -> lastError(api, "mmgr-without-token").contains("401") ? 1.0 : 0.0, 1.0,
                    "the scrape without the token refused with HTTP 401", log);
            long scraped = System.nanoTime();
            String scored = "sum(mmgr_samples_scored_total{task=\"mind2web\"})";
            assertThat(value(api, scored)).as("nothing scored yet").isNull();

            for (int i = 0; i < SAMPLES; i++) {
                h.publish(item("s" + i));
            }
            for (int i = 0; i < SAMPLES; i++) {
                h.publish(event("s" + i));
            }
            long loaded = System.nanoTime();
            ScorerHarness.await(h::scores, s -> s.size() == SAMPLES, WAIT, "the load's scores");
            long scoredAt = System.nanoTime();
            // the meter counts score records: as many as the topic holds (one per sample, unless one was re-scored)
            long records = h.records(h.topics().sampleScores.name()).size();
            assertThat(records).isGreaterThanOrEqualTo(SAMPLES);
            await(() -> value(api, scored), (double) records, "the samples scored, as Prometheus scraped them", log);
            System.out.printf("Prometheus scrape: stack up in %.1f s, both jobs scraped %.1f s later, the load scored in %.1f s "
                    + "and seen by Prometheus %.1f s after that (load average %s)%n", (started - t0) / 1e9,
                    (scraped - started) / 1e9, (scoredAt - loaded) / 1e9, (System.nanoTime() - scoredAt) / 1e9,
                    Files.readString(Path.of("/proc/loadavg")).trim());
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

    record Prometheus(Process process, String url) {
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Prometheus on a free loopback port, scraping the scorer every second with and without the token; started
     * before the scorer listens (a target that does not answer yet is just down).
     */
    private Prometheus startPrometheus(String target, Path log) throws IOException {
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

    static GenerationEvent event(String sample) {
        return GenerationEvent.newBuilder().setRunId("prom").setModel("m").setCheckpointId("c1").setTrainingStep(1)
                .setTask("mind2web").setSampleId(sample).setModality("ui").setProducedAt(Instant.now())
                .setInputs(GenerationInputs.newBuilder().setUiActions(List.of(UiAction.newBuilder().setElement("e")
                        .setOp("CLICK").build())).build()).build();
    }
}
