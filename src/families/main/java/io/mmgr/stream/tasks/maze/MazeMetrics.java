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

    // The metric names, spelled out only here: the gate, the rubric and the CLI refer to these.
    public static final String LAYOUT_IOU = "layout_iou";
    public static final String MAZE_CHANGED = "maze_changed";
    public static final String START_OFFSET_PX = "start_offset_px";
    public static final String TARGET_OFFSET_PX = "target_offset_px";
    public static final String START_MOVED = "start_moved";
    public static final String TARGET_MOVED = "target_moved";
    public static final String CROSSING_RATIO = "crossing_ratio";
    public static final String CROSS_WALL = "cross_wall";
    public static final String PATH_IOU = "path_iou";
    public static final String PATH_PRECISION = "path_precision";
    public static final String PATH_RECALL = "path_recall";
    public static final String TARGET_ACHIEVEMENT = "target_achievement";
    public static final String PATH_HAS_LOOP = "path_has_loop";
    public static final String PATH_LENGTH_RATIO = "path_length_ratio";
    public static final String EXCESSIVE_REFLECTION = "excessive_reflection";
    public static final String ACTION_REFLECTION = "action_reflection";
    public static final String FRAMES_ANALYZED = "frames_analyzed";

    public Map<String, Double> asMap() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(LAYOUT_IOU, layoutIou);
        m.put(MAZE_CHANGED, flag(mazeChanged));
        m.put(START_OFFSET_PX, startOffsetPx);
        m.put(TARGET_OFFSET_PX, targetOffsetPx);
        m.put(START_MOVED, flag(startMoved));
        m.put(TARGET_MOVED, flag(targetMoved));
        m.put(CROSSING_RATIO, crossingRatio);
        m.put(CROSS_WALL, flag(crossWall));
        m.put(PATH_IOU, pathIou);
        m.put(PATH_PRECISION, pathPrecision);
        m.put(PATH_RECALL, pathRecall);
        m.put(TARGET_ACHIEVEMENT, targetAchievement);
        m.put(PATH_HAS_LOOP, flag(pathHasLoop));
        m.put(PATH_LENGTH_RATIO, pathLengthRatio);
        m.put(EXCESSIVE_REFLECTION, flag(excessiveReflection));
        m.put(ACTION_REFLECTION, actionReflection == null ? null : flag(actionReflection));
        m.put(FRAMES_ANALYZED, framesAnalyzed == null ? null : framesAnalyzed.doubleValue());
        return m;
    }

    private static double flag(boolean b) {
        return b ? 1.0 : 0.0;
    }
}
