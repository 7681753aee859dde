package io.mmgr.stream.tasks.sudoku;

/**
 * The three grid metrics of MMGR's Sudoku task (seed T2), on a recognised grid: row-major, 0 for a
 * cell without a valid digit, 1..n otherwise.
 */
public final class SudokuRules {

    private SudokuRules() {
    }

    /**
     * Clues Changed: 1 if any given clue is modified, removed or displaced, i.e. some given cell no
     * longer shows its digit (a displaced clue leaves its own cell changed); 0 otherwise.
     */
    public static double cluesChanged(SudokuPuzzle puzzle, int[] grid) {
        for (int i = 0; i < grid.length; i++) {
            if (puzzle.isGiven(i) && grid[i] != puzzle.given(i)) {
                return 1.0;
            }
        }
        return 0.0;
    }

    /**
     * Constraint Violation: the fraction of the grid's 3n constraints (n rows, n columns, n boxes)
     * that are violated. The seed defines it as the "fraction of row/column/subgrid constraints
     * violated ... (0 = full compliance)" and leaves the test open; we read a Sudoku constraint as
     * "no digit twice in the unit", so a unit is violated when a digit repeats among its filled cells.
     * Cells left empty are not a violation here: Completion Accuracy already scores them, and counting
     * them twice would make CV a second completion score.
     */
    public static double constraintViolation(int[] grid, int n) {
        return violatedUnits(grid, n) / (3.0 * n);
    }

    /** Rows, columns and boxes holding some digit more than once. */
    public static int violatedUnits(int[] grid, int n) {
        int box = n == 4 ? 2 : 3;
        int violated = 0;
        for (int u = 0; u < n; u++) {
            int rowSeen = 0;
            int colSeen = 0;
            int boxSeen = 0;
            boolean rowBad = false;
            boolean colBad = false;
            boolean boxBad = false;
            int br = (u / box) * box;
            int bc = (u % box) * box;
            for (int k = 0; k < n; k++) {
                int r = grid[u * n + k];
                int c = grid[k * n + u];
                int b = grid[(br + k / box) * n + bc + k % box];
                if (r > 0) {
                    rowBad |= (rowSeen & (1 << r)) != 0;
                    rowSeen |= 1 << r;
                }
                if (c > 0) {
                    colBad |= (colSeen & (1 << c)) != 0;
                    colSeen |= 1 << c;
                }
                if (b > 0) {
                    boxBad |= (boxSeen & (1 << b)) != 0;
                    boxSeen |= 1 << b;
                }
            }
            violated += (rowBad ? 1 : 0) + (colBad ? 1 : 0) + (boxBad ? 1 : 0);
        }
        return violated;
    }

    /** Completion Accuracy: the fraction of the originally empty cells that hold the solution's digit. */
    public static double completionAccuracy(SudokuPuzzle puzzle, int[] grid) {
        int blanks = 0;
        int correct = 0;
        for (int i = 0; i < grid.length; i++) {
            if (!puzzle.isGiven(i)) {
                blanks++;
                if (grid[i] == puzzle.answer(i)) {
                    correct++;
                }
            }
        }
        return correct / (double) blanks; // a puzzle always has a blank (SudokuPuzzle checks)
    }

    /** Row-major digits with {@code .} for 0. */
    public static String format(int[] grid) {
        StringBuilder sb = new StringBuilder(grid.length);
        for (int v : grid) {
            sb.append(v == 0 ? '.' : (char) ('0' + v));
        }
        return sb.toString();
    }
}
