package io.mmgr.stream.tasks.sudoku;

import java.util.Arrays;

/**
 * A Sudoku of side {@code n} (4 with 2x2 boxes, 9 with 3x3 boxes): the givens (0 for a blank) and
 * the solution, both row-major. Construction checks that the solution is a valid Sudoku and agrees
 * with every given.
 */
public record SudokuPuzzle(int size, int[] givens, int[] solution) {

    public SudokuPuzzle {
        if (size != 4 && size != 9) {
            throw new IllegalArgumentException("grid size must be 4 or 9, got " + size);
        }
        int cells = size * size;
        if (givens.length != cells || solution.length != cells) {
            throw new IllegalArgumentException("a " + size + "x" + size + " grid has " + cells + " cells");
        }
        givens = givens.clone();
        solution = solution.clone();
        for (int i = 0; i < cells; i++) {
            if (givens[i] < 0 || givens[i] > size) {
                throw new IllegalArgumentException("given " + givens[i] + " at cell " + i + " is outside 1.." + size);
            }
            if (solution[i] < 1 || solution[i] > size) {
                throw new IllegalArgumentException("the solution must fill every cell with 1.." + size
                        + ", cell " + i + " holds " + solution[i]);
            }
            if (givens[i] != 0 && givens[i] != solution[i]) {
                throw new IllegalArgumentException("given " + givens[i] + " at row " + (i / size + 1) + ", column "
                        + (i % size + 1) + " disagrees with the solution's " + solution[i]);
            }
        }
        if (SudokuRules.violatedUnits(solution, size) != 0) {
            throw new IllegalArgumentException("the solution breaks a row, column or box constraint");
        }
        if (blanks(givens) == 0) {
            throw new IllegalArgumentException("the givens leave no cell to fill");
        }
    }

    /**
     * Parses row-major strings: digits 1..n, and {@code .} or {@code 0} for a blank in the givens.
     * Whitespace, commas and {@code |} separators are ignored so grids may be written row by row.
     */
    public static SudokuPuzzle parse(int size, String givens, String solution) {
        if (size != 4 && size != 9) {
            throw new IllegalArgumentException("grid size must be 4 or 9, got " + size);
        }
        return new SudokuPuzzle(size, cells(givens, size, "givens", true), cells(solution, size, "solution", false));
    }

    static int[] cells(String s, int size, String what, boolean blanksAllowed) {
        if (s == null) {
            throw new IllegalArgumentException(what + " are missing");
        }
        int[] out = new int[size * size];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c) || c == ',' || c == '|') {
                continue;
            }
            int v;
            if (c == '.' || c == '0') {
                if (!blanksAllowed) {
                    throw new IllegalArgumentException("the " + what + " must not contain blanks");
                }
                v = 0;
            } else if (c >= '1' && c <= '9') {
                v = c - '0';
                if (v > size) {
                    throw new IllegalArgumentException(what + " contain " + c + ", outside 1.." + size);
                }
            } else {
                throw new IllegalArgumentException(what + " contain '" + c + "'; use digits and '.' or '0' for blanks");
            }
            if (n == out.length) {
                throw new IllegalArgumentException(what + " have more than " + out.length + " cells");
            }
            out[n++] = v;
        }
        if (n != out.length) {
            throw new IllegalArgumentException(what + " have " + n + " cells, a " + size + "x" + size + " grid has " + out.length);
        }
        return out;
    }

    public int box() {
        return size == 4 ? 2 : 3;
    }

    public int cells() {
        return size * size;
    }

    public boolean isGiven(int cell) {
        return givens[cell] != 0;
    }

    public int blankCount() {
        return blanks(givens);
    }

    public int givenCount() {
        return cells() - blankCount();
    }

    public String givensString() {
        return SudokuRules.format(givens);
    }

    public String solutionString() {
        return SudokuRules.format(solution);
    }

    private static int blanks(int[] grid) {
        int n = 0;
        for (int v : grid) {
            if (v == 0) {
                n++;
            }
        }
        return n;
    }

    @Override
    public int[] givens() {
        return givens.clone();
    }

    @Override
    public int[] solution() {
        return solution.clone();
    }

    int given(int cell) {
        return givens[cell];
    }

    int answer(int cell) {
        return solution[cell];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SudokuPuzzle p && p.size == size && Arrays.equals(p.givens, givens)
                && Arrays.equals(p.solution, solution);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * size + Arrays.hashCode(givens)) + Arrays.hashCode(solution);
    }

    @Override
    public String toString() {
        return "SudokuPuzzle[" + size + "x" + size + ", givens=" + givensString() + "]";
    }
}
