package io.mmgr.stream.tasks.arc;

import java.util.Arrays;
import java.util.Optional;

/** Wrong answers a model gives, made from the ground truth. Empty when the fault would not change the grid. */
enum ArcFault {
    /** One cell (the middle one) in another colour. */
    WRONG_CELL,
    /** A row of black appended at the bottom. */
    EXTRA_ROW,
    /** The last column dropped. */
    MISSING_COLUMN,
    /** The two most frequent colours exchanged everywhere. */
    SWAPPED_COLOUR,
    /** The content moved one column right: the first column filled with the most frequent colour, the last lost. */
    SHIFTED;

    Optional<int[][]> apply(int[][] truth) {
        int rows = truth.length;
        int cols = truth[0].length;
        int[][] g = copy(truth);
        switch (this) {
            case WRONG_CELL -> {
                int r = rows / 2;
                int c = cols / 2;
                g[r][c] = (g[r][c] + 3) % 10;
            }
            case EXTRA_ROW -> {
                if (rows >= ArcGrid.MAX_SIDE) {
                    return Optional.empty();
                }
                g = Arrays.copyOf(g, rows + 1);
                g[rows] = new int[cols];
            }
            case MISSING_COLUMN -> {
                if (cols < 2) {
                    return Optional.empty();
                }
                for (int r = 0; r < rows; r++) {
                    g[r] = Arrays.copyOf(g[r], cols - 1);
                }
            }
            case SWAPPED_COLOUR -> {
                int[] top = topTwo(truth);
                if (top[1] < 0) {
                    return Optional.empty();
                }
                for (int[] row : g) {
                    for (int c = 0; c < cols; c++) {
                        row[c] = row[c] == top[0] ? top[1] : row[c] == top[1] ? top[0] : row[c];
                    }
                }
            }
            case SHIFTED -> {
                int fill = topTwo(truth)[0];
                for (int[] row : g) {
                    System.arraycopy(row.clone(), 0, row, 1, cols - 1);
                    row[0] = fill;
                }
            }
            default -> throw new IllegalStateException();
        }
        return Arrays.deepEquals(g, truth) ? Optional.empty() : Optional.of(g);
    }

    private static int[][] copy(int[][] a) {
        int[][] out = new int[a.length][];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i].clone();
        }
        return out;
    }

    /** The most and second most frequent symbols (-1 when there is no second). */
    static int[] topTwo(int[][] g) {
        int[] count = new int[10];
        for (int[] row : g) {
            for (int v : row) {
                count[v]++;
            }
        }
        int a = 0;
        for (int s = 1; s < 10; s++) {
            if (count[s] > count[a]) {
                a = s;
            }
        }
        int b = -1;
        for (int s = 0; s < 10; s++) {
            if (s != a && count[s] > 0 && (b < 0 || count[s] > count[b])) {
                b = s;
            }
        }
        return new int[] {a, b};
    }
}
