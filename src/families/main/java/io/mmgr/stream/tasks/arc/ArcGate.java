package io.mmgr.stream.tasks.arc;

import static io.mmgr.stream.tasks.arc.ArcMetrics.GRID_EVALUATOR;
import static io.mmgr.stream.tasks.arc.ArcMetrics.VALID_SOLUTION;

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
 * ARC gate (seed T3): the primary is Valid Solution, "1 only if the generated output exactly matches
 * the ground-truth solution", "defined independently". Pattern Recognition, Grid Integrity and Color
 * Accuracy form a reported cascade, not a stated gate, so they are deliberately not ANDed in.
 *
 * <p>The grid evaluator's verdict is preferred when it has arrived: exact match is decidable from the
 * decoded grid, and a cell-by-cell comparison is a stricter reading of "exactly matches" than a
 * judge's opinion. The judge's Valid Solution stands in when no decoded grid is available.
 */
public final class ArcGate implements TaskGate {

    public static final String GRID = "grid";
    public static final String VLM = "vlm";
    public static final String OVERALL_GRID = "overall_grid";
    public static final String OVERALL_VLM = "overall_vlm";

    private static final GateVariant GRID_GATE =
            GateVariant.of(GRID, Check.isOne(MetricKey.of(GRID_EVALUATOR, VALID_SOLUTION)));
    private static final GateVariant VLM_GATE =
            GateVariant.of(VLM, Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, VALID_SOLUTION)));

    @Override
    public GateResult evaluate(GateInput input) {
        GateVariant.Outcome grid = GRID_GATE.evaluate(input);
        GateVariant.Outcome vlm = VLM_GATE.evaluate(input);
        Map<String, Double> gates = new LinkedHashMap<>();
        gates.put(OVERALL_GRID, grid.value());
        gates.put(OVERALL_VLM, vlm.value());
        GateVariant.Outcome primary = input.has(GRID_EVALUATOR) ? grid : vlm;
        return GateResult.of(input, primary, gates, GRID_GATE, VLM_GATE);
    }
}
