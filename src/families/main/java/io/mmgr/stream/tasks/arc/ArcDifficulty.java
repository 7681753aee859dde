package io.mmgr.stream.tasks.arc;

import java.util.ArrayDeque;
import java.util.Locale;

/**
 * Difficulty of an ARC test pair from the three factors MMGR names for its ARC split: grid size,
 * number of colours and number of objects. The paper names the factors, not a formula (not in the
 * seed either), so the points and bands below are this project's: each factor scores 0..2 and the
 * sum (0..6) gives easy (0-1), medium (2-3) or hard (4-6).
 *
 * <ul>
 *   <li>size: the larger of the test input and output in cells; up to 100 -> 0, up to 400 -> 1, more -> 2</li>
 *   <li>colours: distinct symbols in the test input and output; up to 3 -> 0, up to 5 -> 1, more -> 2</li>
 *   <li>objects: 8-connected single-colour components of the test input that are not its most frequent
 *       (background) colour; up to 3 -> 0, up to 8 -> 1, more -> 2</li>
 * </ul>
 */
public record ArcDifficulty(int size, int colours, int objects, int points, String band) {

    public static ArcDifficulty of(ArcTask.Pair pair) {
        int size = pair.input().rows() * pair.input().cols();
        boolean[] used = new boolean[10];
        mark(pair.input(), used);
        if (pair.output() != null) {
            size = Math.max(size, pair.output().rows() * pair.output().cols());
            mark(pair.output(), used);
        }
        int colours = 0;
        for (boolean u : used) {
            colours += u ? 1 : 0;
        }
        int objects = objects(pair.input());
        int points = (size <= 100 ? 0 : size <= 400 ? 1 : 2)
                + (colours <= 3 ? 0 : colours <= 5 ? 1 : 2)
                + (objects <= 3 ? 0 : objects <= 8 ? 1 : 2);
        String band = points <= 1 ? "easy" : points <= 3 ? "medium" : "hard";
        return new ArcDifficulty(size, colours, objects, points, band.toLowerCase(Locale.ROOT));
    }

    private static void mark(ArcGrid g, boolean[] used) {
        for (int r = 0; r < g.rows(); r++) {
            for (int c = 0; c < g.cols(); c++) {
                used[g.get(r, c)] = true;
            }
        }
    }

    /** Components of equal, non-background colour (8-connected). */
    static int objects(ArcGrid g) {
        int[] count = new int[10];
        for (int r = 0; r < g.rows(); r++) {
            for (int c = 0; c < g.cols(); c++) {
                count[g.get(r, c)]++;
            }
        }
        int background = 0;
        for (int s = 1; s < 10; s++) {
            if (count[s] > count[background]) {
                background = s;
            }
        }
        boolean[][] seen = new boolean[g.rows()][g.cols()];
        int objects = 0;
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        for (int r = 0; r < g.rows(); r++) {
            for (int c = 0; c < g.cols(); c++) {
                if (seen[r][c] || g.get(r, c) == background) {
                    continue;
                }
                objects++;
                int colour = g.get(r, c);
                seen[r][c] = true;
                queue.add(new int[] {r, c});
                while (!queue.isEmpty()) {
                    int[] p = queue.poll();
                    for (int dr = -1; dr <= 1; dr++) {
                        for (int dc = -1; dc <= 1; dc++) {
                            int nr = p[0] + dr;
                            int nc = p[1] + dc;
                            if (nr >= 0 && nc >= 0 && nr < g.rows() && nc < g.cols() && !seen[nr][nc]
                                    && g.get(nr, nc) == colour) {
                                seen[nr][nc] = true;
                                queue.add(new int[] {nr, nc});
                            }
                        }
                    }
                }
            }
        }
        return objects;
    }
}
