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

    private MazeReference(MazeLattice lattice, List<Cell> solution, Mask walls, double[] startCentre,
                          double[] targetCentre) {
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
            solution = solutionFrom(solutionImage, lattice);
        }
        checkSolution(lattice, solution);
        int w = MazeCanvas.canonicalWidth(cols);
        int h = MazeCanvas.canonicalHeight(rows);
        Mask latticeWalls = new Mask(w, h);
        for (int r = 0; r < lattice.latticeRows(); r++) {
            for (int c = 0; c < lattice.latticeCols(); c++) {
                if (!lattice.isOpen(r, c)) {
                    fillBlock(latticeWalls, r, c);
                }
            }
        }
        Cell start = solution.get(0);
        Cell target = solution.get(solution.size() - 1);
        Mask walls = latticeWalls;
        double[] startCentre = blockCentre(start);
        double[] targetCentre = blockCentre(target);
        if (problem != null) {
            double agreement = Mask.iou(problem.walls(), latticeWalls, null);
            if (agreement < 0.5) {
                throw new MazeReferenceException(String.format(java.util.Locale.ROOT,
                        "the problem image does not match the maze lattice (wall IoU %.2f)", agreement));
            }
            walls = problem.walls();
            Mask s = problem.start().largestComponent();
            Mask t = problem.target().largestComponent();
            if (s.isEmpty() || t.isEmpty()) {
                throw new MazeReferenceException("the problem image shows no " + (s.isEmpty() ? "green start" : "red target") + " square");
            }
            startCentre = s.centroid();
            targetCentre = t.centroid();
        }
        return new MazeReference(lattice, solution, walls, startCentre, targetCentre);
    }

    /** The reference drawn from the lattice alone (no images). */
    public static MazeReference ofLattice(MazeLattice lattice, List<Cell> solution) throws MazeReferenceException {
        return build(lattice, solution, null, null, lattice.rows(), lattice.cols());
    }

    static MazeLattice latticeFrom(MazeCanvas problem, int rows, int cols) throws MazeReferenceException {
        List<String> lines = new ArrayList<>();
        for (int r = 0; r < 2 * rows + 1; r++) {
            StringBuilder sb = new StringBuilder();
            for (int c = 0; c < 2 * cols + 1; c++) {
                boolean wall = MazeCanvas.blockCoverage(problem.walls(), r, c) >= 0.5;
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

    static List<Cell> solutionFrom(MazeCanvas image, MazeLattice lattice) throws MazeReferenceException {
        Mask onPath = image.path().or(image.start()).or(image.target());
        double[] s = image.start().largestComponent().centroid();
        double[] t = image.target().largestComponent().centroid();
        if (s == null || t == null) {
            throw new MazeReferenceException("the solution image shows no " + (s == null ? "green start" : "red target") + " square");
        }
        Cell start = cellAt(s);
        Cell target = cellAt(t);
        if (!lattice.contains(start) || !lattice.contains(target)) {
            throw new MazeReferenceException("the solution image's start or target lies outside the maze");
        }
        // walk the blue blocks from start to target (BFS over blocks at least 30 % blue)
        int lr = lattice.latticeRows();
        int lc = lattice.latticeCols();
        boolean[][] on = new boolean[lr][lc];
        for (int r = 0; r < lr; r++) {
            for (int c = 0; c < lc; c++) {
                on[r][c] = MazeCanvas.blockCoverage(onPath, r, c) >= 0.3;
            }
        }
        on[start.latticeRow()][start.latticeCol()] = true;
        on[target.latticeRow()][target.latticeCol()] = true;
        int[] prev = new int[lr * lc];
        Arrays.fill(prev, -2);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        int from = start.latticeRow() * lc + start.latticeCol();
        int to = target.latticeRow() * lc + target.latticeCol();
        prev[from] = -1;
        queue.add(from);
        while (!queue.isEmpty() && prev[to] == -2) {
            int b = queue.poll();
            int r = b / lc;
            int c = b % lc;
            for (int[] d : new int[][] {{-1, 0}, {1, 0}, {0, -1}, {0, 1}}) {
                int nr = r + d[0];
                int nc = c + d[1];
                if (nr >= 0 && nc >= 0 && nr < lr && nc < lc && on[nr][nc] && lattice.isOpen(nr, nc)
                        && prev[nr * lc + nc] == -2) {
                    prev[nr * lc + nc] = b;
                    queue.add(nr * lc + nc);
                }
            }
        }
        if (prev[to] == -2) {
            throw new MazeReferenceException("the solution image's blue path does not join start and target");
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
