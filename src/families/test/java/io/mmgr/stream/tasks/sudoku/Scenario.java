package io.mmgr.stream.tasks.sudoku;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A puzzle, an answer grid built from it with a known {@link Fault}, and the metrics that answer must
 * get. The expected values follow from how the fault was made, not from the code under test: a wrong
 * digit in a blank makes its row, column and box repeat that digit (the solution's units are
 * permutations, so the digit is already there), i.e. 3 of the 3n units; swapping two digits within a
 * row keeps the row a permutation but breaks both columns and, being in different boxes, both boxes.
 *
 * @param digits  what the answer shows, row-major (0 empty)
 * @param clue    cells drawn in the clue style
 */
record Scenario(SudokuPuzzle puzzle, Fault fault, int[] digits, boolean[] clue,
                double cluesChanged, double constraintViolation, double completionAccuracy) {

    double overall() {
        return cluesChanged == 0 && constraintViolation == 0 && completionAccuracy == 1 ? 1.0 : 0.0;
    }

    static Scenario of(SudokuPuzzle p, Fault fault, Random random) {
        int n = p.size();
        int[] sol = p.solution();
        int[] out = sol.clone();
        boolean[] clue = SudokuRenderer.clueMask(p);
        int blanks = p.blankCount();
        List<Integer> blankCells = new ArrayList<>();
        List<Integer> givenCells = new ArrayList<>();
        for (int i = 0; i < p.cells(); i++) {
            (p.isGiven(i) ? givenCells : blankCells).add(i);
        }
        switch (fault) {
            case CORRECT:
                return new Scenario(p, fault, out, clue, 0, 0, 1);
            case ONE_WRONG: {
                int cell = blankCells.get(random.nextInt(blankCells.size()));
                out[cell] = otherDigit(sol[cell], n, random);
                return new Scenario(p, fault, out, clue, 0, 3.0 / (3 * n), (blanks - 1) / (double) blanks);
            }
            case TWO_SWAPPED: {
                int[] pair = blankPairInRowAcrossBoxes(p, random);
                out[pair[0]] = sol[pair[1]];
                out[pair[1]] = sol[pair[0]];
                return new Scenario(p, fault, out, clue, 0, 4.0 / (3 * n), (blanks - 2) / (double) blanks);
            }
            case CLUE_CHANGED: {
                int cell = givenCells.get(random.nextInt(givenCells.size()));
                out[cell] = otherDigit(sol[cell], n, random);
                return new Scenario(p, fault, out, clue, 1, 3.0 / (3 * n), 1);
            }
            case CELLS_EMPTY: {
                int k = Math.min(3, blanks - 1);
                List<Integer> pick = new ArrayList<>(blankCells);
                java.util.Collections.shuffle(pick, random);
                for (int i = 0; i < k; i++) {
                    out[pick.get(i)] = 0;
                }
                return new Scenario(p, fault, out, clue, 0, 0, (blanks - k) / (double) blanks);
            }
            case NOTHING_FILLED:
                return new Scenario(p, fault, p.givens(), clue, 0, 0, 0);
            default:
                throw new IllegalArgumentException(fault.toString());
        }
    }

    static int otherDigit(int d, int n, Random random) {
        int w = 1 + random.nextInt(n - 1);
        return w >= d ? w + 1 : w;
    }

    /** Two blank cells of one row that lie in different boxes. */
    static int[] blankPairInRowAcrossBoxes(SudokuPuzzle p, Random random) {
        int n = p.size();
        int box = p.box();
        List<int[]> pairs = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    if (a / box != b / box && !p.isGiven(r * n + a) && !p.isGiven(r * n + b)) {
                        pairs.add(new int[] {r * n + a, r * n + b});
                    }
                }
            }
        }
        if (pairs.isEmpty()) {
            throw new IllegalStateException("puzzle has no row with blanks in two boxes");
        }
        return pairs.get(random.nextInt(pairs.size()));
    }
}
