package io.mmgr.stream.tasks.sudoku;

/**
 * Sudoku (MMGR T2) metric names. The VLM judge and the OCR evaluator report the same four metrics
 * under the same bare names, so one rubric and one evaluator can share this contract.
 */
public final class SudokuMetrics {

    public static final String TASK = "sudoku";
    /** The family of its task spec and of its ground truth payload ({@link SudokuTruth}). */
    public static final String FAMILY = "sudoku";
    /** Judge rubric id. */
    public static final String RUBRIC = "sudoku";
    /** Deterministic OCR pipeline (seed D.4.2); its part name. */
    public static final String OCR_EVALUATOR = "sudoku-ocr";

    /** 0/1; 1 if any given clue is modified, removed or displaced. Required = 0. */
    public static final String CLUES_CHANGED = "clues_changed";
    /** Fraction in [0,1] of row/column/box constraints violated. Required = 0 exactly. */
    public static final String CONSTRAINT_VIOLATION = "constraint_violation";
    /** Fraction in [0,1] of originally empty cells filled correctly. Required = 1 exactly. */
    public static final String COMPLETION_ACCURACY = "completion_accuracy";
    /** 0/1, video only (null for images); diagnostic, never gates. */
    public static final String ACTION_REFLECTION = "action_reflection";

    private SudokuMetrics() {
    }
}
