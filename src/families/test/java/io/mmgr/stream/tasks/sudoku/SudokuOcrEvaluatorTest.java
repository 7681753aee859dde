package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.ImageEncoder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The evaluator through its stream contract: generated benchmark items, generation events, the artifact store. */
@Tag("unit")
class SudokuOcrEvaluatorTest {

    @TempDir
    static Path dir;
    static BenchmarkItem four;
    static BenchmarkItem nine;
    static SudokuPuzzle fourPuzzle;
    static LocalArtifactResolver resolver;
    static SudokuOcrEvaluator evaluator;

    @BeforeAll
    static void generate() throws Exception {
        List<BenchmarkItem> items = SudokuBenchmarkGenerator.generate(dir, 2, List.of(4, 9),
                List.of(SudokuBand.MEDIUM), 21).items();
        four = items.get(0);
        nine = items.get(1);
        fourPuzzle = SudokuOcrEvaluator.puzzle(four);
        resolver = new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"));
        evaluator = new SudokuOcrEvaluator();
    }

    @AfterAll
    static void close() {
        evaluator.close();
    }

    static GenerationEvent event(BenchmarkItem item, Path output, String mediaType, String model) {
        List<ArtifactRef> artifacts = output == null ? List.of() : List.of(ArtifactRef.newBuilder().setRole("output")
                .setUri(output.toUri().toString()).setMediaType(mediaType).build());
        return GenerationEvent.newBuilder()
                .setRunId("r").setModel(model).setCheckpointId("c").setTrainingStep(1)
                .setTask("sudoku").setSampleId(item.getSampleId())
                .setModality(mediaType.startsWith("video") ? "video" : "image")
                .setArtifacts(artifacts).setProducedAt(Instant.EPOCH).build();
    }

    static EvaluationOutcome evaluate(BenchmarkItem item, Path output, String mediaType, String model)
            throws EvaluationException {
        GenerationEvent e = event(item, output, mediaType, model);
        assertThat(evaluator.precheck(e, item)).isEmpty();
        return evaluator.evaluate(new EvaluationContext(e, item, resolver));
    }

    static Path artifact(BenchmarkItem item, String role) {
        return Path.of(java.net.URI.create(item.getArtifacts().stream()
                .filter(a -> a.getRole().equals(role)).findFirst().orElseThrow().getUri()));
    }

    @Test
    void theGeneratedItemsSolutionScoresOneAndItsProblemZero() throws Exception {
        EvaluationOutcome solved = evaluate(nine, artifact(nine, "solution"), "image/png", "m");
        assertThat(solved.metrics().keySet()).containsExactly(
                "clues_changed", "constraint_violation", "completion_accuracy", "action_reflection");
        assertThat(solved.metrics()).containsEntry("clues_changed", 0.0).containsEntry("constraint_violation", 0.0)
                .containsEntry("completion_accuracy", 1.0).containsEntry("action_reflection", null);
        assertThat(solved.diagnostics()).containsEntry("modality", "image")
                .containsEntry("grid", SudokuTruth.of(nine.getGroundTruth()).solution()).containsEntry("cells_ocr", "81");
        // each digit is printed nine times: copies of a glyph read before reuse its reading
        assertThat(Integer.parseInt(solved.diagnostics().get("ocr_calls"))).isBetween(9, 40);
        assertThat(OcrGate.primary("image", solved.metrics())).isEqualTo(1.0);

        EvaluationOutcome posed = evaluate(nine, artifact(nine, "problem"), "image/png", "m");
        assertThat(posed.metrics()).containsEntry("completion_accuracy", 0.0).containsEntry("clues_changed", 0.0)
                .containsEntry("constraint_violation", 0.0);
        assertThat(posed.diagnostics().get("grid")).isEqualTo(SudokuTruth.of(nine.getGroundTruth()).givens());
    }

    @Test
    void aFaultyJpegAnswerGetsItsConstructedMetrics() throws Exception {
        Scenario sc = Scenario.of(fourPuzzle, Fault.ONE_WRONG, new Random(3));
        OutputLook look = OutputLook.all().get(1);
        Path out = dir.resolve("one-wrong.jpg");
        Files.write(out, look.encode(look.render(4, sc.digits(), sc.clue(), null)));

        EvaluationOutcome o = evaluate(four, out, "image/jpeg", "m");

        assertThat(o.metrics().get("constraint_violation")).isCloseTo(sc.constraintViolation(), within(1e-12));
        assertThat(o.metrics().get("completion_accuracy")).isCloseTo(sc.completionAccuracy(), within(1e-12));
        assertThat(OcrGate.primary("image", o.metrics())).isEqualTo(0.0);
    }

    @Test
    void videosAreSampledToTheModelsFrameBudget() throws Exception {
        Path video = dir.resolve("static-130.mp4");
        SudokuStyle style = SudokuStyle.standard(256);
        RgbImage solved = SudokuRenderer.solution(fourPuzzle, style);
        try (VideoEncoder enc = VideoEncoder.open(video, 256, 256, 24, VideoEncoder.Container.MP4)) {
            for (int i = 0; i < 130; i++) {
                enc.write(solved);
            }
        }
        EvaluationOutcome wan = evaluate(four, video, "video/mp4", "wan-2.2-i2v");
        assertThat(wan.diagnostics()).containsEntry("frame_budget", "120").containsEntry("frames_analyzed", "120")
                .containsEntry("modality", "video");
        // the solved grid from the first frame on: every blank changed at once, so no gradual filling
        assertThat(wan.metrics()).containsEntry("action_reflection", 0.0).containsEntry("completion_accuracy", 1.0)
                .containsEntry("clues_changed", 0.0);
        // one reading per cell: unchanged frames reuse it
        assertThat(wan.diagnostics()).containsEntry("cells_ocr", "16");

        EvaluationOutcome veo = evaluate(four, video, "video/mp4", "veo-3");
        assertThat(veo.diagnostics()).containsEntry("frame_budget", "192").containsEntry("frames_analyzed", "130");
    }

