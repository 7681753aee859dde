package io.mmgr.stream.tasks.arc;

/**
 * Every cut of the ARC grid evaluator's scoring in one place, on the model of the maze's. The seed
 * (../shared/seeds/mmgr-benchmark-metrics.txt, T3) scores by exact match and states no numeric cut,
 * and the gate has none ({@link ArcGate}); these are our choices, each with its reason. Finding the
 * lattice keeps its tuning with its algorithm ({@link ArcGridDecoder}, {@link AxisFit}, {@link Border},
 * {@link GridLines}), as the maze's board locator does.
 */
public final class ArcThresholds {

    /** Output and canvas aspect ratios this close mean the output is the whole puzzle canvas. */
    public static final double CANVAS_ASPECT_TOLERANCE = 0.03;

    /** Frames sampled from a video output; the last one holds the answer. */
    public static final int VIDEO_FRAMES = 2;

    /** CIELAB distance beyond which a cell's colour is not an ARC colour (the cell reads as unreadable). */
    public static final double MAX_COLOUR_DISTANCE = 25.0;

    private ArcThresholds() {
    }
}
