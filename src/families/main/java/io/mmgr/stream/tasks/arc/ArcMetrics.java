package io.mmgr.stream.tasks.arc;

/**
 * ARC (MMGR T3) metric names shared by the judge rubric and the deterministic grid evaluator.
 * Only {@link #VALID_SOLUTION} is the primary; the others are the seed's diagnostic "metric cascade".
 */
public final class ArcMetrics {

    public static final String TASK = "arc";
    /** The family of its task spec and of its ground truth payload ({@link ArcTruth}). */
    public static final String FAMILY = "arc";
    /** Judge rubric id. */
    public static final String RUBRIC = "arc";
    /** Deterministic evaluator that decodes the generated grid and compares it with the ground truth. */
    public static final String GRID_EVALUATOR = "arc-grid";

    /** Judge only, 0/1: the transformation pattern was identified. Diagnostic. */
    public static final String PATTERN_RECOGNITION = "pattern_recognition";
    /** Judge and arc-grid, 0/1: grid dimensions and layout preserved. Diagnostic. */
    public static final String GRID_INTEGRITY = "grid_integrity";
    /** Judge only, 0/1: every colour applied per the rule. Diagnostic. */
    public static final String COLOR_ACCURACY = "color_accuracy";
    /** arc-grid only, fraction of cells equal to the ground truth. Diagnostic. */
    public static final String CELL_ACCURACY = "cell_accuracy";
    /** Judge and arc-grid, 0/1: exact match with the ground-truth output. The primary. */
    public static final String VALID_SOLUTION = "valid_solution";

    private ArcMetrics() {
    }
}
