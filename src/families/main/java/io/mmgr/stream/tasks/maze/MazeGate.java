package io.mmgr.stream.tasks.maze;

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
 * MMGR T1 Maze gates.
 * <ul>
 *   <li>{@code vlm} (verbatim): "Set to 1 if MC = 0, CW = 0, and TA = 1; 0 otherwise." Action
 *       Reflection does not gate. The Table 4 Maze row comes from this variant, so it is primary
 *       whenever the judge's verdict has arrived.</li>
 *   <li>{@code pixel} (C.5.3): the layout is correct (maze match IoU &gt; 0.8 and, as the seed's Layout
 *       Matching has it, the start and target marker centroids within the marker tolerance), no wall
 *       crossing, target achievement &gt; 0.95, no excessive reflection. The evaluator already applies the
 *       modality's crossing threshold (video: ratio &gt; 5 %), takes the per-frame minimum IoU for videos,
 *       checks a video's target in every frame that shows it and its start in the first frame.</li>
 * </ul>
 */
public final class MazeGate implements TaskGate {

    public static final String PIXEL_PART = MazePixelEvaluator.ID;

    public static final GateVariant VLM = GateVariant.of("vlm",
            Check.isZero(MetricKey.of(TaskSpec.JUDGE_PART, MazeMetrics.MAZE_CHANGED)),
            Check.isZero(MetricKey.of(TaskSpec.JUDGE_PART, MazeMetrics.CROSS_WALL)),
            Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, MazeMetrics.TARGET_ACHIEVEMENT)));

    public static final GateVariant PIXEL = GateVariant.of("pixel",
            Check.above(MetricKey.of(PIXEL_PART, MazeMetrics.LAYOUT_IOU), MazeThresholds.LAYOUT_IOU_MIN),
            Check.isZero(MetricKey.of(PIXEL_PART, MazeMetrics.START_MOVED)),
            Check.isZero(MetricKey.of(PIXEL_PART, MazeMetrics.TARGET_MOVED)),
            Check.isZero(MetricKey.of(PIXEL_PART, MazeMetrics.CROSS_WALL)),
            Check.above(MetricKey.of(PIXEL_PART, MazeMetrics.TARGET_ACHIEVEMENT), MazeThresholds.TARGET_ACHIEVEMENT_MIN),
            Check.isZero(MetricKey.of(PIXEL_PART, MazeMetrics.EXCESSIVE_REFLECTION)));

    @Override
    public GateResult evaluate(GateInput input) {
        GateVariant.Outcome vlm = VLM.evaluate(input);
        GateVariant.Outcome pixel = PIXEL.evaluate(input);
        GateVariant.Outcome primary;
        if (input.has(TaskSpec.JUDGE_PART)) {
            primary = vlm;
        } else if (input.has(PIXEL_PART)) {
            primary = pixel;
        } else {
            primary = vlm;
        }
        Map<String, Double> gates = new LinkedHashMap<>();
        gates.put("overall_vlm", vlm.value());
        gates.put("overall_pixel", pixel.value());
        return GateResult.of(input, primary, gates, VLM, PIXEL);
    }
}
