package io.mmgr.stream.tasks.sudoku;

import java.util.Random;

/**
 * Backtracking over candidate bitmasks, always branching on the cell with the fewest candidates.
 * Counts solutions up to a limit (2 decides uniqueness) and fills random complete grids.
 */
final class SudokuSolver {

    private final int n;
    private final int box;
    private final int all;

    SudokuSolver(int n) {
        this.n = n;
        this.box = n == 4 ? 2 : 3;
        this.all = ((1 << n) - 1) << 1; // bits 1..n
    }

    /** Number of solutions of {@code grid} (0 = blank), counting no further than {@code limit}. */
    int countSolutions(int[] grid, int limit) {
        int[] g = grid.clone();
        if (!consistent(g)) {
            return 0;
        }
        return search(g, limit, null);
    }

    /** A uniformly shuffled complete grid: candidates are tried in random order. */
    int[] randomSolution(Random random) {
        int[] g = new int[n * n];
        search(g, 1, random);
        return g;
    }

    private int search(int[] g, int limit, Random random) {
        int best = -1;
        int bestMask = 0;
        int bestCount = Integer.MAX_VALUE;
        for (int i = 0; i < g.length; i++) {
            if (g[i] != 0) {
                continue;
            }
            int mask = candidates(g, i);
            int count = Integer.bitCount(mask);
            if (count == 0) {
                return 0;
            }
            if (count < bestCount) {
                best = i;
                bestMask = mask;
                bestCount = count;
                if (count == 1) {
                    break;
                }
            }
        }
        if (best < 0) {
            return 1;
        }
        int[] order = new int[bestCount];
        for (int d = 1, k = 0; d <= n; d++) {
            if ((bestMask & (1 << d)) != 0) {
                order[k++] = d;
            }
        }
        if (random != null) {
            for (int i = order.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        int found = 0;
        for (int d : order) {
            g[best] = d;
            found += search(g, limit - found, random);
            if (found >= limit) {
                if (random == null) {
                    g[best] = 0; // counting leaves the grid as it found it; filling keeps the digits
                }
                return found;
            }
        }
        g[best] = 0;
        return found;
    }

    private int candidates(int[] g, int cell) {
        int r = cell / n;
        int c = cell % n;
        int used = 0;
        for (int k = 0; k < n; k++) {
            used |= 1 << g[r * n + k];
            used |= 1 << g[k * n + c];
        }
        int br = r / box * box;
        int bc = c / box * box;
        for (int y = br; y < br + box; y++) {
            for (int x = bc; x < bc + box; x++) {
                used |= 1 << g[y * n + x];
            }
        }
        return all & ~used;
    }

    private boolean consistent(int[] g) {
        return SudokuRules.violatedUnits(g, n) == 0;
    }
}
