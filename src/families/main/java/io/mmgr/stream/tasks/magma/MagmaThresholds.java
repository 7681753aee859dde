package io.mmgr.stream.tasks.magma;

/**
 * Every number of the Magma scoring rules in one place, each from the reference it follows: AITW's
 * action matching (google-research {@code android_in_the_wild/action_matching.py}, see
 * {@link AitwActionMatching}) and the robot suites' trial protocols (see {@link RobotTrialMetrics}).
 * VisualWebBench's are the rouge package's and live with it ({@link PltrdyRouge}).
 */
public final class MagmaThresholds {

    /** AITW: taps this close (fraction of the screen) match even outside a common box. */
    public static final double TAP_DISTANCE_THRESHOLD = 0.14;
    /** AITW: fraction by which annotation boxes grow, in width and in height. */
    public static final double ANNOTATION_AUGMENT_FRACTION = 1.4;
    /** AITW: a dual-point action whose touch and lift are at most this far apart is a tap. */
    public static final double SWIPE_DISTANCE_THRESHOLD = 0.04;

    /** LIBERO: trials per task, {@code num_trials_per_task} of the LIBERO evaluation scripts. */
    public static final int LIBERO_TRIALS_PER_TASK = 50;
    /** SimplerEnv WidowX (Bridge): trials per task, episodes 0..24 of {@code scripts/bridge.sh}. */
    public static final int SIMPLERENV_WIDOWX_TRIALS_PER_TASK = 24;

    private MagmaThresholds() {
    }
}
