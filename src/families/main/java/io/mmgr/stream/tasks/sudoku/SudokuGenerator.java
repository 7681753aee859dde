package io.mmgr.stream.tasks.sudoku;

import java.util.Random;

/**
 * Puzzles with exactly one solution: a random complete grid, then givens removed in random order
 * as long as the solution stays unique, until the band's count is reached. A removal order that gets
 * stuck above the band starts over with a new grid.
 */
public final class SudokuGenerator {

    private static final int MAX_TRIES = 200;

    private SudokuGenerator() {
    }

    public static SudokuPuzzle generate(int size, SudokuBand band, Random random) {
        SudokuSolver solver = new SudokuSolver(size);
        int cells = size * size;
        int min = band.minGivens(size);
        int max = band.maxGivens(size);
        for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
            int target = min + random.nextInt(max - min + 1);
            int[] solution = solver.randomSolution(random);
            int[] givens = solution.clone();
            int[] order = shuffled(cells, random);
            int remaining = cells;
            for (int cell : order) {
                if (remaining == target) {
                    break;
                }
                int keep = givens[cell];
                givens[cell] = 0;
                if (solver.countSolutions(givens, 2) == 1) {
                    remaining--;
                } else {
                    givens[cell] = keep;
                }
            }
            if (remaining >= min && remaining <= max) {
                return new SudokuPuzzle(size, givens, solution);
            }
        }
        throw new IllegalStateException("no " + size + "x" + size + " " + band.id() + " puzzle after " + MAX_TRIES + " tries");
    }

    private static int[] shuffled(int n, Random random) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }

    /** Whether the givens determine exactly one solution. */
    public static boolean hasUniqueSolution(SudokuPuzzle puzzle) {
        return new SudokuSolver(puzzle.size()).countSolutions(puzzle.givens(), 2) == 1;
    }
}
