package io.mmgr.stream.tasks.example;

/** The example family's names: one task, counting, answered in text. */
public final class ExampleMetrics {

    public static final String FAMILY = "example";
    public static final String TASK = "example-count";
    /** The deterministic evaluator, and the part its metrics are keyed by. */
    public static final String EVALUATOR = "example-count";
    public static final String RUBRIC = "example-count";

    /** 0/1: the first number in the answer is the true count. */
    public static final String COUNT_CORRECT = "count_correct";
    /** |answered - true|, null when the answer holds no number. */
    public static final String ABS_ERROR = "abs_error";
    /** 0/1, judged: the answer says what was counted, not only a number. */
    public static final String NAMES_WHAT = "names_what";

    private ExampleMetrics() {
    }
}
