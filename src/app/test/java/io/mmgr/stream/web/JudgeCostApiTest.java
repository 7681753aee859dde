package io.mmgr.stream.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.JudgeCostKeys;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.topology.judgecost.JudgeCostTopology;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/judge-cost} gathered over loopback from two scorer instances, each a TopologyTestDriver running the
 * judge-cost sub-flow on its own share of the verdicts: the spend adds up across them, the projection comes from the
 * global table, and an instance that cannot answer leaves the answer partial (marked), not failed.
 */
@Tag("topology")
class JudgeCostApiTest {

    @TempDir
    Path dir;

    TopologyFixture a;
    TopologyFixture b;
    HttpServer peer;
    final HttpClient http = HttpClient.newHttpClient();

    static TopologyFixture instance(Path dir) {
        return TopologyFixture.builder("j.", dir).subFlows((builder, ctx) -> {
            Topic<SampleKey, JudgeVerdict> verdicts = ctx.topics().judgeVerdicts;
            JudgeCostTopology.build(builder, ctx.judgeCostDeps(), builder.stream(verdicts.name(), verdicts.consumed("test-verdicts")));
        });
    }

    @BeforeEach
    void start() throws Exception {
        a = instance(dir.resolve("a"));
        b = instance(dir.resolve("b"));
        peer = serve(b, List.of());
    }

    @AfterEach
    void stop() {
        peer.stop(0);
        a.close();
        b.close();
    }

    /** The API over an instance's stores, gathering from {@code others}. */
    static HttpServer serve(TopologyFixture fx, List<HostInfo> others) throws Exception {
        Function<String, ReadOnlyKeyValueStore<?, ?>> stores = fx.driver::getKeyValueStore;
        HttpServer api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        api.createContext("/api/", new ApiHandler(new StoreQueries(stores, fx.stores),
                new Cluster(null, new HostInfo("127.0.0.1", api.getAddress().getPort()), WebAccess.open(), () -> others),
                fx.artifacts, LocalApi.FLAGS, () -> JudgeCostEndpoint.Mode.EXTERNAL));
        api.start();
        return api;
    }

    static JudgeVerdict verdict(String request, int attempts, double usd) {
        return JudgeVerdict.newBuilder().setRequestId(request).setGenerationId("g").setRubric("r").setRubricVersion("1")
                .setJudgeModel("openai/m").setStatus("VALID").setAttempts(attempts).setInputTokens(1000L * attempts)
                .setOutputTokens(60L * attempts).setCostUsd(usd).setDecidedAt(Instant.ofEpochMilli(1_700_000_000_000L)).build();
    }

    static SampleKey sample(String checkpoint, String id) {
        return new SampleKey("run", checkpoint, "echo", id, 0);
    }

    HttpResponse<String> get(HttpServer server, String query) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/judge-cost"
                + query)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theSpendOfEveryInstanceAddsUpBesideTheWorkersProjection() throws Exception {
        a.input(a.topics.judgeVerdicts).pipeInput(sample("c1", "s1"), verdict("q1", 1, 0.0020));
        a.input(a.topics.judgeVerdicts).pipeInput(sample("c1", "s2"), verdict("q2", 2, 0.0030));
        b.input(b.topics.judgeVerdicts).pipeInput(sample("c1", "s3"), verdict("q3", 1, 0.0025));
        b.input(b.topics.judgeVerdicts).pipeInput(sample("c2", "s1"), verdict("q4", 1, 0.0011));
        b.input(b.topics.judgeVerdicts).pipeInput(new SampleKey("other-run", "c1", "echo", "s1", 0), verdict("q5", 1, 0.5));
        JudgeProjection p = JudgeProjection.newBuilder().setRunId("run").setCheckpointId("c1").setWorker("w1").setPlannedRequests(4)
                .setJudges(1).setSamples(1).setLaneFactor(0.5).setPerCallUsd(0.004).setProjectedUsd(0.008)
                .setUpdatedAt(Instant.ofEpochMilli(1_700_000_000_000L)).build();
        a.input(a.topics.judgeProjections).pipeInput(JudgeCostKeys.projection("run", "c1", "w1"), p);

        HttpServer gathering = serve(a, List.of(new HostInfo("127.0.0.1", peer.getAddress().getPort())));
        try {
            HttpResponse<String> r = get(gathering, "?run=run");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(r.headers().firstValue(ApiHandler.PARTIAL)).isEmpty();
            JsonNode body = Json.MAPPER.readTree(r.body());
            assertThat(body.get("judge").asText()).isEqualTo("external");
            JsonNode c1 = body.get("checkpoints").get(0);
            assertThat(c1.get("checkpoint").asText()).isEqualTo("c1");
            assertThat(c1.get("verdicts").asLong()).isEqualTo(3);
            assertThat(c1.get("calls").asLong()).isEqualTo(4);
            assertThat(c1.get("spentUsd").asDouble()).isCloseTo(0.0075, within(1e-12));
            assertThat(c1.get("projectedUsd").asDouble()).isCloseTo(0.008, within(1e-12));
            JsonNode c2 = body.get("checkpoints").get(1);
            assertThat(c2.get("spentUsd").asDouble()).as("held by the other instance only").isCloseTo(0.0011, within(1e-12));
            assertThat(body.get("checkpoints")).as("another run's spend stays out").hasSize(2);

            // each instance's own rows, as the gathering one asks for them
            JsonNode local = Json.MAPPER.readTree(get(peer, "?run=run&scope=local").body());
            assertThat(local).hasSize(2);
            assertThat(get(gathering, "").statusCode()).isEqualTo(400);
        } finally {
            gathering.stop(0);
        }
    }

    @Test
    void anInstanceThatCannotAnswerLeavesThePartialMarker() throws Exception {
        a.input(a.topics.judgeVerdicts).pipeInput(sample("c1", "s1"), verdict("q1", 1, 0.0020));
        int gone;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            gone = s.getLocalPort();
        }
        HttpServer gathering = serve(a, List.of(new HostInfo("127.0.0.1", gone)));
        try {
            HttpResponse<String> r = get(gathering, "?run=run");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().allValues(ApiHandler.PARTIAL)).containsExactly("127.0.0.1:" + gone);
            assertThat(Json.MAPPER.readTree(r.body()).get("checkpoints").get(0).get("spentUsd").asDouble())
                    .isCloseTo(0.0020, within(1e-12));
        } finally {
            gathering.stop(0);
        }
    }
}
