package io.mmgr.stream.tasks.physics;

import static io.mmgr.stream.tasks.physics.PhysicsMetrics.MOTION_QUALITY;
import static io.mmgr.stream.tasks.physics.PhysicsMetrics.PHYSICS_ACCURACY;
import static io.mmgr.stream.tasks.physics.PhysicsMetrics.PROMPT_ADHERENCE;
import static io.mmgr.stream.tasks.physics.PhysicsMetrics.VISUAL_REALISM;

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
 * Physical Commonsense gate (seed T9/T10): "successful (1) if and only if it satisfies all four
 * fine-grained metrics simultaneously" - Physics Accuracy, Motion Quality, Visual Realism, Prompt Adherence.
 */
public final class PhysicsGate implements TaskGate {

    public static final String VLM = "vlm";
    public static final String OVERALL_VLM = "overall_vlm";

    private static final GateVariant VLM_GATE = GateVariant.of(VLM,
            Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, PHYSICS_ACCURACY)),
            Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, MOTION_QUALITY)),
            Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, VISUAL_REALISM)),
            Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, PROMPT_ADHERENCE)));

    @Override
    public GateResult evaluate(GateInput input) {
        GateVariant.Outcome vlm = VLM_GATE.evaluate(input);
        Map<String, Double> gates = new LinkedHashMap<>();
        gates.put(OVERALL_VLM, vlm.value());
        return new GateResult(vlm.value(), vlm.name(), gates, vlm.failed(), vlm.missing());
    }
}
