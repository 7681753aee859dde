package io.mmgr.stream.tasks.maze;

import static io.mmgr.stream.tasks.maze.MazeThresholds.BLOCK;

import io.mmgr.stream.vision.Mask;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The reference a maze output is compared with, on the canonical grid: the walls of the problem
 * image, the expected start and target centres, and the solution's blocks. The lattice and the
 * solution come from the benchmark item's ground truth when it has them, otherwise they are read
 * from the problem and solution images (the {@code eval maze} command only has images and a size).
 */
public final class MazeReference {

    private final MazeLattice lattice;
    private final List<Cell> solution;
    private final Mask walls;
    private final double[] startCentre;
    private final double[] targetCentre;
    private final Mask wallsErodedImage;
    private final Mask wallsErodedVideo;
    private final Mask solutionFull;
    private final Mask solutionInterior;
    private final Mask endpointCells;
    /** How the pictures show the structure; null while no picture has fixed it (a reference from structure alone). */
    private final MazeOrientation orientation;

    private MazeReference(MazeLattice lattice, List<Cell> solution, Mask walls, double[] startCentre,
                          double[] targetCentre, MazeOrientation orientation) {
        this.orientation = orientation;
        this.lattice = lattice;
        this.solution = List.copyOf(solution);
        this.walls = walls;
        this.startCentre = startCentre;
        this.targetCentre = targetCentre;
        this.wallsErodedImage = walls.erode(MazeThresholds.IMAGE_WALL_EROSION);
        this.wallsErodedVideo = walls.erode(MazeThresholds.VIDEO_WALL_EROSION);
        int w = walls.width();
        int h = walls.height();
        this.solutionFull = new Mask(w, h);
        this.endpointCells = new Mask(w, h);
        for (int[] b : solutionBlocks(this.solution)) {
            fillBlock(solutionFull, b[0], b[1]);
        }
        fillBlock(endpointCells, start().latticeRow(), start().latticeCol());
        fillBlock(endpointCells, target().latticeRow(), target().latticeCol());
        this.solutionInterior = solutionFull.andNot(endpointCells);
    }

    /**
     * Builds the reference. {@code problem} may be null (walls and markers then come from the lattice);
     * {@code lattice}/{@code solution} may be null (then read from the problem / solution canvases).
     */
    public static MazeReference build(MazeLattice lattice, List<Cell> solution, MazeCanvas problem,
                                      MazeCanvas solutionImage, int rows, int cols) throws MazeReferenceException {
        if (problem != null && !problem.found()) {
            throw new MazeReferenceException("the problem image shows no maze (no wall structure found)");
        }
        if (lattice == null) {
            if (problem == null) {
                throw new MazeReferenceException("the benchmark item has neither a maze lattice nor a problem image");
            }
            lattice = latticeFrom(problem, rows, cols);
        }
        if (solution == null || solution.isEmpty()) {
            if (solutionImage == null || !solutionImage.found()) {
                throw new MazeReferenceException("the benchmark item has neither a solution path nor a readable solution image");
            }
            solution = solutionFrom(solutionImage, problem, lattice);
        }
        checkSolution(lattice, solution);
        if (problem == null) {
            // structure alone: the output's own picture decides how it is placed (orientedTo)
            return new MazeReference(lattice, solution, latticeWalls(lattice), blockCentre(solution.get(0)),
                    blockCentre(solution.get(solution.size() - 1)), null);
        }
        Mask s = problem.start().largestComponent();
        Mask t = problem.target().largestComponent();
        // a given lattice is placed as the problem image shows it (that image then fixes the frame)
        MazeReference placed = new MazeReference(lattice, solution, latticeWalls(lattice), blockCentre(solution.get(0)),
                blockCentre(solution.get(solution.size() - 1)), null).orientedTo(problem, s, t, "problem image");
        if (s.isEmpty() || t.isEmpty()) {
            throw new MazeReferenceException("the problem image shows no " + (s.isEmpty() ? "green start" : "red target") + " square");
        }
        return new MazeReference(placed.lattice, placed.solution, problem.walls(), s.centroid(), t.centroid(),
                placed.orientation);
    }

