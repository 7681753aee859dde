package io.mmgr.stream.tasks.math;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.RubricInputs;
import io.mmgr.stream.tasks.RubricMetric;
import io.mmgr.stream.tasks.TemplateRubric;
import java.util.List;
import java.util.Set;

/**
 * MMGR T4 Math (seed): the judge "analyzes intermediate reasoning steps, final answers, reflective
 * behaviour". Text answers (the seed's text-solution baselines) get their own prompt.
 */
public final class MathRubric extends TemplateRubric {

    public static final List<RubricMetric> METRICS = List.of(
            RubricMetric.binary(MathMetrics.FINAL_CORRECTNESS, 1.0,
                    "1 if the final solution matches the ground-truth answer."),
            RubricMetric.binary(MathMetrics.INTERMEDIATE_CORRECTNESS, 1.0,
                    "1 if all reasoning steps are logically valid and mathematically sound."),
            RubricMetric.binary(MathMetrics.ACTION_REFLECTION, null,
                    "1 if the video shows self-correction (steps revised or approaches reconsidered); 0 otherwise.")
                    .forVideoOnly());

    public MathRubric() {
        super(MathMetrics.RUBRIC, "v1", METRICS, Set.of("image", "video", "text"));
    }

    @Override
    protected RubricInputs inputs(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        String answer = MathTruth.of(item.getGroundTruth()).answer();
        if (answer == null || answer.isBlank()) {
            throw new EvaluationException("math item " + item.getSampleId() + " has no ground-truth answer (MathTruth.answer, or groundTruth.answer)");
        }
        RubricInputs in = new RubricInputs()
                .text("problem", orNone(item.getPrompt()))
                .text("answer", answer.strip());
        artifact(item, "problem").ifPresent(p -> in.media("problem", "problem", p));
        if ("text".equals(event.getModality())) {
            String text = event.getInputs() == null ? null : event.getInputs().getText();
            if (text == null || text.isBlank()) {
                throw new EvaluationException("math text generation has no answer text (inputs.text)");
            }
            in.text("solution", text.strip());
        } else {
            in.generation("generation", output(event));
        }
        return in;
    }
}
