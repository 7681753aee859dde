package io.mmgr.stream.tasks.example;

import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.tasks.Check;
import io.mmgr.stream.tasks.GateInput;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.GateVariant;
import io.mmgr.stream.tasks.TaskGate;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code exact}: the count is right. {@code vlm}: the count is right and the judge finds the answer names
 * what it counted. The judge's variant is primary once its verdict arrived, as in MMGR's families.
 */
public final class ExampleGate implements TaskGate {

    static final GateVariant EXACT = GateVariant.of("exact",
            Check.isOne(MetricKey.of(ExampleMetrics.EVALUATOR, ExampleMetrics.COUNT_CORRECT)));

    static final GateVariant VLM = GateVariant.of("vlm",
            Check.isOne(MetricKey.of(ExampleMetrics.EVALUATOR, ExampleMetrics.COUNT_CORRECT)),
            Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, ExampleMetrics.NAMES_WHAT)));

    @Override
    public GateResult evaluate(GateInput input) {
        GateVariant.Outcome exact = EXACT.evaluate(input);
        GateVariant.Outcome vlm = VLM.evaluate(input);
        Map<String, Double> gates = new LinkedHashMap<>();
        gates.put("overall_exact", exact.value());
        gates.put("overall_vlm", vlm.value());
        return GateResult.of(input, input.has(TaskSpec.JUDGE_PART) ? vlm : exact, gates, VLM, EXACT);
    }
}
