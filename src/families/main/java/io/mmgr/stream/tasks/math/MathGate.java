package io.mmgr.stream.tasks.math;

import static io.mmgr.stream.tasks.math.MathMetrics.FINAL_CORRECTNESS;
import static io.mmgr.stream.tasks.math.MathMetrics.INTERMEDIATE_CORRECTNESS;

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
 * Math gate (seed T4): "1 if and only if both Final Correctness=1 AND Intermediate Correctness=1,
 * 0 otherwise". Action Reflection is diagnostic and does not gate.
 */
public final class MathGate implements TaskGate {

    public static final String VLM = "vlm";
    public static final String OVERALL_VLM = "overall_vlm";

    private static final GateVariant VLM_GATE = GateVariant.of(VLM,
            Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, FINAL_CORRECTNESS)),
            Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, INTERMEDIATE_CORRECTNESS)));

    @Override
    public GateResult evaluate(GateInput input) {
        GateVariant.Outcome vlm = VLM_GATE.evaluate(input);
        Map<String, Double> gates = new LinkedHashMap<>();
        gates.put(OVERALL_VLM, vlm.value());
        return new GateResult(vlm.value(), vlm.name(), gates, vlm.failed(), vlm.missing());
    }
}
