package io.mmgr.stream.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.mmgr.stream.leaderboard.AlertRule;
import io.mmgr.stream.topology.EchoTask;
import io.mmgr.stream.topology.EvaluationBridge;
import io.mmgr.stream.topology.Fixtures;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.topology.comparison.ComparisonSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.mmgr.stream.artifacts.Digests;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.it.LogCapture;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import org.apache.logging.log4j.Level;

/**
 * The REST handlers below the browser: {@link ApiHandler} on a real HTTP server on loopback, over
 * {@link StoreQueries} reading a TopologyTestDriver's stores (this instance's answer, scope=local).
 * Two tasks of 30 items, the second checkpoint much worse on both.
 */
@Tag("topology")
class ApiHandlerTest {

    static final int ITEMS = 30;
    static final String RUN = "run-api";

    @TempDir
    Path dir;

    TopologyFixture fx;
    TopologyTestDriver driver;
    HttpServer server;
    Topics topics;
    EvaluationBridge evaluation;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        fx = TopologyFixture.builder("w.", dir)
                .context(c -> c.comparisons(new ComparisonSettings(new AlertRule(0.01, 0.05, 20), Duration.ofMillis(500))))
                .scorer();
        driver = fx.driver;
        topics = fx.topics;
        evaluation = fx.evaluation();
        for (String task : List.of(EchoTask.TASK, EchoTask.SECOND_TASK)) {
            for (int i = 0; i < ITEMS; i++) {
                fx.item(Fixtures.item(task, "s" + i, 1));
            }
        }
        server = LocalApi.serve(driver, fx.stores, fx.artifacts);
    }

    @AfterEach
    void stop() {
        server.stop(0);
        fx.close();
    }

    void publish(String task, String checkpoint, long step, int from, int to, boolean good) {
        var generations = driver.createInputTopic(topics.generations.name(), new ByteArraySerializer(), new ByteArraySerializer());
        for (int i = from; i < to; i++) {
            double ok = good ? (i % 10 == 0 ? 0 : 1) : (i % 10 < 2 ? 1 : 0);
            var e = Fixtures.event(RUN, checkpoint, step, task, "s" + i, 0, Map.of("ok", ok));
            generations.pipeInput("k".getBytes(StandardCharsets.UTF_8),
                    topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e));
        }
        evaluation.drain();
        driver.advanceWallClockTime(Duration.ofSeconds(1));
    }

    HttpResponse<String> get(String pathAndQuery) throws Exception {
        String sep = pathAndQuery.contains("?") ? "&" : "?";
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + pathAndQuery
                + sep + "scope=local")).build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode json(String pathAndQuery) throws Exception {
        HttpResponse<String> r = get(pathAndQuery);
        assertThat(r.statusCode()).as("%s: %s", pathAndQuery, r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    void progressExpectsEveryTaskOfTheBenchmarkFromTheFirstSample() throws Exception {
        publish(EchoTask.TASK, "ckpt-1000", 1000, 0, 1, true);
        JsonNode p = json("/api/progress?run=" + RUN + "&checkpoint=ckpt-1000");
        assertThat(p.get("total").get("samplesExpected").asLong()).isEqualTo(2 * ITEMS);
        assertThat(p.get("total").get("samplesScored").asLong()).isEqualTo(1);
        assertThat(p.get("tasks")).hasSize(2);
        JsonNode notStarted = null;
        for (JsonNode t : p.get("tasks")) {
            if (t.get("task").asText().equals(EchoTask.SECOND_TASK)) {
                notStarted = t;
            }
        }
        assertThat(notStarted).as("the task with no score yet is listed").isNotNull();
        assertThat(notStarted.get("samplesExpected").asLong()).isEqualTo(ITEMS);
        assertThat(notStarted.get("samplesScored").asLong()).isZero();
    }

    @Test
    void rowsCarryTheTimeTheyLastChangedNotTheTimeOfTheRequest() throws Exception {
        publish(EchoTask.TASK, "ckpt-1000", 1000, 0, ITEMS, true);
        JsonNode first = json("/api/leaderboard?run=" + RUN);
        driver.advanceWallClockTime(Duration.ofSeconds(30));
        JsonNode again = json("/api/leaderboard?run=" + RUN);
        assertThat(again).isEqualTo(first);
        assertThat(first).isNotEmpty().allSatisfy(r -> assertThat(r.get("updatedAt").asText()).isNotBlank());
    }

    @Test
    void theAllTasksRowHasComparisonsAndAnAlertAndTheReportShowsThemWithoutScripts() throws Exception {
        for (String task : List.of(EchoTask.TASK, EchoTask.SECOND_TASK)) {
            publish(task, "ckpt-1000", 1000, 0, ITEMS, true);
        }
        for (String task : List.of(EchoTask.TASK, EchoTask.SECOND_TASK)) {
            publish(task, "ckpt-2000", 2000, 0, ITEMS, false);
        }
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        JsonNode star = json("/api/comparisons?run=" + RUN + "&task=*&checkpoint=ckpt-2000");
        assertThat(star).singleElement().satisfies(c -> {
            assertThat(c.get("vsPrevious").get("samples").asLong()).isEqualTo(2 * ITEMS);
            assertThat(c.get("vsPrevious").get("significantDrop").asBoolean()).isTrue();
        });
        JsonNode alerts = json("/api/alerts?run=" + RUN);
        assertThat(alerts).anySatisfy(a -> {
            assertThat(a.get("task").asText()).isEqualTo("*");
            assertThat(a.get("checkpointId").asText()).isEqualTo("ckpt-2000");
            assertThat(a.get("partial").asBoolean()).isFalse();
        });

        HttpResponse<String> report = get("/api/report?run=" + RUN + "&checkpoint=ckpt-2000");
        assertThat(report.statusCode()).isEqualTo(200);
        assertThat(report.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(report.body()).doesNotContainIgnoringCase("<script").contains("<svg", "ckpt-2000 on all tasks dropped")
                .contains("★ best");
        // the best checkpoint is the first: in the checkpoints table, its row carries the mark
        assertThat(report.body()).containsPattern("<td>ckpt-1000 <span class=\"best\">★ best</span>");
        assertThat(get("/api/report?run=nope").statusCode()).isEqualTo(400);
    }

    // ---- artifacts: served only as the event recorded them, from the allowlist, digest required ----

    /** Content a model might output under an image's name: HTML with a script, which must never run as this origin's page. */
    static final byte[] HTML = "<!doctype html><html><body><script>fetch('/api/runs').then(r => r.text()).then(alert)</script></body></html>"
            .getBytes(StandardCharsets.UTF_8);
    static final byte[] SVG = "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(document.domain)\"><script>alert(1)</script></svg>"
            .getBytes(StandardCharsets.UTF_8);

    ArtifactRef ref(String role, byte[] bytes, String name, String mediaType, String sha256) throws Exception {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return ArtifactRef.newBuilder().setRole(role).setUri(file.toUri().toString()).setMediaType(mediaType).setSha256(sha256).build();
    }

    /** One sample whose event recorded {@code refs}, scored; its item records {@code itemRefs}. */
    void publishWithArtifacts(List<ArtifactRef> refs, List<ArtifactRef> itemRefs) {
        BenchmarkItem item = Fixtures.item(EchoTask.TASK, "s-art", 1);
        item.setArtifacts(itemRefs);
        fx.item(item);
        var generations = driver.createInputTopic(topics.generations.name(), new ByteArraySerializer(), new ByteArraySerializer());
        GenerationEvent e = Fixtures.event(RUN, "ckpt-1000", 1000, EchoTask.TASK, "s-art", 0, Map.of("ok", 1.0));
        e.setArtifacts(refs);
        generations.pipeInput("k".getBytes(StandardCharsets.UTF_8),
                topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e));
        evaluation.drain();
        driver.advanceWallClockTime(Duration.ofSeconds(1));
    }

    /** A real 4x4 PNG. */
    static byte[] png() throws Exception {
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(4, 4, java.awt.image.BufferedImage.TYPE_INT_RGB);
        img.setRGB(1, 1, 0x336699);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(img, "png", out);
        return out.toByteArray();
    }

    static final String SAMPLE = "/api/sample?run=" + RUN + "&checkpoint=ckpt-1000&task=" + EchoTask.TASK + "&sample=s-art&seed=0";

    HttpResponse<byte[]> bytes(String pathAndQuery) throws Exception {
        String sep = pathAndQuery.contains("?") ? "&" : "?";
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + pathAndQuery
                + sep + "scope=local")).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void anImageHoldingHtmlOrSvgIsNeverServedAsAPageOrAsSvg() throws Exception {
        String html = Digests.sha256(HTML);
        String svg = Digests.sha256(SVG);
        byte[] png = png();
        List<ArtifactRef> refs = List.of(
                ref("output", HTML, "page.png", "image/png", html),            // 0: recorded as png: served as png, never sniffed
                ref("output", HTML, "page.html", "text/html", html),           // 1: recorded as html: refused
                ref("output", SVG, "vector.svg", "image/svg+xml", svg),        // 2: recorded as svg: refused
                ref("output", SVG, "vector.png", "IMAGE/PNG; charset=utf-8", svg), // 3: parameters dropped, png it is
                ref("output", png, "nodigest.png", "image/png", null),        // 4: no digest: refused
                ref("output", png, "wrong.png", "image/png", "ab".repeat(32)), // 5: digest does not match: refused
                ArtifactRef.newBuilder().setRole("output").setMediaType("image/png").setSha256(Digests.sha256(png))
                        .setUri("data:image/png;base64," + Base64.getEncoder().encodeToString(png)).build()); // 6: inline
        List<ArtifactRef> itemRefs = List.of(ref("reference", png, "reference.png", "image/png", Digests.sha256(png)),
                ref("reference", HTML, "reference.html", "text/html", html));
        publishWithArtifacts(refs, itemRefs);

        JsonNode sample = json(SAMPLE);
        List<String> hrefs = new ArrayList<>();
        sample.get("artifacts").forEach(a -> hrefs.add(a.get("href").asText()));
        assertThat(hrefs).hasSize(refs.size()).allSatisfy(h -> assertThat(h).startsWith("/api/artifact?").contains("&index=")
                .doesNotContain("mediaType").doesNotContain("uri="));

        HttpResponse<byte[]> asPng = bytes(hrefs.get(0));
        assertThat(asPng.statusCode()).isEqualTo(200);
        assertThat(asPng.headers().firstValue("Content-Type")).hasValue("image/png");
        assertThat(asPng.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(asPng.headers().firstValue("Content-Security-Policy").orElse("")).contains("default-src 'none'").contains("sandbox");
        assertThat(asPng.body()).isEqualTo(HTML);

        for (int i : new int[] {1, 2}) {
            HttpResponse<byte[]> refused = bytes(hrefs.get(i));
            assertThat(refused.statusCode()).as("artifact %d", i).isEqualTo(415);
            assertThat(refused.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
            assertThat(refused.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(new String(refused.body(), StandardCharsets.UTF_8)).contains("only image/jpeg, image/png, video/mp4, video/webm")
                    .doesNotContain("<script");
        }
        HttpResponse<byte[]> svgAsPng = bytes(hrefs.get(3));
        assertThat(svgAsPng.headers().firstValue("Content-Type")).hasValue("image/png");
        assertThat(svgAsPng.body()).isEqualTo(SVG);

        HttpResponse<String> noDigest = get(hrefs.get(4));
        assertThat(noDigest.statusCode()).isEqualTo(422);
        assertThat(noDigest.body()).contains("no sha256 digest");
        HttpResponse<String> wrongDigest = get(hrefs.get(5));
        assertThat(wrongDigest.statusCode()).isEqualTo(404);
        assertThat(wrongDigest.body()).contains("not matching its recorded sha256", "error id").doesNotContain(dir.toString());

        HttpResponse<byte[]> inline = bytes(hrefs.get(6));
        assertThat(inline.statusCode()).isEqualTo(200);
        assertThat(inline.body()).isEqualTo(png);

        // the benchmark item's references, the same way
        List<String> itemHrefs = new ArrayList<>();
        sample.get("item").get("artifacts").forEach(a -> itemHrefs.add(a.get("href").asText()));
        assertThat(itemHrefs).hasSize(2);
        assertThat(bytes(itemHrefs.get(0)).body()).isEqualTo(png);
        assertThat(get(itemHrefs.get(1)).statusCode()).isEqualTo(415);

        // the caller cannot choose: the old parameters name no artifact, and a type given is ignored
        String file = Json.enc(dir.resolve("page.html").toUri().toString());
        HttpResponse<String> chosen = get("/api/artifact?uri=" + file + "&mediaType=text/html&sha256=" + html);
        assertThat(chosen.statusCode()).isEqualTo(400);
        assertThat(chosen.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        HttpResponse<byte[]> typed = bytes(hrefs.get(0) + "&mediaType=text/html");
        assertThat(typed.headers().firstValue("Content-Type")).hasValue("image/png");
        assertThat(get("/api/artifact?run=" + RUN + "&checkpoint=ckpt-1000&task=" + EchoTask.TASK + "&sample=s-art&index=7")
                .statusCode()).isEqualTo(404);
    }

    @Test
    void everyAnswerCarriesNosniffAndTheReportItsPolicy() throws Exception {
        publish(EchoTask.TASK, "ckpt-1000", 1000, 0, ITEMS, true);
        for (String path : List.of("/api/leaderboard", "/api/runs", "/api/nope", "/api/samples?run=" + RUN,
                "/api/report?run=" + RUN)) {
            assertThat(get(path).headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
        }
        HttpResponse<String> report = get("/api/report?run=" + RUN);
        assertThat(report.headers().firstValue("Content-Security-Policy").orElse(""))
                .startsWith(io.mmgr.stream.report.ReportPage.CSP).contains("frame-ancestors 'none'");
        assertThat(report.body()).contains("<meta http-equiv=\"Content-Security-Policy\" content=\""
                + io.mmgr.stream.report.ReportPage.CSP + "\">");
    }

    @Test
    void aFailureAnswersAnErrorIdAndLogsTheDetailsNotTheCaller() throws Exception {
        String secret = "store exploded at /var/lib/mmgr/secret-state";
        HttpServer broken = HttpServer.create(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 4);
        broken.createContext("/api/", new ApiHandler(new StoreQueries(name -> {
            throw new IllegalStateException(secret);
        }, fx.stores), new Cluster(null, new org.apache.kafka.streams.state.HostInfo("127.0.0.1", 1), WebAccess.open()), fx.artifacts, LocalApi.FLAGS));
        broken.start();
        try (LogCapture log = new LogCapture(Level.ERROR)) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + broken.getAddress().getPort()
                    + "/api/leaderboard?scope=local")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(500);
            assertThat(r.body()).doesNotContain("exploded").doesNotContain("IllegalStateException").doesNotContain("/var/lib")
                    .doesNotContain("at io.mmgr");
            String id = Json.MAPPER.readTree(r.body()).get("errorId").asText();
            assertThat(id).matches("[0-9a-f]{8}");
            assertThat(Json.MAPPER.readTree(r.body()).get("error").asText()).contains(id);
            assertThat(log.text()).as("the server's log has what the caller does not").contains("error id " + id, secret,
                    "IllegalStateException");
        } finally {
            broken.stop(0);
        }
    }

    @Test
    void aListGatheredWhileAnotherInstanceCannotAnswerHoldsWhatTheLiveOnesHaveMarkedPartial() throws Exception {
        publish(EchoTask.TASK, "ckpt-1000", 1000, 0, ITEMS, true);
        // a live peer holding one row of its own, and an instance that is gone (its port closed)
        HttpServer peer = HttpServer.create(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 4);
        peer.createContext("/api/", ex -> HttpExchanges.json(ex, 200, Json.MAPPER.createArrayNode()
                .add(Json.MAPPER.createObjectNode().put("runId", "held-by-peer"))));
        peer.start();
        int gone;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            gone = s.getLocalPort();
        }
        var peerHost = new org.apache.kafka.streams.state.HostInfo("127.0.0.1", peer.getAddress().getPort());
        HttpServer partial = gathering(List.of(peerHost, new org.apache.kafka.streams.state.HostInfo("127.0.0.1", gone)));
        HttpServer whole = gathering(List.of(peerHost));
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + partial.getAddress().getPort()
                    + "/api/leaderboard")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(r.headers().allValues(ApiHandler.PARTIAL)).containsExactly("127.0.0.1:" + gone);
            List<String> runs = new ArrayList<>();
            Json.MAPPER.readTree(r.body()).forEach(n -> runs.add(n.get("runId").asText()));
            assertThat(runs).contains(RUN, "held-by-peer");
            // with every instance answering, nothing is marked
            HttpResponse<String> all = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + whole.getAddress().getPort()
                    + "/api/leaderboard")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(all.statusCode()).isEqualTo(200);
            assertThat(all.headers().firstValue(ApiHandler.PARTIAL)).isEmpty();
            assertThat(all.body()).contains("held-by-peer", RUN);
        } finally {
            partial.stop(0);
            whole.stop(0);
            peer.stop(0);
        }
    }

    /** The API over the driver's stores, gathering from {@code others}. */
    HttpServer gathering(List<org.apache.kafka.streams.state.HostInfo> others) throws Exception {
        java.util.function.Function<String, org.apache.kafka.streams.state.ReadOnlyKeyValueStore<?, ?>> stores = driver::getKeyValueStore;
        HttpServer api = HttpServer.create(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 4);
        api.createContext("/api/", new ApiHandler(new StoreQueries(stores, fx.stores),
                new Cluster(null, new org.apache.kafka.streams.state.HostInfo("127.0.0.1", 1), WebAccess.open(), () -> others),
                fx.artifacts, LocalApi.FLAGS));
        api.start();
        return api;
    }
}
