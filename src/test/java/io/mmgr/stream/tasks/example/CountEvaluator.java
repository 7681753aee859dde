package io.mmgr.stream.tasks.example;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the first whole number of the text answer ({@code inputs.text}) and compares it with the item's count. */
public final class CountEvaluator implements DeterministicEvaluator {

    private static final Pattern NUMBER = Pattern.compile("-?\\d+");

    @Override
    public String id() {
        return ExampleMetrics.EVALUATOR;
    }

    @Override
    public String version() {
        return "1";
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        if (answer(event) == null) {
            return Optional.of("example answer has no text (inputs.text)");
        }
        return DeterministicEvaluator.problemOf(() -> CountTruth.of(item.getGroundTruth()));
    }

    @Override
    public CostClass costClass(GenerationEvent event, BenchmarkItem item) {
        return CostClass.LIGHT; // reads no artifact
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        CountTruth truth = CountTruth.of(context.item().getGroundTruth());
        String text = answer(context.event());
        if (text == null) {
            throw new EvaluationException("example answer has no text (inputs.text)");
        }
        Matcher m = NUMBER.matcher(text);
        boolean found = m.find();
        Map<String, Double> metrics = new LinkedHashMap<>();
        if (found) {
            long answered = Long.parseLong(m.group());
            metrics.put(ExampleMetrics.COUNT_CORRECT, answered == truth.count() ? 1.0 : 0.0);
            metrics.put(ExampleMetrics.ABS_ERROR, (double) Math.abs(answered - truth.count()));
        } else {
            metrics.put(ExampleMetrics.COUNT_CORRECT, 0.0);
            metrics.put(ExampleMetrics.ABS_ERROR, null);
        }
        return new EvaluationOutcome(metrics, Map.of("answered", found ? m.group() : "no number"));
    }

    private static String answer(GenerationEvent event) {
        String text = event.getInputs() == null ? null : event.getInputs().getText();
        return text == null || text.isBlank() ? null : text;
    }
}
