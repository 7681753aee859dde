package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.artifacts.Digests;
import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.it.ScorerHarness;
import io.mmgr.stream.topology.ScorerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Maze answers through the whole stream on a real broker: rendered images referenced by file URIs,
 * scored by the pixel pipeline, gated, and bad artifacts in the dead-letter topic.
 */
@Tag("integration")
class MazeStreamTest {

    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;
    static ScorerHarness h;
    static List<BenchmarkItem> items;

    @BeforeAll
    static void start() throws Exception {
        Path artifacts = Files.createDirectories(dir.resolve("artifacts"));
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("maze.").withPartitions(2)
                .withArtifactRoots(List.of(artifacts));
        h = new ScorerHarness(dir.resolve("stack"), settings);
        items = MazeBenchmarkGenerator.generate(artifacts.resolve("bench"), 2, List.of(MazeBand.MEDIUM), 21).items();
        items.forEach(h::publish);
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    static MazeProblem problem(BenchmarkItem item) throws io.mmgr.stream.tasks.EvaluationException {
        var gt = MazeTruth.of(item.getGroundTruth());
        MazeLattice lattice = MazeLattice.parse(gt.lattice(), gt.rows(), gt.cols());
        List<Cell> sol = gt.solutionPath().stream().map(s -> new Cell(s.get(0), s.get(1))).toList();
        return new MazeProblem(lattice, sol.get(0), sol.get(sol.size() - 1), sol, MazeAlgorithm.DFS, Placement.RANDOM);
    }

    static Path render(BenchmarkItem item, Fault fault, String name) throws Exception {
        Scenario sc = Scenario.of(fault, problem(item), new Random(5)).orElseThrow();
        Path out = dir.resolve("artifacts").resolve(name);
        Files.write(out, OutputRenderer.encode(OutputRenderer.image(sc, OutputStyle.CLEAN), OutputStyle.CLEAN));
        return out;
    }

    static GenerationEvent event(BenchmarkItem item, int seed, String uri, String sha256) {
        return GenerationEvent.newBuilder().setRunId("maze-run").setModel("image-model").setCheckpointId("c1")
                .setTrainingStep(10).setTask("maze").setSampleId(item.getSampleId()).setSeed(seed).setModality("image")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output").setUri(uri).setSha256(sha256)
                        .setMediaType("image/png").build()))
                .setProducedAt(Instant.now()).build();
    }

    static String sha(Path p) throws Exception {
        return Digests.sha256(Files.readAllBytes(p));
    }

    @Test
    void answersAreScoredByThePixelPipelineAndBadArtifactsAreDeadLettered() throws Exception {
        BenchmarkItem a = items.get(0);
        BenchmarkItem b = items.get(1);
        Path correct = render(a, Fault.CORRECT, "correct.png");
        Path crossing = render(b, Fault.WALL_CROSSING, "crossing.png");
        Path garbage = Files.writeString(dir.resolve("artifacts").resolve("garbage.png"), "not a png at all");
        h.publish(event(a, 0, correct.toUri().toString(), sha(correct)));
        h.publish(event(b, 0, crossing.toUri().toString(), sha(crossing)));
        h.publish(event(a, 1, garbage.toUri().toString(), sha(garbage)));
        h.publish(event(a, 2, correct.toUri().toString(), "0".repeat(64)));
        h.publish(event(a, 3, "file:///etc/passwd", null));
        h.publish(event(a, 4, dir.resolve("artifacts").resolve("../outside.png").toUri().toString(), null));

        Map<SampleKey, SampleScore> scores = await(h::scores, s -> s.size() == 6, WAIT, "six maze scores");
        SampleScore ok = scores.get(key(a, 0));
        assertThat(ok.getStatus()).isEqualTo("PARTIAL");
        assertThat(ok.getPending()).containsEntry("judge", "no judge configured");
        assertThat(ok.getPrimarySource()).isEqualTo("pixel");
        assertThat(ok.getPrimary()).isEqualTo(1.0);
        assertThat(ok.getMetrics().get("maze-pixel.layout_iou")).isGreaterThan(0.8);
        assertThat(ok.getMetrics()).containsEntry("maze-pixel.cross_wall", 0.0).containsEntry("maze-pixel.target_achievement", 1.0);
        assertThat(ok.getGates()).containsEntry("overall_pixel", 1.0);
        assertThat(ok.getMissingChecks()).as("what the judge would check, left out")
                .containsExactly("judge.maze_changed=0", "judge.cross_wall=0", "judge.target_achievement=1");

        SampleScore crossed = scores.get(key(b, 0));
        assertThat(crossed.getPrimary()).isEqualTo(0.0);
        assertThat(crossed.getFailedChecks()).contains("maze-pixel.cross_wall=0");

        for (int seed = 1; seed <= 4; seed++) {
            assertThat(scores.get(key(a, seed)).getStatus()).as("seed %d", seed).isEqualTo("FAILED");
        }
        List<DeadLetter> letters = await(h::deadLetters, l -> l.size() == 4, WAIT, "four dead letters");
        assertThat(letters).allSatisfy(l -> assertThat(l.getStage()).isEqualTo("evaluate:maze-pixel"));
        assertThat(reason(letters, 1)).contains("not a decodable image");
        assertThat(reason(letters, 2)).contains("digest mismatch");
        assertThat(reason(letters, 3)).contains("outside the configured artifact roots");
        assertThat(reason(letters, 4)).contains("artifact not found");
    }

    static SampleKey key(BenchmarkItem item, int seed) {
        return new SampleKey("maze-run", "c1", "maze", item.getSampleId(), seed);
    }

    static String reason(List<DeadLetter> letters, int seed) {
        return letters.stream().filter(l -> l.getSampleRef().endsWith("#" + seed)).findFirst().orElseThrow().getReason();
    }
}
