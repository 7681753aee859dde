package io.mmgr.stream.tasks.arc;

import static org.assertj.core.api.Assertions.assertThat;

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
 * ARC's ground truth as the family's own payload: the generator writes it, the evaluator reads it, and an item
 * of before (GroundTruth v2's shared fields) scores exactly as its payload twin (the rubric: JudgeRubricsTest).
 */
@Tag("unit")
class ArcTruthTest {

    @TempDir
    static Path dir;

    @Test
    void aPayloadCarriesEveryFieldAndSurvivesJson() throws Exception {
        ArcTruth truth = new ArcTruth(List.of(List.of(1, 2), List.of(3, 0)), List.of(4, 5, 60, 70));
        GroundTruth gt = truth.into(GroundTruth.newBuilder()).build();
        assertThat(gt.getFamily()).isEqualTo("arc");
        assertThat(gt.getGrid()).isNull();
        assertThat(ArcTruth.of(gt)).isEqualTo(truth);
        assertThat(ArcTruth.of(JsonAvro.read(JsonAvro.toJson(gt).toString(), GroundTruth.class))).isEqualTo(truth);
        ArcTruth whole = new ArcTruth(List.of(List.of(7)), null);
        assertThat(ArcTruth.of(whole.into(GroundTruth.newBuilder()).build())).isEqualTo(whole);
    }

    @Test
    void anItemOfBeforeScoresExactlyAsItsPayloadTwin() throws Exception {
        BenchmarkItem item = ArcBenchmarkGenerator.generate(ArcFixtures.root(), "all", dir, 1, 11).items().get(0);
        assertThat(item.getGroundTruth().getFamily()).isEqualTo("arc");
        ArcTruth truth = ArcTruth.of(item.getGroundTruth());
        GroundTruth shared = GroundTruth.newBuilder(item.getGroundTruth()).setFamily(null).setPayload(null)
                .setGrid(truth.grid()).setAnswerRegion(truth.answerRegion()).build();
        BenchmarkItem before = BenchmarkItem.newBuilder(item).setGroundTruth(ReleasedGroundTruth.writtenWith(2, shared)).build();
        assertThat(ArcTruth.of(before.getGroundTruth())).isEqualTo(truth);
        for (String role : List.of("solution", "answer", "problem")) {
            Path output = ArcGridEvaluatorTest.artifact(item, role);
            EvaluationOutcome now = evaluate(item, output);
            EvaluationOutcome then = evaluate(before, output);
            assertThat(then.metrics()).as(role).isEqualTo(now.metrics());
            assertThat(then.diagnostics()).as(role).isEqualTo(now.diagnostics());
            // the known verdicts: the solution and the answer alone are right, the posed puzzle is not
            assertThat(now.metrics().get(ArcMetrics.VALID_SOLUTION)).as(role).isEqualTo(role.equals("problem") ? 0.0 : 1.0);
        }
    }

    private static EvaluationOutcome evaluate(BenchmarkItem item, Path output) throws Exception {
        GenerationEvent e = ArcGridEvaluatorTest.event(item, output, "image/png");
        ArcGridEvaluator evaluator = new ArcGridEvaluator();
        assertThat(evaluator.precheck(e, item)).isEmpty();
        return evaluator.evaluate(new EvaluationContext(e, item, new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"))));
    }
}
