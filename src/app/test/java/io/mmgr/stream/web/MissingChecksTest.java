package io.mmgr.stream.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.SimulatedTask;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.maze.MazeGate;
import io.mmgr.stream.tasks.maze.MazePixelEvaluator;
import io.mmgr.stream.tasks.maze.MazeSimulation;
import io.mmgr.stream.topology.EvaluationBridge;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A maze image scored by its pixels while its judge part cannot arrive (no judge configured) or is
 * still coming (the judge announced it is waiting): the score lists the judge's checks as missing,
 * and the sample's {@code why} on the REST API uses one word for each case, "unavailable" and "pending".
 * The real catalog and pixel evaluator on TopologyTestDriver, the API on loopback.
 */
@Tag("topology")
class MissingChecksTest {

    /** The judge's checks of the maze's vlm gate, which the pixel gate does not make. */
    static final List<String> JUDGE_CHECKS = MazeGate.VLM.checks().stream().map(c -> c.label()).toList();

    @TempDir
    Path dir;

    TopologyFixture fx;
    TopologyTestDriver driver;
    HttpServer server;
    Topics topics;
    EvaluationBridge evaluation;
    TestOutputTopic<SampleKey, SampleScore> scores;
    TestOutputTopic<SampleKey, JudgeRequest> judgeRequests;
    final HttpClient http = HttpClient.newHttpClient();

    void start(boolean judge) throws Exception {
        EvaluatorRegistry evaluators = new EvaluatorRegistry(Map.of(MazePixelEvaluator.ID, MazePixelEvaluator::new));
        var artifacts = new LocalArtifactResolver(List.of(dir), 1 << 24, dir.resolve("spill"));
        fx = TopologyFixture.builder("m.", dir).settings(s -> s.withJudge(judge))
                .context(c -> c.tasks(TaskCatalog.load(), evaluators).artifacts(artifacts)).scorer();
        driver = fx.driver;
        topics = fx.topics;
        evaluation = fx.evaluation();
        scores = fx.output(topics.sampleScores);
        judgeRequests = fx.output(topics.judgeRequests);
        server = LocalApi.serve(driver, fx.stores, artifacts);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        if (fx != null) {
            fx.close();
        }
    }

    /** Publishes one maze item and a right answer drawn as an image by the demo's simulated model. */
    SampleKey publishImageAnswer() throws Exception {
        SimulatedTask maze = new MazeSimulation();
        // the simulation answers every fourth item as a video: item 1 is an image
        BenchmarkItem item = maze.benchmark(2, 7, dir.resolve("bench")).get(1);
        SimulatedTask.Answer answer = maze.answer(item, 0, 1.0, new Random(3), dir.resolve("answers"));
        assertThat(answer.modality()).isEqualTo("image");
        driver.createInputTopic(topics.benchmark.name(), new StringSerializer(), topics.benchmark.valueSerde().<BenchmarkItem>serializer())
                .pipeInput(SampleKeys.itemKey("maze", item.getSampleId()), item);
        GenerationEvent e = GenerationEvent.newBuilder().setRunId("run").setModel("m").setCheckpointId("c1").setTrainingStep(1)
                .setTask("maze").setSampleId(item.getSampleId()).setSeed(0).setModality(answer.modality())
                .setArtifacts(answer.artifacts()).setProducedAt(Instant.ofEpochMilli(1_700_000_000_000L)).build();
        driver.createInputTopic(topics.generations.name(), new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput("k".getBytes(StandardCharsets.UTF_8), topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e));
        assertThat(evaluation.drain()).as("the pixel part evaluated").isEqualTo(1);
        return SampleKeys.of(e);
    }

    List<String> why(SampleKey key) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + "/api/sample?run=run&checkpoint=c1&task=maze&sample=" + key.getSampleId() + "&seed=0&scope=local")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode body = Json.MAPPER.readTree(r.body());
        assertThat(body.get("score").get("missingChecks")).as("the REST score carries them").hasSize(JUDGE_CHECKS.size());
        List<String> why = new ArrayList<>();
        body.get("why").forEach(w -> why.add(w.asText()));
        return why;
    }

    @Test
    void withoutAJudgeAPixelScoredMazeImageListsTheJudgesChecksAsUnavailable() throws Exception {
        start(false);
        SampleKey key = publishImageAnswer();

        SampleScore s = scores.readValue();
        assertThat(s.getStatus()).isEqualTo("PARTIAL");
        assertThat(s.getPrimarySource()).isEqualTo("pixel");
        assertThat(s.getPrimary()).as("a right answer passes the pixel gate").isEqualTo(1.0);
        assertThat(s.getMissingChecks()).containsExactlyElementsOf(JUDGE_CHECKS);
        assertThat(why(key)).containsExactly(
                "check unavailable: judge.maze_changed=0", "check unavailable: judge.cross_wall=0",
                "check unavailable: judge.target_achievement=1", "part judge unavailable: no judge configured");
    }

    @Test
    void whileTheVerdictIsComingTheJudgesChecksArePendingAndGoneOnceItArrives() throws Exception {
        start(true);
        SampleKey key = publishImageAnswer();
        assertThat(scores.isEmpty()).as("no score before the judge says anything").isTrue();
        JudgeRequest request = judgeRequests.readValue();

        var verdicts = driver.createInputTopic(topics.judgeVerdicts.name(), topics.judgeVerdicts.keySerde().serializer(),
                topics.judgeVerdicts.valueSerde().serializer());
        verdicts.pipeInput(key, verdict(request, "PENDING", Map.of(), "judge quota spent"));
        SampleScore pending = scores.readValue();
        assertThat(pending.getStatus()).isEqualTo("PENDING");
        assertThat(pending.getPrimarySource()).isEqualTo("pixel");
        assertThat(pending.getMissingChecks()).containsExactlyElementsOf(JUDGE_CHECKS);
        assertThat(why(key)).containsExactly(
                "check pending: judge.maze_changed=0", "check pending: judge.cross_wall=0",
                "check pending: judge.target_achievement=1", "part judge pending: judge quota spent");

        verdicts.pipeInput(key, verdict(request, "VALID", Map.of("maze_changed", 0.0, "cross_wall", 0.0, "target_achievement", 1.0), null));
        SampleScore done = scores.readValue();
        assertThat(done.getStatus()).isEqualTo("COMPLETE");
        assertThat(done.getPrimarySource()).isEqualTo("vlm");
        assertThat(done.getMissingChecks()).isEmpty();
    }

    static JudgeVerdict verdict(JudgeRequest request, String status, Map<String, Double> metrics, String reason) {
        return JudgeVerdict.newBuilder()
                .setRequestId(request.getRequestId()).setGenerationId(request.getGenerationId())
                .setRubric(request.getRubric()).setRubricVersion("1").setJudgeModel("judge-model")
                .setStatus(status).setMetrics(new java.util.HashMap<>(metrics)).setReason(reason)
                .setDecidedAt(Instant.ofEpochMilli(1_700_000_001_000L)).build();
    }
}
