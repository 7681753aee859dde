package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.tasks.maze.MazeBand;
import io.mmgr.stream.tasks.maze.MazeBenchmarkGenerator;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judged half end to end on the in-process broker: Math and Physical Concepts samples scored by
 * the judge alone, Maze samples by the judge and the pixel pipeline together, and a sample whose judge
 * is held back showing as PENDING with the reason until the judge answers; the dashboard API's rows of
 * judged tasks carry the judge's reliability flag. The scripted provider's
 * scores are the ground truth of the judge part; the maze outputs are the generator's own solution
 * image (a correct answer) and its unsolved problem image (no path).
 */
@Tag("integration")
class JudgeEndToEndTest {

    static final String RUN = "run-judge";
    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    static final AtomicBoolean keyFixed = new AtomicBoolean(false);

    static Action script(ScriptedVlmServer.Exchange e) {
        return switch (e.caseName()) {
            case "math-good" -> Action.ok(Duration.ofMillis(20), Map.of("final_correctness", 1.0, "intermediate_correctness", 1.0));
            case "math-bad" -> Action.ok(Duration.ofMillis(20), Map.of("final_correctness", 1.0, "intermediate_correctness", 0.0));
            case "math-held" -> keyFixed.get() ? Action.ok(Duration.ZERO, Map.of())
                    : Action.of(ScriptedVlmServer.Kind.UNAUTHORIZED);
            case "physics-good" -> Action.ok(Duration.ofMillis(20), Map.of());
            case "physics-bad" -> Action.ok(Duration.ofMillis(20), Map.of("physics_accuracy", 0.0));
            case "maze-good" -> Action.ok(Duration.ofMillis(20), Map.of("maze_changed", 0.0, "cross_wall", 0.0, "target_achievement", 1.0));
            case "maze-bad" -> Action.ok(Duration.ofMillis(20), Map.of("maze_changed", 0.0, "cross_wall", 0.0, "target_achievement", 0.0));
            default -> Action.of(ScriptedVlmServer.Kind.SERVER_ERROR);
        };
    }