    @Test
    void badOutputsGetAReasonAUserUnderstands() throws Exception {
        Path corrupt = dir.resolve("corrupt.png");
        byte[] png = Files.readAllBytes(artifact(four, "solution"));
        Files.write(corrupt, Arrays.copyOf(png, png.length / 3));
        assertReason(four, corrupt, "image/png", "sudoku output image: image is truncated or corrupt");

        Path blank = dir.resolve("blank.png");
        Files.write(blank, ImageEncoder.png(RgbImage.filled(300, 300, 0xFFFFFF)));
        assertReason(four, blank, "image/png", "sudoku output image: no grid found");

        assertReason(four, artifact(nine, "solution"), "image/png", "sudoku output image: the grid has 9 columns, expected 4");

        Path notVideo = dir.resolve("noise.mp4");
        Files.write(notVideo, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        assertReason(four, notVideo, "video/mp4", "sudoku output video: not a decodable video");

        Path blankVideo = dir.resolve("blank.mp4");
        try (VideoEncoder enc = VideoEncoder.open(blankVideo, 128, 128, 24, VideoEncoder.Container.MP4)) {
            for (int i = 0; i < 5; i++) {
                enc.write(RgbImage.filled(128, 128, 0xFFFFFF));
            }
        }
        assertReason(four, blankVideo, "video/mp4", "sudoku output video: in no frame of the video: no grid found");
    }

    private static void assertReason(BenchmarkItem item, Path output, String type, String prefix) {
        assertThatThrownBy(() -> evaluate(item, output, type, "m")).isInstanceOf(EvaluationException.class)
                .hasMessageStartingWith(prefix);
    }

    @Test
    void precheckRefusesWhatCannotBeScored() throws Exception {
        GenerationEvent ok = event(four, artifact(four, "solution"), "image/png", "m");
        assertThat(evaluator.precheck(ok, four)).isEmpty();
        assertThat(evaluator.precheck(event(four, null, "image/png", "m"), four))
                .hasValue("sudoku generation has no artifact with role 'output'");
        GenerationEvent text = GenerationEvent.newBuilder(event(four, artifact(four, "solution"), "text/plain", "m"))
                .setModality("text").build();
        assertThat(evaluator.precheck(text, four))
                .hasValueSatisfying(r -> assertThat(r).contains("must be an image or a video"));
        BenchmarkItem noTruth = BenchmarkItem.newBuilder(four).setGroundTruth(GroundTruth.newBuilder().build()).build();
        assertThat(evaluator.precheck(ok, noTruth)).hasValueSatisfying(r -> assertThat(r).contains("no sudoku ground truth"));
        SudokuTruth truth = SudokuTruth.of(four.getGroundTruth());
        BenchmarkItem wrongAnswer = BenchmarkItem.newBuilder(four).setGroundTruth(new SudokuTruth(truth.size(), truth.givens(),
                "1111222233334444").into(GroundTruth.newBuilder(four.getGroundTruth())).build()).build();
        assertThat(evaluator.precheck(ok, wrongAnswer)).hasValueSatisfying(r -> assertThat(r).startsWith("benchmark item " + four.getSampleId()));
    }

    @Test
    void theGridSizeFollowsFromTheGivensWhenTheItemOmitsIt() throws Exception {
        // only items of before can omit it (the payload requires a size): the shared fields
        SudokuTruth truth = SudokuTruth.of(nine.getGroundTruth());
        BenchmarkItem noSize = BenchmarkItem.newBuilder(nine).setGroundTruth(GroundTruth.newBuilder()
                .setGivens(truth.givens()).setAnswer(truth.solution()).build()).build();
        assertThat(SudokuOcrEvaluator.puzzle(noSize).size()).isEqualTo(9);
    }

    @Test
    void theStreamFindsTheEvaluatorAndEachInstanceOwnsItsEngine() throws Exception {
        EvaluatorRegistry registry = EvaluatorRegistry.load();
        assertThat(registry.contains(SudokuOcrEvaluator.ID)).isTrue();
        DeterministicEvaluator a = registry.newInstance(SudokuOcrEvaluator.ID).orElseThrow();
        DeterministicEvaluator b = registry.newInstance(SudokuOcrEvaluator.ID).orElseThrow();
        assertThat(a).isInstanceOf(SudokuOcrEvaluator.class).isNotSameAs(b);
        assertThat(TaskCatalog.load().find("sudoku").orElseThrow().evaluators()).contains(SudokuOcrEvaluator.ID);

        SudokuOcrEvaluator own = (SudokuOcrEvaluator) a;
        GenerationEvent e = event(four, artifact(four, "solution"), "image/png", "m");
        assertThat(own.evaluate(new EvaluationContext(e, four, resolver)).metrics()).containsEntry("completion_accuracy", 1.0);
        own.close();
        // a closed evaluator starts a fresh engine if it is used again
        assertThat(own.evaluate(new EvaluationContext(e, four, resolver)).metrics()).containsEntry("completion_accuracy", 1.0);
        own.close();
        ((AutoCloseable) b).close(); // never used: nothing to release
    }
}
