package io.mmgr.stream.tasks.magma;

import static io.mmgr.stream.tasks.magma.MagmaFixtures.context;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.event;
import static io.mmgr.stream.tasks.magma.MagmaFixtures.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The {@code visualwebbench} evaluator on Avro records: where it reads the prediction and golds, what it refuses. */
@Tag("unit")
class VisualWebBenchEvaluatorTest {

    static final double PERFECT = 2.0 / (2.0 + 1e-8);

    private final VisualWebBenchEvaluator evaluator = new VisualWebBenchEvaluator();

    static GenerationEvent text(String task, String prediction) {
        return event("visualwebbench-" + task, "text", GenerationInputs.newBuilder().setText(prediction).build());
    }

    static BenchmarkItem gold(String task, GroundTruth gt) {
        return item("visualwebbench-" + task, gt);
    }

    @Test
    void isInstalled() {
        assertThat(EvaluatorRegistry.load().contains(VisualWebBenchEvaluator.ID)).isTrue();
    }

    @Test
    void scoresTheRawTextOnTheOfficialScale() throws Exception {
        EvaluationOutcome caption = evaluator.evaluate(context(text("web_caption", "the cat sat"),
                gold("web_caption", GroundTruth.newBuilder().setAnswer("the cat sat on the mat").build())));
        assertThat(caption.metrics()).containsEntry("rouge_1", 74.99999953125).containsEntry("rouge_l", 74.99999953125);

        EvaluationOutcome qa = evaluator.evaluate(context(text("webqa", "blue car"),
                gold("webqa", GroundTruth.newBuilder().setAnswers(List.of("red car", "blue car")).build())));
        assertThat(qa.metrics()).containsEntry("f1", PERFECT * 100);

        // raw text: a meta tag around the answer is not unwrapped (its tokens simply do not match)
        EvaluationOutcome wrapped = evaluator.evaluate(context(text("heading_ocr", "<meta content=\"Home\">"),
                gold("heading_ocr", GroundTruth.newBuilder().setAnswer("Home").build())));
        assertThat(wrapped.metrics()).containsEntry("rouge_1", 0.0);

        EvaluationOutcome choice = evaluator.evaluate(context(text("action_prediction", "(A) or (D)"),
                gold("action_prediction", GroundTruth.newBuilder().setChoiceIndex(3).build())));
        assertThat(choice.metrics()).containsEntry("accuracy", 100.0);
        assertThat(choice.diagnostics()).containsEntry("parsed", "D");
    }

    @Test
    void aDroppedWebqaSampleHasANullF1AndSaysWhy() throws Exception {
        EvaluationOutcome out = evaluator.evaluate(context(text("webqa", "blue"),
                gold("webqa", GroundTruth.newBuilder().setAnswers(List.of()).build())));
        assertThat(out.metrics()).containsEntry("f1", null);
        assertThat(out.diagnostics().get("dropped")).contains("no gold answers");
    }

    @Test
    void aPredictionThatFailsTheOfficialTaskFailsTheSample() {
        assertThatThrownBy(() -> evaluator.evaluate(context(text("web_caption", "..."),
                gold("web_caption", GroundTruth.newBuilder().setAnswer("Home page").build()))))
                .isInstanceOf(EvaluationException.class).hasMessageContaining("Hypothesis is empty.");
    }

    @Test
    void precheckRefusesWhatCannotBeScored() {
        BenchmarkItem caption = gold("web_caption", GroundTruth.newBuilder().setAnswer("Home").build());
        assertThat(evaluator.precheck(text("web_caption", ""), caption)).isEmpty();
        assertThat(evaluator.precheck(event("visualwebbench-web_caption", "text", GenerationInputs.newBuilder().build()), caption))
                .hasValueSatisfying(r -> assertThat(r).contains("inputs.text is missing"));
        assertThat(evaluator.precheck(text("web_caption", "x"), gold("web_caption", GroundTruth.newBuilder().setAnswer(" . ").build())))
                .isEmpty();
        assertThat(evaluator.precheck(text("web_caption", "x"), gold("web_caption", GroundTruth.newBuilder().setAnswer("..").build())))
                .hasValueSatisfying(r -> assertThat(r).contains("Reference is empty."));
        assertThat(evaluator.precheck(text("webqa", "x"), gold("webqa", GroundTruth.newBuilder().setAnswer("x").build())))
                .hasValueSatisfying(r -> assertThat(r).contains("groundTruth.answers"));
        assertThat(evaluator.precheck(text("element_ground", "A"), gold("element_ground", GroundTruth.newBuilder().setChoiceIndex(8).build())))
                .hasValueSatisfying(r -> assertThat(r).contains("0-7"));
        assertThat(evaluator.precheck(event("visualwebbench-tables", "text", GenerationInputs.newBuilder().setText("x").build()), caption))
                .hasValueSatisfying(r -> assertThat(r).contains("not a VisualWebBench task"));
    }
}
