package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.Mask;
import java.util.List;

/**
 * Scores one image output (MMGR C.5.3): layout matching, wall crossing, path matching and
 * reflection, all on the canonical grid.
 */
public final class MazeImageScorer {

    private MazeImageScorer() {
    }

    /**
     * @throws MazeReferenceException when the maze, given as structure, fits no orientation of the image
     */
    public static MazeMetrics score(MazeReference ref, MazeCanvas out) throws MazeReferenceException {
        return score(ref, out, MarkerRoles.MMGR);
    }

    /**
     * As {@link #score(MazeReference, MazeCanvas)} with the item's marker colours for start and target
     * (the path is drawn blue, as MMGR asks).
     */
    public static MazeMetrics score(MazeReference ref, MazeCanvas out, MarkerRoles roles) throws MazeReferenceException {
        if (!out.found()) {
            return new MazeMetrics(0.0, true, null, null, true, true, 0.0, false, 0.0, 0.0, 0.0, 0.0, false, 0.0, false, null, null);
        }
        // a maze given as structure is placed as the image shows it
        ref = ref.orientedTo(out, out.marker(roles.start(), ref), out.marker(roles.target(), ref), "output image");
        Mask startMarker = out.marker(roles.start(), ref);
        Mask targetMarker = out.marker(roles.target(), ref);
        double layout = layoutIou(ref, out, roles);
        double[] targetAt = targetMarker.largestComponent().centroid();
        double[] startAt = startMarker.largestComponent().centroid();
        Double startOffset = PathMeasures.offsetPx(startAt, ref.startCentre(), out.pixelsPerCanonical());
        Double targetOffset = PathMeasures.offsetPx(targetAt, ref.targetCentre(), out.pixelsPerCanonical());
        // seed, Layout Matching: wall IoU and the start/target centroids within a fixed tolerance
        boolean startMoved = PathMeasures.moved(startAt, ref.startCentre());
        boolean targetMoved = PathMeasures.moved(targetAt, ref.targetCentre());
        // MMGR's judge asks "does the wall layout or red-square position change?"
        boolean mazeChanged = layout <= MazeThresholds.LAYOUT_IOU_MIN || targetMoved;

        Mask path = out.path();
        int pathPixels = path.count();
        double crossing = pathPixels == 0 ? 0.0
                : PathMeasures.crossingPixels(path, path.or(startMarker).or(targetMarker), ref.lattice(), ref.wallsErodedImage()) / (double) pathPixels;
        boolean crossWall = crossing > MazeThresholds.IMAGE_CROSSING_RATIO;

        Mask cellPath = PathMeasures.toCellWidth(path);
        // the path runs under the start and target squares, so those two cells are left out of the comparison
        double[] match = PathMeasures.match(cellPath, ref.solutionInterior(), ref.endpointCells().not());
        MazeLattice lattice = ref.lattice();
        boolean[][] covered = PathMeasures.coveredBlocks(cellPath, lattice.latticeRows(), lattice.latticeCols());
        double achievement = targetAchievement(ref.solution(), covered);
        double lengthRatio = lengthRatio(ref, covered);
        boolean loop = cellPath.holes(MazeThresholds.LOOP_MIN_AREA) > 0;
        boolean excessive = loop || lengthRatio > MazeThresholds.REFLECTION_LENGTH_RATIO;
        return new MazeMetrics(layout, mazeChanged, startOffset, targetOffset, startMoved, targetMoved, crossing, crossWall,
                match[0], match[1], match[2], achievement, loop, lengthRatio, excessive, null, null);
    }

    /**
     * IoU of the wall masks, ignoring pixels the output painted as path or marker (a path over a
     * wall is a crossing, scored as such, not a change of layout).
     */
    static double layoutIou(MazeReference ref, MazeCanvas out, MarkerRoles roles) {
        // walls away from what is painted over them (path, the markers, and a pixel around them)
        if (roles.agent() == MazePalette.GREEN && roles.start() == MazePalette.GREEN && roles.target() == MazePalette.RED) {
            return Mask.iouAwayFrom(out.walls(), ref.walls(), out.path(), out.start(), out.target());
        }
        return Mask.iouAwayFrom(out.walls(), ref.walls(), out.path(), out.start(), out.target(),
                out.marker(roles.agent(), ref), out.marker(roles.start(), ref), out.marker(roles.target(), ref));
    }

    /**
     * Cell-level target achievement: the share of solution cells the cell-width path covers. The
     * start and target cells are under their squares, so they count as reached when the path covers
     * the solution's connector next to them.
     */
    static double targetAchievement(List<Cell> solution, boolean[][] covered) {
        int hit = 0;
        int n = solution.size();
        for (int i = 0; i < n; i++) {
            Cell c = solution.get(i);
            boolean ok = covered[c.latticeRow()][c.latticeCol()];
            if (!ok && (i == 0 || i == n - 1)) {
                Cell nb = solution.get(i == 0 ? 1 : n - 2);
                ok = covered[c.latticeRow() + nb.row() - c.row()][c.latticeCol() + nb.col() - c.col()];
            }
            if (ok) {
                hit++;
            }
        }
        return hit / (double) n;
    }

    /** Length in blocks covered (endpoint cells aside) over the solution's (2n - 3 blocks between the squares). */
    static double lengthRatio(MazeReference ref, boolean[][] covered) {
        int blocks = 0;
        for (int r = 0; r < covered.length; r++) {
            for (int c = 0; c < covered[0].length; c++) {
                if (covered[r][c] && !isEndpoint(ref, r, c)) {
                    blocks++;
                }
            }
        }
        return blocks / (double) (2 * ref.solution().size() - 3);
    }

    private static boolean isEndpoint(MazeReference ref, int r, int c) {
        return (r == ref.start().latticeRow() && c == ref.start().latticeCol())
                || (r == ref.target().latticeRow() && c == ref.target().latticeCol());
    }
}
