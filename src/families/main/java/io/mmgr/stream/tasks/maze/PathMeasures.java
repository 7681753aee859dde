package io.mmgr.stream.tasks.maze;

import static io.mmgr.stream.tasks.maze.MazeThresholds.BLOCK;

import io.mmgr.stream.vision.Mask;

/** Shared path measurements for images and videos. */
final class PathMeasures {

    private PathMeasures() {
    }

    /**
     * Widens a path drawn with any stroke to about one block (seed: "dilates thin generated paths to
     * cell width"). The stroke width is estimated as area / skeleton length; strokes already a block
     * wide or wider are left alone so they do not spill into walls.
     */
    static Mask toCellWidth(Mask path) {
        if (path.isEmpty()) {
            return path;
        }
        int skeleton = Math.max(1, path.thin().count());
        double width = path.count() / (double) skeleton;
        return path.dilate(dilationFor(width));
    }

    /** Radius that brings a stroke of the given width to at most one block. */
    static int dilationFor(double strokeWidth) {
        return Math.max(0, (int) Math.floor((BLOCK - strokeWidth) / 2.0));
    }

    /** {iou, precision, recall} of a predicted path against the reference path, within a region (null: all). */
    static double[] match(Mask predicted, Mask reference, Mask region) {
        Mask p = region == null ? predicted : predicted.and(region);
        Mask r = region == null ? reference : reference.and(region);
        int inter = p.intersectionCount(r);
        int pc = p.count();
        int rc = r.count();
        int union = pc + rc - inter;
        double iou = union == 0 ? 0.0 : inter / (double) union;
        double precision = pc == 0 ? 0.0 : inter / (double) pc;
        double recall = rc == 0 ? 0.0 : inter / (double) rc;
        return new double[] {iou, precision, recall};
    }

    /** Which lattice blocks the mask covers (at least {@link MazeThresholds#BLOCK_COVERAGE}). */
    static boolean[][] coveredBlocks(Mask mask, int latticeRows, int latticeCols) {
        boolean[][] covered = new boolean[latticeRows][latticeCols];
        for (int r = 0; r < latticeRows; r++) {
            for (int c = 0; c < latticeCols; c++) {
                covered[r][c] = MazeCanvas.blockCoverage(mask, r, c) >= MazeThresholds.BLOCK_COVERAGE;
            }
        }
        return covered;
    }

    /**
     * Painted pixels inside the eroded walls that bridge their wall: {@code sides} (the painted pixels,
     * and for a drawn path the markers it runs into) on both sides of it, across the wall (above and
     * below a horizontal wall segment, left and right of a vertical one, either way at a post). A stroke
     * that merely runs along a wall and spills onto it is not a crossing; this matters for one-pixel wall
     * lines, which anti-aliasing of a neighbouring stroke tints along their whole length. Outer walls are
     * left out: a route never has to cross them.
     */
    static int crossingPixels(Mask painted, Mask sides, MazeLattice lattice, Mask erodedWalls) {
        return bridging(erodedWalls, painted, sides, lattice, 1, null);
    }

    /**
     * The pixels of the closed inner wall blocks of {@code lattice} that {@code candidates} sets (and
     * {@code also}, when not null) with {@code sides} set right across their wall on both sides,
     * {@code depth} pixels deep: above and below a wall between rows, left and right of one between
     * columns, either way at a post. Counts them, and sets them in {@code into} when not null. One walk
     * for a painted stroke's crossings ({@link #crossingPixels}) and a black marker's pixels on a wall
     * line ({@link BlackMarker}).
     */
    static int bridging(Mask candidates, Mask also, Mask sides, MazeLattice lattice, int depth, Mask into) {
        int n = 0;
        for (int r = 1; r < lattice.latticeRows() - 1; r++) {
            for (int c = 1; c < lattice.latticeCols() - 1; c++) {
                if (lattice.isOpen(r, c)) {
                    continue;
                }
                boolean acrossRows = r % 2 == 0;
                boolean acrossCols = c % 2 == 0;
                int x0 = c * BLOCK;
                int y0 = r * BLOCK;
                for (int y = y0; y < y0 + BLOCK; y++) {
                    for (int x = x0; x < x0 + BLOCK; x++) {
                        if (!candidates.get(x, y) || (also != null && !also.get(x, y))) {
                            continue;
                        }
                        if ((acrossRows && across(sides, x, y0 - 1, 0, -1, x, y0 + BLOCK, 0, 1, depth))
                                || (acrossCols && across(sides, x0 - 1, y, -1, 0, x0 + BLOCK, y, 1, 0, depth))) {
                            n++;
                            if (into != null) {
                                into.set(x, y, true);
                            }
                        }
                    }
                }
            }
        }
        return n;
    }

    /** Whether {@code depth} pixels are set from (ax, ay) stepping (adx, ady), and as many from (bx, by) stepping (bdx, bdy). */
    private static boolean across(Mask m, int ax, int ay, int adx, int ady, int bx, int by, int bdx, int bdy, int depth) {
        for (int d = 0; d < depth; d++) {
            if (!m.get(ax + d * adx, ay + d * ady) || !m.get(bx + d * bdx, by + d * bdy)) {
                return false;
            }
        }
        return true;
    }

    /** Distance between two canonical points, scaled to source pixels; null when either is missing. */
    static Double offsetPx(double[] found, double[] expected, double pixelsPerCanonical) {
        if (found == null || expected == null) {
            return null;
        }
        return Math.hypot(found[0] - expected[0], found[1] - expected[1]) * pixelsPerCanonical;
    }

    static boolean moved(double[] found, double[] expected) {
        return found == null || Math.hypot(found[0] - expected[0], found[1] - expected[1]) > MazeThresholds.MARKER_TOLERANCE;
    }
}