    @Test
    void judgedAndPixelScoredSamplesCarryBothPartsAndPendingShowsWhy() throws Exception {
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("e2ej.").withPartitions(3).withJudge(true)
                .withArtifactRoots(List.of(dir));
        try (ScriptedVlmServer server = ScriptedVlmServer.start(JudgeEndToEndTest::script);
             ScorerHarness h = new ScorerHarness(dir, settings, ScorerApp.Options.defaults().withWeb("127.0.0.1", 0, "127.0.0.1"));
             JudgeRuntime judge = JudgeRuntime.start(
                     JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "judge-e2e")
                             .quota(q -> q.requests(50, Duration.ofSeconds(1)))
                             .timeout(Duration.ofSeconds(5))
                             .retry(r -> r.maxAttempts(3).backoff(Duration.ofMillis(50), Duration.ofMillis(200)))
                             .circuit(c -> c.openFor(Duration.ofSeconds(1)))
                             .build(),
                     Map.of(), h.topics, new JudgeWorker.Config(h.kafka.bootstrapServers(), "e2ej-judge", Map.of()),
                     new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                     new SimpleMeterRegistry(), dir.resolve("judge-cache"))) {

            List<BenchmarkItem> items = new java.util.ArrayList<>();
            List<GenerationEvent> events = new java.util.ArrayList<>();
            for (String c : List.of("math-good", "math-bad", "math-held")) {
                items.add(BenchmarkItem.newBuilder().setTask("math").setSampleId(c).setPrompt("case=" + c + " Solve 3x = 12.")
                        .setGroundTruth(GroundTruth.newBuilder().setAnswer("x = 4").build()).build());
                events.add(event("math", c, "text").setInputs(GenerationInputs.newBuilder().setText("3x = 12, x = 4").build()).build());
            }
            for (String c : List.of("physics-good", "physics-bad")) {
                items.add(BenchmarkItem.newBuilder().setTask("physical-concepts").setSampleId(c)
                        .setPrompt("case=" + c + " a ball rolls off a table")
                        .setGroundTruth(GroundTruth.newBuilder().setPhysicsFocus("projectile motion").build()).build());
                events.add(event("physical-concepts", c, "video").setArtifacts(List.of(video(c))).build());
            }
            BenchmarkItem maze = MazeBenchmarkGenerator.generate(dir.resolve("mazes"), 1, List.of(MazeBand.values()[0]), 7)
                    .items().get(0);
            ArtifactRef solution = maze.getArtifacts().stream().filter(a -> a.getRole().equals("solution")).findFirst().orElseThrow();
            ArtifactRef problem = maze.getArtifacts().stream().filter(a -> a.getRole().equals("problem")).findFirst().orElseThrow();
            for (String c : List.of("maze-good", "maze-bad")) {
                items.add(BenchmarkItem.newBuilder(maze).setSampleId(c).setPrompt("case=" + c + " " + maze.getPrompt()).build());
                ArtifactRef out = ArtifactRef.newBuilder(c.equals("maze-good") ? solution : problem).setRole("output").build();
                events.add(event("maze", c, "image").setArtifacts(List.of(out)).build());
            }
            items.forEach(h::publish);
            events.forEach(h::publish);

            // held back: the score says PENDING and why, while the other samples complete
            Map<SampleKey, SampleScore> pending = await(h::scores, m -> m.values().stream().anyMatch(s -> s.getSampleId().equals("math-held")
                    && "PENDING".equals(s.getStatus())), WAIT, "the held-back sample as PENDING");
            SampleScore held = score(pending, "math-held");
            assertThat(held.getPending().get("judge")).contains("rejects the configuration").contains("HTTP 401");
            assertThat(held.getPrimary()).isNull();

            Map<SampleKey, SampleScore> scores = await(h::scores, m -> m.values().stream()
                    .filter(s -> "COMPLETE".equals(s.getStatus())).count() == 6, WAIT, "six complete scores");

            SampleScore mathGood = score(scores, "math-good");
            assertThat(mathGood.getPrimary()).isEqualTo(1.0);
            assertThat(mathGood.getMetrics()).containsEntry("judge.final_correctness", 1.0).containsEntry("judge.intermediate_correctness", 1.0);
            assertThat(mathGood.getPartsUsed()).anyMatch(p -> p.startsWith("judge@math@v1-") && p.endsWith("by judge-e2e"));
            assertThat(mathGood.getJustifications()).containsEntry("final_correctness", "scripted");
            SampleScore mathBad = score(scores, "math-bad");
            assertThat(mathBad.getPrimary()).isEqualTo(0.0);
            assertThat(mathBad.getFailedChecks()).anyMatch(c -> c.startsWith("judge.intermediate_correctness"));

            assertThat(score(scores, "physics-good").getPrimary()).isEqualTo(1.0);
            assertThat(score(scores, "physics-good").getMetrics()).containsEntry("judge.visual_realism", 1.0);
            assertThat(score(scores, "physics-bad").getPrimary()).isEqualTo(0.0);
            assertThat(score(scores, "physics-bad").getFailedChecks()).anyMatch(c -> c.startsWith("judge.physics_accuracy"));
            // the video went as frames
            assertThat(server.seen().stream().filter(s -> s.caseName().equals("physics-good")).findFirst().orElseThrow().images())
                    .isEqualTo(16);

            SampleScore mazeGood = score(scores, "maze-good");
            assertThat(mazeGood.getPartsUsed()).anyMatch(p -> p.startsWith("judge@")).anyMatch(p -> p.startsWith("maze-pixel@"));
            assertThat(mazeGood.getMetrics()).containsEntry("judge.cross_wall", 0.0).containsEntry("judge.target_achievement", 1.0)
                    .containsEntry("maze-pixel.cross_wall", 0.0);
            assertThat(mazeGood.getMetrics().get("maze-pixel.layout_iou")).isGreaterThan(0.8);
            assertThat(mazeGood.getGates()).containsEntry("overall_vlm", 1.0).containsEntry("overall_pixel", 1.0);
            assertThat(mazeGood.getPrimarySource()).isEqualTo("vlm");
            assertThat(mazeGood.getPrimary()).isEqualTo(1.0);
            SampleScore mazeBad = score(scores, "maze-bad");
            assertThat(mazeBad.getGates()).containsEntry("overall_vlm", 0.0).containsEntry("overall_pixel", 0.0);
            assertThat(mazeBad.getMetrics().get("maze-pixel.target_achievement")).isLessThan(0.95);
            assertThat(mazeBad.getPrimary()).isEqualTo(0.0);

            // the dashboard's rows of judged tasks carry the judge's reliability: Physical Concepts from the seed's
            // Table 5 (65.31%, Veo-3 the only model listed, so also the figure for this unlisted model), a
            // discount; Math has no figure, so unknown
            String api = h.scorer.web().orElseThrow().url() + "api/leaderboard?run=" + RUN + "&task=";
            JsonNode physicsRow = await(() -> getJson(api + "physical-concepts"),
                    r -> r.size() == 1 && r.get(0).get("samplesScored").asInt() == 2, WAIT, "the physical-concepts row").get(0);
            JsonNode physicsFlag = flag(physicsRow, "judge-discount");
            assertThat(physicsFlag.get("level").asText()).isEqualTo("warn");
            assertThat(physicsFlag.get("text").asText()).contains("65.31%", "Veo-3");
            assertThat(physicsRow.get("reliability").asText()).isEqualTo("discount");
            JsonNode mathRow = await(() -> getJson(api + "math"), r -> r.size() == 1 && r.get(0).get("samplesScored").asInt() >= 2,
                    WAIT, "the math row").get(0);
            assertThat(flag(mathRow, "judge-unknown").get("text").asText()).contains("no Table 5 figure");

            // the key is fixed: the held sample gets its verdict and completes
            keyFixed.set(true);
            Map<SampleKey, SampleScore> after = await(h::scores, m -> "COMPLETE".equals(score(m, "math-held").getStatus()), WAIT,
                    "the held-back sample complete");
            assertThat(score(after, "math-held").getPrimary()).isEqualTo(1.0);
            assertThat(score(after, "math-held").getPending()).isEmpty();
        }
    }

    static JsonNode getJson(String url) {
        try {
            var r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(URI.create(url)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? new ObjectMapper().readTree(r.body()) : new ObjectMapper().createArrayNode();
        } catch (Exception e) {
            throw new IllegalStateException(url, e);
        }
    }

    static JsonNode flag(JsonNode row, String code) {
        for (JsonNode f : row.get("flags")) {
            if (f.get("code").asText().equals(code)) {
                return f;
            }
        }
        throw new AssertionError("no flag " + code + " on " + row);
    }

    static SampleScore score(Map<SampleKey, SampleScore> scores, String sampleId) {
        return scores.values().stream().filter(s -> s.getSampleId().equals(sampleId)).findFirst()
                .orElseThrow(() -> new AssertionError("no score for " + sampleId));
    }

    static GenerationEvent.Builder event(String task, String sample, String modality) {
        return GenerationEvent.newBuilder().setRunId(RUN).setModel("gen-model").setCheckpointId("ckpt-1").setTrainingStep(1)
                .setTask(task).setSampleId(sample).setModality(modality).setProducedAt(Instant.now());
    }

    ArtifactRef video(String name) throws Exception {
        Path file = dir.resolve(name + ".mp4");
        try (VideoEncoder enc = VideoEncoder.open(file, 64, 48, 8, VideoEncoder.Container.MP4)) {
            for (int i = 0; i < 32; i++) {
                enc.write(RgbImage.filled(64, 48, (i * 8) << 8));
            }
        }
        byte[] bytes = Files.readAllBytes(file);
        return ArtifactRef.newBuilder().setRole("output").setUri(file.toUri().toString()).setMediaType("video/mp4")
                .setSha256(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes))).build();
    }
}
