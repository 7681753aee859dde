package io.mmgr.stream.tasks.magma;

/**
 * Metric names of the Magma evaluators (bare: the assembly keys them by evaluator id, see
 * {@link io.mmgr.stream.contract.MetricKey}), shared by the evaluators that report them and the gates
 * that check them. VisualWebBench's names are its official ones, in {@link VisualWebBench}.
 */
public final class MagmaMetrics {

    /** Mind2Web: share of gold steps whose element was chosen right (Ele. Acc). */
    public static final String ELEMENT_SELECTION_ACCURACY = "element_selection_accuracy";
    /** Mind2Web: mean token-set F1 of "OP value" over the gold steps (Op. F1). */
    public static final String OPERATION_F1 = "operation_f1";
    /** Mind2Web and AITW: share of gold steps that succeeded (Step SR); the primary. */
    public static final String STEP_SUCCESS_RATE = "step_success_rate";
    /** Mind2Web and AITW: 0/1, every gold step succeeded. */
    public static final String TASK_SUCCESS = "task_success";
    /** Mind2Web and AITW: the number of gold steps scored. */
    public static final String STEPS = "steps";
    /** AITW: share of gold steps matched by the predicted action (the same value as the step SR). */
    public static final String ACTION_MATCH_ACCURACY = "action_match_accuracy";

    /** ScreenSpot: 0/1, the click is inside the target box; the primary. */
    public static final String CLICK_CORRECT = "click_correct";
    /** ScreenSpot: the click's correctness when the target is text, else null. */
    public static final String CLICK_CORRECT_TEXT = "click_correct_text";
    /** ScreenSpot: the click's correctness when the target is an icon, else null. */
    public static final String CLICK_CORRECT_ICON = "click_correct_icon";

    /** Robot: successes / trials of one task; the primary. */
    public static final String SUCCESS_RATE = "success_rate";
    /** Robot: trials that arrived. */
    public static final String TRIALS = "trials";
    /** Robot: trials the suite's protocol prescribes for the task. */
    public static final String PROTOCOL_TRIALS = "protocol_trials";
    /** Robot: 0/1, the trials that arrived are not the protocol's count. Required = 0. */
    public static final String TRIAL_COUNT_MISMATCH = "trial_count_mismatch";

    private MagmaMetrics() {
    }
}