    private static Mask latticeWalls(MazeLattice lattice) {
        Mask walls = new Mask(MazeCanvas.canonicalWidth(lattice.cols()), MazeCanvas.canonicalHeight(lattice.rows()));
        for (int r = 0; r < lattice.latticeRows(); r++) {
            for (int c = 0; c < lattice.latticeCols(); c++) {
                if (!lattice.isOpen(r, c)) {
                    fillBlock(walls, r, c);
                }
            }
        }
        return walls;
    }

    /** Whether no picture has placed this reference yet (it came from structure alone). */
    public boolean unplaced() {
        return orientation == null;
    }

    /** How the pictures show the structure (null while {@link #unplaced()}). */
    public MazeOrientation orientation() {
        return orientation;
    }

    /**
     * This reference as a picture shows it. The orientations are compared on the wall segments between
     * cells (border and posts are the same in every maze, so they would make any two mazes look alike):
     * the share of the segments the picture draws that the oriented maze has (precision) and of the
     * maze's segments the picture draws (recall). The best sum wins; sums within
     * {@link MazeThresholds#ORIENTATION_TIE} are told apart by where the start and target markers are,
     * then by the order of {@link MazeOrientation} (as given first). A picture that erased walls still
     * fits (every segment it draws is the maze's, so the layout check can say it changed); one that
     * draws walls the maze does not have in any orientation is refused. A placed reference is returned
     * as it is.
     *
     * @param start  the picture's start marker (may be null)
     * @param target the picture's target marker (may be null)
     * @throws MazeReferenceException when no orientation fits ({@link MazeThresholds#STRUCTURE_FIT})
     */
    public MazeReference orientedTo(MazeCanvas picture, Mask start, Mask target, String what) throws MazeReferenceException {
        if (orientation != null) {
            return this;
        }
        if (!picture.found()) {
            throw new MazeReferenceException("the " + what + " shows no maze (no wall structure found)");
        }
        int rows = lattice.rows();
        int cols = lattice.cols();
        double[] s = start == null ? null : start.largestComponent().centroid();
        double[] t = target == null ? null : target.largestComponent().centroid();
        MazeOrientation best = null;
        double bestFit = -1;
        double bestPrecision = 0;
        double bestMarkers = Double.POSITIVE_INFINITY;
        StringBuilder tried = new StringBuilder();
        for (MazeOrientation o : MazeOrientation.candidates(rows, cols)) {
            MazeLattice l = o.apply(lattice);
            double[] pr = segmentAgreement(picture.walls(), l);
            double fit = pr[0] + pr[1];
            double markers = markerDistance(s, o.apply(solution.get(0), rows, cols))
                    + markerDistance(t, o.apply(solution.get(solution.size() - 1), rows, cols));
            tried.append(String.format(java.util.Locale.ROOT, "%s%s %.0f %%", tried.isEmpty() ? "" : ", ",
                    o.name().toLowerCase(java.util.Locale.ROOT), 100 * pr[0]));
            if (best == null || fit > bestFit + MazeThresholds.ORIENTATION_TIE
                    || (fit >= bestFit - MazeThresholds.ORIENTATION_TIE && markers < bestMarkers)) {
                best = o;
                bestFit = fit;
                bestPrecision = pr[0];
                bestMarkers = markers;
            }
        }
        if (bestPrecision < MazeThresholds.STRUCTURE_FIT) {
            throw new MazeReferenceException("the " + what + " does not show the given maze in any orientation (of the"
                    + " wall segments it draws between cells, the maze has: " + tried + "; at least "
                    + Math.round(100 * MazeThresholds.STRUCTURE_FIT) + " % needed)");
        }
        MazeLattice l = best.apply(lattice);
        List<Cell> route = best.apply(solution, rows, cols);
        return new MazeReference(l, route, latticeWalls(l), blockCentre(route.get(0)), blockCentre(route.get(route.size() - 1)),
                best);
    }

    /**
     * {precision, recall} of the wall segments between cells a picture draws (its wall mask covering at
     * least half the segment's block) against a lattice's; a picture drawing none has precision 1.
     */
    static double[] segmentAgreement(Mask pictureWalls, MazeLattice l) {
        int drawn = 0;
        int real = 0;
        int both = 0;
        for (int r = 1; r < l.latticeRows() - 1; r++) {
            for (int c = 1; c < l.latticeCols() - 1; c++) {
                if (r % 2 == c % 2) {
                    continue;
                }
                boolean d = MazeCanvas.blockCoverage(pictureWalls, r, c) >= 0.5;
                boolean w = !l.isOpen(r, c);
                drawn += d ? 1 : 0;
                real += w ? 1 : 0;
                both += d && w ? 1 : 0;
            }
        }
        return new double[] {drawn == 0 ? 1.0 : both / (double) drawn, real == 0 ? 1.0 : both / (double) real};
    }

