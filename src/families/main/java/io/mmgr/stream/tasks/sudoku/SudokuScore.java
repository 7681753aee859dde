package io.mmgr.stream.tasks.sudoku;

import static io.mmgr.stream.tasks.sudoku.SudokuMetrics.ACTION_REFLECTION;
import static io.mmgr.stream.tasks.sudoku.SudokuMetrics.CLUES_CHANGED;
import static io.mmgr.stream.tasks.sudoku.SudokuMetrics.COMPLETION_ACCURACY;
import static io.mmgr.stream.tasks.sudoku.SudokuMetrics.CONSTRAINT_VIOLATION;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The OCR pipeline's verdict on one output: the four fine-grained metrics (Action Reflection null for
 * images), the grid as finally read and what the reading cost.
 *
 * @param grid        the recognised grid, row-major: digits, {@code .} empty, {@code ?} ink without a valid digit
 * @param diagnostics frames, OCR calls and the Action Reflection statistics, as text
 */
public record SudokuScore(double cluesChanged, double constraintViolation, double completionAccuracy,
                          Double actionReflection, String grid, Map<String, String> diagnostics) {

    public SudokuScore {
        diagnostics = Collections.unmodifiableMap(new LinkedHashMap<>(diagnostics));
    }

    /** Metrics by bare name, as the evaluator reports them. */
    public Map<String, Double> metrics() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(CLUES_CHANGED, cluesChanged);
        m.put(CONSTRAINT_VIOLATION, constraintViolation);
        m.put(COMPLETION_ACCURACY, completionAccuracy);
        m.put(ACTION_REFLECTION, actionReflection);
        return m;
    }
}
