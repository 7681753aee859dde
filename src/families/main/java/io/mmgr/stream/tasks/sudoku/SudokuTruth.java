package io.mmgr.stream.tasks.sudoku;

import static io.mmgr.stream.tasks.PayloadValues.get;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.FamilyPayload;
import org.apache.avro.generic.GenericRecordBuilder;

/**
 * A Sudoku item's ground truth. It travels in the item's payload (family {@code sudoku}, schema
 * {@code SudokuTruth.avsc} in this folder); an item without one keeps it in the shared fields it used
 * before ({@code gridSize}, {@code givens}, {@code answer}), read the same way.
 *
 * @param size     4 or 9; null when an item of before gives none (the givens imply it)
 * @param givens   the posed puzzle, row-major, '.' or '0' for blanks, or null
 * @param solution the solved grid, row-major, or null
 */
public record SudokuTruth(Integer size, String givens, String solution) {

    static final FamilyPayload PAYLOAD = FamilyPayload.load(SudokuMetrics.FAMILY, SudokuTruth.class, "SudokuTruth");

    /** The item's Sudoku ground truth: its payload, else the shared fields. */
    public static SudokuTruth of(GroundTruth gt) throws EvaluationException {
        return PAYLOAD.read(gt, r -> new SudokuTruth(get(r, "size"), get(r, "givens"), get(r, "solution")),
                g -> new SudokuTruth(g.getGridSize(), g.getGivens(), g.getAnswer()));
    }

    /** Sets this as {@code gt}'s payload (every field is required). */
    public GroundTruth.Builder into(GroundTruth.Builder gt) {
        if (size == null || givens == null || solution == null) {
            throw new IllegalArgumentException("a Sudoku's ground truth needs its size, givens and solution");
        }
        return PAYLOAD.write(gt, new GenericRecordBuilder(PAYLOAD.schema()).set("size", size).set("givens", givens)
                .set("solution", solution).build());
    }
}
