package io.mmgr.stream.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.judge.CostLedger;
import io.mmgr.stream.judge.CostProjection;
import io.mmgr.stream.topology.EchoTask;
import io.mmgr.stream.topology.Fixtures;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/judge-cost} over a real loopback server: an in-process judge's spend and projection per checkpoint of
 * the asked run (a two-judge, three-sample panel, so the projection is requests x 2 x 3 x cost a call), a checkpoint
 * planned but not yet spent, another run left out, and the external judge's pointer to its worker's /metrics.
 */
@Tag("unit")
class JudgeCostEndpointTest {

    HttpServer server;
    final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    JsonNode get(JudgeCostEndpoint endpoint, String query, int status) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/judge-cost", endpoint);
        server.start();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + "/api/judge-cost" + query)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(status);
        return Json.MAPPER.readTree(r.body());
    }

    static JudgeRequest request(String run, String checkpoint, String sample) {
        return JudgeRequest.newBuilder().setRequestId(run + "/" + checkpoint + "/" + sample).setGenerationId("g-" + sample)
                .setRubric("echo").setEvent(Fixtures.event(run, checkpoint, 1, EchoTask.JUDGED_TASK, sample, 0, Map.of("ok", 1.0)))
                .setItem(Fixtures.item(EchoTask.JUDGED_TASK, sample, 1)).setRequestedAt(Instant.now()).build();
    }

    @Test
    void anInProcessJudgeShowsEachCheckpointsSpendAndProjection() throws Exception {
        CostLedger ledger = new CostLedger(null);
        // c1: two calls settled, $0.03 and $0.01 -> $0.02 a call over the ledger
        ledger.settle("r", "c1", 0.0, 1, 1000, 100, 0.03);
        ledger.settle("r", "c1", 0.0, 1, 500, 50, 0.01);
        ledger.settle("other", "c1", 0.0, 1, 1, 1, 0.02);
        CostProjection projection = new CostProjection(ledger, 2, 3, 1.0, null);
        for (int i = 0; i < 4; i++) {
            projection.planned(request("r", "c1", "s" + i), 0.5);
        }
        projection.planned(request("r", "c2", "t"), 0.5); // planned, nothing spent yet
        AtomicReference<CostProjection> current = new AtomicReference<>();
        JudgeCostEndpoint endpoint = JudgeCostEndpoint.inProcess(ledger, current::get);

        // before the engine has a projection: the spend alone
        JsonNode early = endpoint.body("r");
        assertThat(early.get("checkpoints")).hasSize(1);
        assertThat(early.get("checkpoints").get(0).get("projectedUsd").isNull()).isTrue();

        current.set(projection);
        JsonNode body = get(endpoint, "?run=r", 200);
        assertThat(body.get("judge").asText()).isEqualTo("in-process");
        assertThat(body.get("run").asText()).isEqualTo("r");
        assertThat(body.has("note")).isFalse();
        JsonNode c1 = body.get("checkpoints").get(0);
        assertThat(c1.get("checkpoint").asText()).isEqualTo("c1");
        assertThat(c1.get("calls").asLong()).isEqualTo(2);
        assertThat(c1.get("inputTokens").asLong()).isEqualTo(1500);
        assertThat(c1.get("outputTokens").asLong()).isEqualTo(150);
        assertThat(c1.get("spentUsd").asDouble()).isCloseTo(0.04, within(1e-12));
        assertThat(c1.get("plannedRequests").asLong()).isEqualTo(4);
        // the per-call estimate is the settled calls' mean over the ledger (the other run's included): $0.06 / 3
        assertThat(c1.get("projectedUsd").asDouble()).isCloseTo(4 * 2 * 3 * 0.02, within(1e-12));
        JsonNode c2 = body.get("checkpoints").get(1);
        assertThat(c2.get("checkpoint").asText()).isEqualTo("c2");
        assertThat(c2.get("calls").asLong()).isZero();
        assertThat(c2.get("spentUsd").asDouble()).isZero();
        assertThat(c2.get("projectedUsd").asDouble()).isCloseTo(1 * 2 * 3 * 0.02, within(1e-12));
        assertThat(body.get("checkpoints")).hasSize(2);
    }

    @Test
    void anExternalJudgeSaysWhereItsCostIsAndARunMustBeNamed() throws Exception {
        JsonNode body = get(JudgeCostEndpoint.external(), "?run=r", 200);
        assertThat(body.get("judge").asText()).isEqualTo("external");
        assertThat(body.get("note").asText()).isEqualTo("judge cost: see the judge worker's /metrics");
        assertThat(body.get("checkpoints")).isEmpty();
        stop();
        assertThat(get(JudgeCostEndpoint.none(), "?run=r", 200).get("judge").asText()).isEqualTo("none");
        stop();
        assertThat(get(JudgeCostEndpoint.none(), "", 400).get("error").asText()).contains("?run=RUN");
    }
}
