package io.mmgr.stream.tasks.sudoku;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.ReleasedGroundTruth;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sudoku's ground truth as the family's own payload: the generator writes it, the evaluator and the rubric
 * read it, and an item of before (GroundTruth v2's shared fields) scores exactly as its payload twin.
 */
@Tag("unit")
class SudokuTruthTest {

    @TempDir
    Path dir;

    @Test
    void aPayloadCarriesEveryFieldAndSurvivesJson() throws Exception {
        SudokuTruth truth = new SudokuTruth(4, "1..4.4...1.....1", "1234341221434321");
        GroundTruth gt = truth.into(GroundTruth.newBuilder()).build();
        assertThat(gt.getFamily()).isEqualTo("sudoku");
        assertThat(gt.getAnswer()).isNull();
        assertThat(SudokuTruth.of(gt)).isEqualTo(truth);
        assertThat(SudokuTruth.of(JsonAvro.read(JsonAvro.toJson(gt).toString(), GroundTruth.class))).isEqualTo(truth);
        assertThatThrownBy(() -> new SudokuTruth(null, "1..4", "1234").into(GroundTruth.newBuilder()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("size");
    }

    @Test
    void anItemOfBeforeScoresExactlyAsItsPayloadTwin() throws Exception {
        BenchmarkItem item = SudokuBenchmarkGenerator.generate(dir, 1, List.of(4), List.of(SudokuBand.MEDIUM), 5).items().get(0);
        assertThat(item.getGroundTruth().getFamily()).isEqualTo("sudoku");
        SudokuTruth truth = SudokuTruth.of(item.getGroundTruth());
        GroundTruth shared = GroundTruth.newBuilder(item.getGroundTruth()).setFamily(null).setPayload(null)
                .setGridSize(truth.size()).setGivens(truth.givens()).setAnswer(truth.solution()).build();
        BenchmarkItem before = BenchmarkItem.newBuilder(item).setGroundTruth(ReleasedGroundTruth.writtenWith(2, shared)).build();
        assertThat(SudokuTruth.of(before.getGroundTruth())).isEqualTo(truth);

        LocalArtifactResolver resolver = new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"));
        try (SudokuOcrEvaluator evaluator = new SudokuOcrEvaluator()) {
            for (String role : List.of("solution", "problem")) {
                GenerationEvent event = SudokuOcrEvaluatorTest.event(item, SudokuOcrEvaluatorTest.artifact(item, role), "image/png", "m");
                assertThat(evaluator.precheck(event, before)).isEmpty();
                EvaluationOutcome now = evaluator.evaluate(new EvaluationContext(event, item, resolver));
                EvaluationOutcome then = evaluator.evaluate(new EvaluationContext(event, before, resolver));
                assertThat(then.metrics()).as(role).isEqualTo(now.metrics());
                assertThat(then.diagnostics()).as(role).isEqualTo(now.diagnostics());
                // the known verdicts: the solution is complete, the posed puzzle has no cell filled
                assertThat(now.metrics().get(SudokuMetrics.COMPLETION_ACCURACY)).as(role).isEqualTo(role.equals("solution") ? 1.0 : 0.0);
            }
        }
        GenerationEvent event = SudokuOcrEvaluatorTest.event(item, SudokuOcrEvaluatorTest.artifact(item, "solution"), "image/png", "m");
        assertThat(new SudokuRubric().prompt(event, before)).isEqualTo(new SudokuRubric().prompt(event, item));
    }
}
