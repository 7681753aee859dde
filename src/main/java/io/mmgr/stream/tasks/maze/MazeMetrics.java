package io.mmgr.stream.tasks.maze;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The maze-pixel metrics of one output, by the bare names the gate reads ({@code maze-pixel.<name>}).
 * Null values are "not applicable" (action_reflection and frames_analyzed of an image; a marker offset
 * when the marker is not there). {@code start_moved} / {@code target_moved} are 1 when the marker is
 * missing or its centroid lies farther than {@link MazeThresholds#MARKER_TOLERANCE} from the reference's.
 */
public record MazeMetrics(double layoutIou, boolean mazeChanged, Double startOffsetPx, Double targetOffsetPx,
                          boolean startMoved, boolean targetMoved, double crossingRatio, boolean crossWall, double pathIou, double pathPrecision,
                          double pathRecall, double targetAchievement, boolean pathHasLoop, double pathLengthRatio,
                          boolean excessiveReflection, Boolean actionReflection, Integer framesAnalyzed) {

    public Map<String, Double> asMap() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("layout_iou", layoutIou);
        m.put("maze_changed", flag(mazeChanged));
        m.put("start_offset_px", startOffsetPx);
        m.put("target_offset_px", targetOffsetPx);
        m.put("start_moved", flag(startMoved));
        m.put("target_moved", flag(targetMoved));
        m.put("crossing_ratio", crossingRatio);
        m.put("cross_wall", flag(crossWall));
        m.put("path_iou", pathIou);
        m.put("path_precision", pathPrecision);
        m.put("path_recall", pathRecall);
        m.put("target_achievement", targetAchievement);
        m.put("path_has_loop", flag(pathHasLoop));
        m.put("path_length_ratio", pathLengthRatio);
        m.put("excessive_reflection", flag(excessiveReflection));
        m.put("action_reflection", actionReflection == null ? null : flag(actionReflection));
        m.put("frames_analyzed", framesAnalyzed == null ? null : framesAnalyzed.doubleValue());
        return m;
    }

    private static double flag(boolean b) {
        return b ? 1.0 : 0.0;
    }
}
