package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.ImageEncoder;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The arc-grid part through its stream contract, on items made by the generator from real tasks. */
@Tag("unit")
class ArcGridEvaluatorTest {

    @TempDir
    static Path dir;
    static List<BenchmarkItem> items;
    static LocalArtifactResolver resolver;

    @BeforeAll
    static void generate() throws Exception {
        items = ArcBenchmarkGenerator.generate(ArcFixtures.root(), "all", dir, 3, 11).items();
        resolver = new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"));
    }

    static GenerationEvent event(BenchmarkItem item, Path output, String mediaType) {
        return GenerationEvent.newBuilder()
                .setRunId("r").setModel("m").setCheckpointId("c").setTrainingStep(1)
                .setTask("arc").setSampleId(item.getSampleId())
                .setModality(mediaType.startsWith("video") ? "video" : "image")
                .setArtifacts(output == null ? List.of() : List.of(ArtifactRef.newBuilder().setRole("output")
                        .setUri(output.toUri().toString()).setMediaType(mediaType).build()))
                .setProducedAt(Instant.EPOCH).build();
    }

    static EvaluationOutcome evaluate(BenchmarkItem item, Path output, String mediaType) throws Exception {
        ArcGridEvaluator evaluator = new ArcGridEvaluator();
        GenerationEvent e = event(item, output, mediaType);
        assertThat(evaluator.precheck(e, item)).isEmpty();
        return evaluator.evaluate(new EvaluationContext(e, item, resolver));
    }

    static Path artifact(BenchmarkItem item, String role) {
        return Path.of(java.net.URI.create(item.getArtifacts().stream().filter(a -> a.getRole().equals(role))
                .findFirst().orElseThrow().getUri()));
    }

    @Test
    void isRegisteredUnderItsId() {
        assertThat(EvaluatorRegistry.load().newInstance("arc-grid")).get().isInstanceOf(ArcGridEvaluator.class);
    }

    @Test
    void scoresTheWholeCanvasTheAnswerAloneAndTheEmptyPuzzle() throws Exception {
        BenchmarkItem item = items.get(0);
        // the model redrew the whole puzzle, at another resolution and as JPEG
        RgbImage canvas = ImageDecoder.decode(Files.readAllBytes(artifact(item, "solution")), ImageDecoder.Limits.DEFAULT);
        Path redrawn = dir.resolve("redrawn.jpg");
        Files.write(redrawn, ImageEncoder.jpeg(Distort.scale(canvas, 1.5, 1.5), 90));
        EvaluationOutcome whole = evaluate(item, redrawn, "image/jpeg");
        assertThat(whole.metrics()).containsExactly(Map.entry("grid_integrity", 1.0), Map.entry("cell_accuracy", 1.0),
                Map.entry("valid_solution", 1.0));
        assertThat(whole.diagnostics().get("decoded_grid")).isEqualTo(ArcGrid.of(ArcTruth.of(item.getGroundTruth()).grid()).toString());
        assertThat(whole.diagnostics().get("region")).isNotEqualTo("whole output");

        EvaluationOutcome alone = evaluate(item, artifact(item, "answer"), "image/png");
        assertThat(alone.metrics().get("valid_solution")).isEqualTo(1.0);
        assertThat(alone.diagnostics().get("region")).isEqualTo("whole output");

        EvaluationOutcome empty = evaluate(item, artifact(item, "problem"), "image/png");
        assertThat(empty.metrics().get("grid_integrity")).isZero();
        assertThat(empty.metrics().get("cell_accuracy")).isNull();
        assertThat(empty.metrics().get("valid_solution")).isZero();
        assertThat(empty.diagnostics().get("decode_failure")).contains("background");
    }

    @Test
    void readsTheLastFrameOfAVideo() throws Exception {
        BenchmarkItem item = items.get(1);
        RgbImage problem = ImageDecoder.decode(Files.readAllBytes(artifact(item, "problem")), ImageDecoder.Limits.DEFAULT);
        RgbImage solution = ImageDecoder.decode(Files.readAllBytes(artifact(item, "solution")), ImageDecoder.Limits.DEFAULT);
        Path video = dir.resolve("answer.mp4");
        try (VideoEncoder enc = VideoEncoder.open(video, problem.width(), problem.height(), 8, VideoEncoder.Container.MP4)) {
            for (int i = 0; i < 6; i++) {
                enc.write(problem);
            }
            for (int i = 0; i < 4; i++) {
                enc.write(solution);
            }
        }
        EvaluationOutcome out = evaluate(item, video, "video/mp4");
        assertThat(out.metrics().get("valid_solution")).isEqualTo(1.0);
        assertThat(out.diagnostics().get("modality")).contains("last frame");
    }

    @Test
    void precheckNamesWhatIsMissing() throws Exception {
        ArcGridEvaluator evaluator = new ArcGridEvaluator();
        BenchmarkItem item = items.get(0);
        assertThat(evaluator.precheck(event(item, null, "image/png"), item)).get().asString().contains("'output'");
        assertThat(evaluator.precheck(event(item, dir.resolve("a.txt"), "text/plain"), item)).get().asString()
                .contains("text/plain");
        BenchmarkItem noGrid = BenchmarkItem.newBuilder(item).setGroundTruth(GroundTruth.newBuilder().build()).build();
        assertThat(evaluator.precheck(event(item, dir.resolve("a.png"), "image/png"), noGrid)).get().asString()
                .contains("groundTruth.grid");
        BenchmarkItem badRegion = BenchmarkItem.newBuilder(item).setGroundTruth(new ArcTruth(ArcTruth.of(item.getGroundTruth()).grid(),
                List.of(1, 2, 3)).into(GroundTruth.newBuilder(item.getGroundTruth())).build()).build();
        assertThat(evaluator.precheck(event(item, dir.resolve("a.png"), "image/png"), badRegion)).get().asString()
                .contains("answerRegion");
        BenchmarkItem badGrid = BenchmarkItem.newBuilder(item).setGroundTruth(GroundTruth.newBuilder()
                .setGrid(List.of(List.of(1, 2), List.of(3))).build()).build();
        assertThat(evaluator.precheck(event(item, dir.resolve("a.png"), "image/png"), badGrid)).get().asString()
                .contains("row 1");
    }

    @Test
    void generatorWritesOneItemPerTestPairWithItsDifficulty() throws Exception {
        List<BenchmarkItem> again = ArcBenchmarkGenerator.generate(ArcFixtures.root(), "all", dir.resolve("again"), 3, 11).items();
        assertThat(again.stream().map(BenchmarkItem::getSampleId).toList())
                .isEqualTo(items.stream().map(BenchmarkItem::getSampleId).toList());
        for (BenchmarkItem item : items) {
            Map<String, String> extra = item.getGroundTruth().getExtra();
            ArcTask task = ArcTask.read(artifact(item, "reference"));
            ArcTask.Pair pair = task.test(Integer.parseInt(extra.get("testIndex")));
            ArcTruth truth = ArcTruth.of(item.getGroundTruth());
            assertThat(ArcGrid.of(truth.grid())).isEqualTo(pair.output());
            assertThat(item.getDifficulty()).isEqualTo(ArcDifficulty.of(pair).band());
            List<Integer> r = truth.answerRegion();
            assertThat(r.get(0) + r.get(2)).isLessThanOrEqualTo(Integer.parseInt(extra.get("canvasWidth")));
            assertThat(r.get(1) + r.get(3)).isLessThanOrEqualTo(Integer.parseInt(extra.get("canvasHeight")));
        }
    }
}
