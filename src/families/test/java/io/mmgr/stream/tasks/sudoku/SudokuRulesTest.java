package io.mmgr.stream.tasks.sudoku;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The three grid metrics on hand-written 4x4 grids whose values can be counted by eye. */
@Tag("unit")
class SudokuRulesTest {

    // 1 2 | 3 4
    // 3 4 | 1 2
    // ----+----
    // 2 1 | 4 3
    // 4 3 | 2 1
    static final String SOLUTION = "1234341221434321";
    static final String GIVENS = "1..4.4..2..3...1";
    static final SudokuPuzzle P = SudokuPuzzle.parse(4, GIVENS, SOLUTION);

    static int[] grid(String s) {
        return SudokuPuzzle.cells(s, 4, "grid", true);
    }

    @Test
    void theSolutionHasNoViolationFullAccuracyAndNoChangedClue() {
        int[] g = grid(SOLUTION);
        assertThat(SudokuRules.constraintViolation(g, 4)).isZero();
        assertThat(SudokuRules.completionAccuracy(P, g)).isEqualTo(1.0);
        assertThat(SudokuRules.cluesChanged(P, g)).isZero();
    }

    @Test
    void theBarePuzzleViolatesNothingAndCompletesNothing() {
        int[] g = grid(GIVENS);
        assertThat(SudokuRules.constraintViolation(g, 4)).isZero();
        assertThat(SudokuRules.completionAccuracy(P, g)).isZero();
        assertThat(SudokuRules.cluesChanged(P, g)).isZero();
    }

    @Test
    void aRepeatedDigitViolatesItsRowColumnAndBox() {
        // row 1 col 2 (a blank) gets 1 instead of 2: row 1, column 2 and box 1 now hold two 1s
        int[] g = grid("1134341221434321");
        assertThat(SudokuRules.violatedUnits(g, 4)).isEqualTo(3);
        assertThat(SudokuRules.constraintViolation(g, 4)).isCloseTo(3 / 12.0, within(1e-12));
        assertThat(SudokuRules.completionAccuracy(P, g)).isCloseTo(9 / 10.0, within(1e-12)); // 10 blanks, one wrong
    }

    @Test
    void emptyCellsAreNotViolations() {
        int[] g = grid("12.4341221434321");
        assertThat(SudokuRules.constraintViolation(g, 4)).isZero();
        assertThat(SudokuRules.completionAccuracy(P, g)).isCloseTo(9 / 10.0, within(1e-12)); // 10 blanks, one left empty
    }

    @Test
    void swappingTwoDigitsOfARowAcrossBoxesBreaksTwoColumnsAndTwoBoxes() {
        // row 1: 1 2 3 4 -> 1 3 2 4 (cells 2 and 3, in boxes 1 and 2)
        int[] g = grid("1324341221434321");
        assertThat(SudokuRules.violatedUnits(g, 4)).isEqualTo(4);
    }

    @Test
    void aRemovedOrAlteredClueIsAChangedClue() {
        assertThat(SudokuRules.cluesChanged(P, grid(".234341221434321"))).isEqualTo(1.0); // clue 1 erased
        assertThat(SudokuRules.cluesChanged(P, grid("2234341221434321"))).isEqualTo(1.0); // clue 1 -> 2
        assertThat(SudokuRules.cluesChanged(P, grid("1234341221434322"))).isEqualTo(1.0); // last clue 1 -> 2
        assertThat(SudokuRules.cluesChanged(P, grid("1234341221434321"))).isZero();
    }

    @Test
    void everyUnitOfAConstantGridIsViolated() {
        int[] g = new int[81];
        java.util.Arrays.fill(g, 5);
        assertThat(SudokuRules.constraintViolation(g, 9)).isEqualTo(1.0);
    }

    @Test
    void boxesAreCheckedOnTheirOwn() {
        // a Latin square whose rows and columns are fine but whose 2x2 boxes repeat digits
        int[] g = grid("1234214334124321");
        assertThat(SudokuRules.violatedUnits(g, 4)).isEqualTo(4);
    }

    @Test
    void formatWritesDotsForBlanks() {
        assertThat(SudokuRules.format(grid(GIVENS))).isEqualTo(GIVENS);
    }

    @Test
    void puzzlesRejectBadGroundTruth() {
        assertThatThrownBy(() -> SudokuPuzzle.parse(5, GIVENS, SOLUTION)).hasMessageContaining("4 or 9");
        assertThatThrownBy(() -> SudokuPuzzle.parse(4, GIVENS + "1", SOLUTION)).hasMessageContaining("more than 16");
        assertThatThrownBy(() -> SudokuPuzzle.parse(4, GIVENS, SOLUTION.substring(1))).hasMessageContaining("15 cells");
        assertThatThrownBy(() -> SudokuPuzzle.parse(4, "5..4.4..2..3...1", SOLUTION)).hasMessageContaining("outside 1..4");
        assertThatThrownBy(() -> SudokuPuzzle.parse(4, "x..4.4..2..3...1", SOLUTION)).hasMessageContaining("'x'");
        assertThatThrownBy(() -> SudokuPuzzle.parse(4, "2..4.4..2..3...1", SOLUTION)).hasMessageContaining("disagrees");
        assertThatThrownBy(() -> SudokuPuzzle.parse(4, "1..............1", "1234214334124321")).hasMessageContaining("constraint");
        assertThatThrownBy(() -> SudokuPuzzle.parse(4, GIVENS, "12.4341221434321")).hasMessageContaining("blanks");
        assertThatThrownBy(() -> SudokuPuzzle.parse(4, SOLUTION, SOLUTION)).hasMessageContaining("no cell to fill");
    }

    @Test
    void gridsMayBeWrittenRowByRowWithZerosForBlanks() {
        SudokuPuzzle p = SudokuPuzzle.parse(4, "1004 0400 2003 0001", "1234|3412|2143|4321");
        assertThat(p).isEqualTo(P);
    }
}
