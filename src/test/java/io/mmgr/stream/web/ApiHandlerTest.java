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
}
