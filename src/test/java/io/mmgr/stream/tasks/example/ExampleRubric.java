package io.mmgr.stream.tasks.example;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.RubricInputs;
import io.mmgr.stream.tasks.RubricMetric;
import io.mmgr.stream.tasks.TemplateRubric;
import java.util.List;
import java.util.Set;

/** The judged half: does the answer say what it counted? Template: rubric-example-count-text-v1.txt in this folder. */
public final class ExampleRubric extends TemplateRubric {

    static final List<RubricMetric> METRICS = List.of(
            RubricMetric.binary(ExampleMetrics.NAMES_WHAT, 1.0, "1 if the answer names what it counted, not only a number."));

    public ExampleRubric() {
        super(ExampleMetrics.RUBRIC, "v1", METRICS, Set.of("text"));
    }

    @Override
    protected RubricInputs inputs(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        CountTruth truth = CountTruth.of(item.getGroundTruth());
        String text = event.getInputs() == null ? null : event.getInputs().getText();
        if (text == null || text.isBlank()) {
            throw new EvaluationException("example answer has no text (inputs.text)");
        }
        return new RubricInputs().text("what", truth.what()).text("answer", text.strip());
    }
}
