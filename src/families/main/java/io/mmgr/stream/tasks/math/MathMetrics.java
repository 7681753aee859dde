package io.mmgr.stream.tasks.math;

/** Math (MMGR T4) metric names, all from the judge; no deterministic evaluator exists. */
public final class MathMetrics {

    public static final String TASK = "math";
    /** The family of its task spec and of its ground truth payload ({@link MathTruth}). */
    public static final String FAMILY = "math";
    /** Judge rubric id. */
    public static final String RUBRIC = "math";

    /** 0/1, "Outcome Success Rate": the final answer matches the ground truth. Required = 1. */
    public static final String FINAL_CORRECTNESS = "final_correctness";
    /** 0/1, "Process Success Rate": every reasoning step is valid. Required = 1. */
    public static final String INTERMEDIATE_CORRECTNESS = "intermediate_correctness";
    /** 0/1, video only (null otherwise): self-correction shown. Diagnostic, never gates. */
    public static final String ACTION_REFLECTION = "action_reflection";

    private MathMetrics() {
    }
}
