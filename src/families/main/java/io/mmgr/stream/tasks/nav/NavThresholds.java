package io.mmgr.stream.tasks.nav;

/**
 * Every cut of the navigation evaluators' scoring in one place, on the model of the maze's. The seed
 * (../shared/seeds/mmgr-benchmark-metrics.txt, G.3) defines the Task Completeness metrics as binary
 * geometric rules without numbers (the target volume and proximity radii come with each item), and the
 * gate ANDs 0/1 checks ({@link NavGate}); the numbers here are the public reference's where one is cited,
 * else our choices, each with its reason.
 */
public final class NavThresholds {

    /** Geo-Align's d_th when the item sets no goal radius: 3 m, the success distance of R2R used by Ilharco et al. */
    public static final double DEFAULT_SUCCESS_DISTANCE = 3.0;

    /**
     * Frames sampled from a top-down video to track the agent: every frame of the seed's Veo-3 (192) and
     * Wan-2.2 (120) videos, two in three of Sora-2's (360).
     */
    public static final int TRACK_FRAMES = 240;

    /**
     * Agent marker colour tolerance (L1 RGB, of 765) when the item sets no {@code agentColorTolerance}; our
     * choice, not measured: room for codec drift around the marker's colour.
     */
    public static final int DEFAULT_MARKER_TOLERANCE = 90;

    /** Smallest blob (pixels) taken for the agent marker, so lone codec pixels of its colour are not tracked. */
    public static final int MARKER_MIN_AREA = 4;

    /** Trajectory Alignment: both curves are resampled to this many points evenly spaced by arc length. */
    public static final int ALIGNMENT_SAMPLES = 64;

    /** Trajectory Alignment: the fitted route's Fréchet distance to the path, at most this share of the path's length. */
    public static final double ALIGNMENT_MAX_FRECHET = 0.15;

    /** Trajectory Alignment: Ramer-Douglas-Peucker tolerance, as a share of the path length, before turns are read. */
    public static final double ALIGNMENT_SIMPLIFY = 0.05;

    /** Trajectory Alignment: a corner sharper than this (degrees) is a major turn. */
    public static final double ALIGNMENT_TURN_DEGREES = 45;

    /** Trajectory Alignment: a curve shorter than this share of the other does not move. */
    public static final double ALIGNMENT_MIN_LENGTH_FRACTION = 1e-6;

    /** View-Syn: frames sampled evenly from each video. */
    public static final int VIEW_SYN_FRAMES = 16;

    /** View-Syn: identical frames have an infinite PSNR, reported as this (dB) so that means stay finite. */
    public static final double PSNR_CAP = 100.0;

    private NavThresholds() {
    }
}
