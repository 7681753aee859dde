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
     * and for a drawn path the markers it runs into) on both sides of it, across the wall (above and below a horizontal wall segment, left and right of a vertical one,
     * either way at a post). A stroke that merely runs along a wall and spills onto it is not a
     * crossing; this matters for one-pixel wall lines, which anti-aliasing of a neighbouring stroke
     * tints along their whole length. Outer walls are left out: a route never has to cross them.
     */
    static int crossingPixels(Mask painted, Mask sides, MazeLattice lattice, Mask erodedWalls) {
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
                        if (!erodedWalls.get(x, y) || !painted.get(x, y)) {
                            continue;
                        }
                        boolean vertical = acrossRows && sides.get(x, y0 - 1) && sides.get(x, y0 + BLOCK);
                        boolean horizontal = acrossCols && sides.get(x0 - 1, y) && sides.get(x0 + BLOCK, y);
                        if (vertical || horizontal) {
                            n++;
                        }
                    }
                }
            }
        }
        return n;
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