    /** Canonical distance from a marker to a cell's centre; a missing marker counts as far off. */
    private static double markerDistance(double[] marker, Cell cell) {
        if (marker == null) {
            return 1e6;
        }
        double[] c = blockCentre(cell);
        return Math.hypot(marker[0] - c[0], marker[1] - c[1]);
    }

    /**
     * The lattice drawn in a problem image. Only the passages between cells are read; outer walls,
     * posts and cells are what the lattice rules make them, so a legible drawing always yields a lattice.
     */
    static MazeLattice latticeFrom(MazeCanvas problem, int rows, int cols) throws MazeReferenceException {
        List<String> lines = new ArrayList<>();
        int lr = 2 * rows + 1;
        int lc = 2 * cols + 1;
        for (int r = 0; r < lr; r++) {
            StringBuilder sb = new StringBuilder();
            for (int c = 0; c < lc; c++) {
                boolean border = r == 0 || c == 0 || r == lr - 1 || c == lc - 1;
                boolean connector = r % 2 != c % 2;
                boolean wall = border || (r % 2 == 0 && c % 2 == 0)
                        || (connector && MazeCanvas.blockCoverage(problem.walls(), r, c) >= 0.5);
                sb.append(wall ? MazeLattice.WALL : MazeLattice.OPEN);
            }
            lines.add(sb.toString());
        }
        try {
            return MazeLattice.parse(lines, rows, cols);
        } catch (IllegalArgumentException e) {
            throw new MazeReferenceException("the problem image is not a " + rows + "x" + cols
                    + " maze on the block lattice (" + e.getMessage() + ")");
        }
    }

    /**
     * The solution drawn in a solution image: the route through the lattice's passages from start to
     * target that best follows the drawn path (cheapest route, where a block off the path costs
     * {@link MazeThresholds#OFF_PATH_COST} times one on it). A path of any width, even broken or partly
     * hidden, yields a route; in a perfect maze it is the only route anyway. Start and target come from
     * the problem image when there is one (the path may be drawn over them in the solution image).
     */
    static List<Cell> solutionFrom(MazeCanvas image, MazeCanvas problem, MazeLattice lattice) throws MazeReferenceException {
        MazeCanvas markers = problem != null ? problem : image;
        double[] s = markers.start().largestComponent().centroid();
        double[] t = markers.target().largestComponent().centroid();
        if (s == null || t == null) {
            s = image.start().largestComponent().centroid();
            t = image.target().largestComponent().centroid();
        }
        if (s == null || t == null) {
            throw new MazeReferenceException("the solution image shows no " + (s == null ? "green start" : "red target") + " square");
        }
        Cell start = clampCell(cellAt(s), lattice);
        Cell target = clampCell(cellAt(t), lattice);
        if (start.equals(target)) {
            throw new MazeReferenceException("the solution image's start and target lie in the same cell " + start);
        }
        Mask onPath = PathMeasures.toCellWidth(image.path()).or(image.start()).or(image.target());
        int lr = lattice.latticeRows();
        int lc = lattice.latticeCols();
        double[] cost = new double[lr * lc];
        for (int r = 0; r < lr; r++) {
            for (int c = 0; c < lc; c++) {
                double covered = Math.min(1.0, MazeCanvas.blockCoverage(onPath, r, c) / MazeThresholds.SOLUTION_BLOCK_COVERAGE);
                cost[r * lc + c] = 1.0 + (MazeThresholds.OFF_PATH_COST - 1.0) * (1.0 - covered);
            }
        }
        int from = start.latticeRow() * lc + start.latticeCol();
        int to = target.latticeRow() * lc + target.latticeCol();
        double[] dist = new double[lr * lc];
        int[] prev = new int[lr * lc];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        Arrays.fill(prev, -1);
        dist[from] = 0;
        java.util.PriorityQueue<double[]> queue = new java.util.PriorityQueue<>(java.util.Comparator.comparingDouble(e -> e[0]));
        queue.add(new double[] {0, from});
        int[][] steps = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        while (!queue.isEmpty()) {
            double[] e = queue.poll();
            int b = (int) e[1];
            if (e[0] > dist[b]) {
                continue;
            }
            if (b == to) {
                break;
            }
            int r = b / lc;
            int c = b % lc;
            for (int[] d : steps) {
                int nr = r + d[0];
                int nc = c + d[1];
                if (nr < 0 || nc < 0 || nr >= lr || nc >= lc || !lattice.isOpen(nr, nc)) {
                    continue;
                }
                int nb = nr * lc + nc;
                double nd = dist[b] + cost[nb];
                if (nd < dist[nb]) {
                    dist[nb] = nd;
                    prev[nb] = b;
                    queue.add(new double[] {nd, nb});
                }
            }
        }
        if (Double.isInfinite(dist[to])) {
            throw new MazeReferenceException("the maze has no passage from the start " + start + " to the target " + target);
        }
        List<Cell> cells = new ArrayList<>();
        for (int b = to; b != -1; b = prev[b]) {
            int r = b / lc;
            int c = b % lc;
            if (r % 2 == 1 && c % 2 == 1) {
                cells.add(new Cell(r / 2, c / 2));
            }
        }
        Collections.reverse(cells);
        return cells;
    }

    private static Cell clampCell(Cell c, MazeLattice lattice) {
        return new Cell(Math.max(0, Math.min(lattice.rows() - 1, c.row())), Math.max(0, Math.min(lattice.cols() - 1, c.col())));
    }

    private static void checkSolution(MazeLattice lattice, List<Cell> solution) throws MazeReferenceException {
        if (solution.size() < 2) {
            throw new MazeReferenceException("the solution path needs at least two cells");
        }
        Set<Cell> seen = new HashSet<>();
        for (int i = 0; i < solution.size(); i++) {
            Cell c = solution.get(i);
            if (!lattice.contains(c)) {
                throw new MazeReferenceException("solution cell " + c + " lies outside the maze");
            }
            if (!seen.add(c)) {
                throw new MazeReferenceException("solution visits cell " + c + " twice");
            }
            if (i > 0 && !lattice.connected(solution.get(i - 1), c)) {
                throw new MazeReferenceException("solution steps through a wall between " + solution.get(i - 1) + " and " + c);
            }
        }
    }

    /** Blocks of a cell route: each cell and the connector between consecutive cells. */
    static List<int[]> solutionBlocks(List<Cell> route) {
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < route.size(); i++) {
            Cell c = route.get(i);
            out.add(new int[] {c.latticeRow(), c.latticeCol()});
            if (i > 0) {
                Cell p = route.get(i - 1);
                out.add(new int[] {p.latticeRow() + c.row() - p.row(), p.latticeCol() + c.col() - p.col()});
            }
        }
        return out;
    }

    static void fillBlock(Mask m, int latticeRow, int latticeCol) {
        m.fillRect(latticeCol * BLOCK, latticeRow * BLOCK, (latticeCol + 1) * BLOCK, (latticeRow + 1) * BLOCK, true);
    }

    static double[] blockCentre(Cell c) {
        return new double[] {(c.latticeCol() + 0.5) * BLOCK, (c.latticeRow() + 0.5) * BLOCK};
    }

    /** The cell whose block centre is nearest to a canonical point. */
    static Cell cellAt(double[] p) {
        int col = (int) Math.round((p[0] / BLOCK - 1.5) / 2.0);
        int row = (int) Math.round((p[1] / BLOCK - 1.5) / 2.0);
        return new Cell(row, col);
    }

    public MazeLattice lattice() {
        return lattice;
    }

    public List<Cell> solution() {
        return solution;
    }

    public Cell start() {
        return solution.get(0);
    }

    public Cell target() {
        return solution.get(solution.size() - 1);
    }

    public int rows() {
        return lattice.rows();
    }

    public int cols() {
        return lattice.cols();
    }

    public Mask walls() {
        return walls;
    }

    Mask wallsErodedImage() {
        return wallsErodedImage;
    }

    Mask wallsErodedVideo() {
        return wallsErodedVideo;
    }

    double[] startCentre() {
        return startCentre;
    }

    double[] targetCentre() {
        return targetCentre;
    }

    Mask solutionFull() {
        return solutionFull;
    }

    Mask solutionInterior() {
        return solutionInterior;
    }

    Mask endpointCells() {
        return endpointCells;
    }
}
