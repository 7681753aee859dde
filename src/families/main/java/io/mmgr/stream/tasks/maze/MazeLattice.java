package io.mmgr.stream.tasks.maze;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A maze of {@code rows x cols} cells as a {@code (2 rows + 1) x (2 cols + 1)} block lattice, the
 * convention of maze-dataset's pixel grids (understanding-search/maze-dataset,
 * maze_dataset/maze/lattice_maze.py, {@code _as_pixels_bw}): cells sit at odd/odd blocks, the blocks
 * between two cells are open when the cells connect, every even/even block and the border are walls.
 * Immutable.
 */
public final class MazeLattice {

    public static final char WALL = '#';
    public static final char OPEN = '.';

    private final int rows;
    private final int cols;
    private final boolean[][] open;

    private MazeLattice(int rows, int cols, boolean[][] open) {
        this.rows = rows;
        this.cols = cols;
        this.open = open;
    }

    /** A lattice with every wall standing (no cell connects). */
    public static Builder closed(int rows, int cols) {
        return new Builder(rows, cols);
    }

    /** Parses {@code 2 rows + 1} strings of '#' (wall) and '.' (passage), checking the lattice rules. */
    public static MazeLattice parse(List<String> lines, int rows, int cols) {
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("maze needs at least one row and column, got " + rows + "x" + cols);
        }
        if (lines == null || lines.size() != 2 * rows + 1) {
            throw new IllegalArgumentException("maze lattice must have " + (2 * rows + 1) + " lines for "
                    + rows + " rows, got " + (lines == null ? 0 : lines.size()));
        }
        boolean[][] open = new boolean[2 * rows + 1][2 * cols + 1];
        for (int r = 0; r < open.length; r++) {
            String line = lines.get(r);
            if (line.length() != 2 * cols + 1) {
                throw new IllegalArgumentException("maze lattice line " + r + " must have " + (2 * cols + 1)
                        + " characters, got " + line.length());
            }
            for (int c = 0; c < line.length(); c++) {
                char ch = line.charAt(c);
                if (ch != WALL && ch != OPEN) {
                    throw new IllegalArgumentException("maze lattice may hold only '#' and '.', found '" + ch + "'");
                }
                open[r][c] = ch == OPEN;
            }
        }
        MazeLattice lattice = new MazeLattice(rows, cols, open);
        lattice.checkRules();
        return lattice;
    }

    /** A block grid without the lattice rules, for drawing deliberately broken mazes in tests. */
    static MazeLattice unchecked(boolean[][] open, int rows, int cols) {
        boolean[][] copy = new boolean[open.length][];
        for (int i = 0; i < open.length; i++) {
            copy[i] = open[i].clone();
        }
        return new MazeLattice(rows, cols, copy);
    }

    private void checkRules() {
        for (int r = 0; r < open.length; r++) {
            for (int c = 0; c < open[0].length; c++) {
                boolean border = r == 0 || c == 0 || r == open.length - 1 || c == open[0].length - 1;
                boolean corner = r % 2 == 0 && c % 2 == 0;
                boolean cell = r % 2 == 1 && c % 2 == 1;
                if ((border || corner) && open[r][c]) {
                    throw new IllegalArgumentException("maze lattice block (" + r + "," + c + ") must be a wall");
                }
                if (cell && !open[r][c]) {
                    throw new IllegalArgumentException("maze lattice cell block (" + r + "," + c + ") must be open");
                }
            }
        }
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public int latticeRows() {
        return 2 * rows + 1;
    }

    public int latticeCols() {
        return 2 * cols + 1;
    }

    /** Whether a lattice block is a passage. */
    public boolean isOpen(int latticeRow, int latticeCol) {
        return open[latticeRow][latticeCol];
    }

    public boolean contains(Cell c) {
        return c.row() >= 0 && c.col() >= 0 && c.row() < rows && c.col() < cols;
    }

    /** Whether two orthogonally adjacent cells are joined by an open block. */
    public boolean connected(Cell a, Cell b) {
        if (a.manhattan(b) != 1 || !contains(a) || !contains(b)) {
            return false;
        }
        return open[a.latticeRow() + b.row() - a.row()][a.latticeCol() + b.col() - a.col()];
    }

    public List<Cell> neighbours(Cell c) {
        List<Cell> out = new ArrayList<>(4);
        for (int[] d : new int[][] {{-1, 0}, {1, 0}, {0, -1}, {0, 1}}) {
            Cell n = new Cell(c.row() + d[0], c.col() + d[1]);
            if (connected(c, n)) {
                out.add(n);
            }
        }
        return out;
    }

    /** Shortest route between two cells through open blocks (BFS), or an empty list if none. */
    public List<Cell> shortestPath(Cell from, Cell to) {
        int[] prev = new int[rows * cols];
        Arrays.fill(prev, -2);
        ArrayDeque<Cell> queue = new ArrayDeque<>();
        prev[from.row() * cols + from.col()] = -1;
        queue.add(from);
        while (!queue.isEmpty()) {
            Cell c = queue.poll();
            if (c.equals(to)) {
                List<Cell> path = new ArrayList<>();
                for (int i = c.row() * cols + c.col(); i != -1; i = prev[i]) {
                    path.add(new Cell(i / cols, i % cols));
                }
                Collections.reverse(path);
                return path;
            }
            for (Cell n : neighbours(c)) {
                int i = n.row() * cols + n.col();
                if (prev[i] == -2) {
                    prev[i] = c.row() * cols + c.col();
                    queue.add(n);
                }
            }
        }
        return List.of();
    }

    /** BFS distances in steps from a cell (-1 where unreachable). */
    public int[][] distancesFrom(Cell from) {
        int[][] dist = new int[rows][cols];
        for (int[] row : dist) {
            Arrays.fill(row, -1);
        }
        ArrayDeque<Cell> queue = new ArrayDeque<>();
        dist[from.row()][from.col()] = 0;
        queue.add(from);
        while (!queue.isEmpty()) {
            Cell c = queue.poll();
            for (Cell n : neighbours(c)) {
                if (dist[n.row()][n.col()] < 0) {
                    dist[n.row()][n.col()] = dist[c.row()][c.col()] + 1;
                    queue.add(n);
                }
            }
        }
        return dist;
    }

    /** Number of open connector blocks (edges of the cell graph). */
    public int passages() {
        int n = 0;
        for (int r = 0; r < open.length; r++) {
            for (int c = 0; c < open[0].length; c++) {
                if (open[r][c] && (r + c) % 2 == 1) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * A perfect maze: connected and acyclic (a spanning tree of the cell grid), so every pair of cells
     * has exactly one route - the uniqueness MMGR's mazes rely on.
     */
    public boolean isPerfect() {
        if (passages() != rows * cols - 1) {
            return false;
        }
        for (int[] row : distancesFrom(new Cell(0, 0))) {
            for (int d : row) {
                if (d < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Cells with exactly one open neighbour. */
    public List<Cell> deadEnds() {
        List<Cell> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                Cell cell = new Cell(r, c);
                if (neighbours(cell).size() == 1) {
                    out.add(cell);
                }
            }
        }
        return out;
    }

    public List<String> toStrings() {
        List<String> out = new ArrayList<>(open.length);
        for (boolean[] row : open) {
            StringBuilder sb = new StringBuilder(row.length);
            for (boolean o : row) {
                sb.append(o ? OPEN : WALL);
            }
            out.add(sb.toString());
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MazeLattice m && m.rows == rows && m.cols == cols && Arrays.deepEquals(m.open, open);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(open);
    }

    @Override
    public String toString() {
        return String.join("\n", toStrings());
    }

    /** Carves passages into an all-walls lattice. */
    public static final class Builder {
        private final int rows;
        private final int cols;
        private final boolean[][] open;

        Builder(int rows, int cols) {
            if (rows < 1 || cols < 1) {
                throw new IllegalArgumentException("maze needs at least one row and column");
            }
            this.rows = rows;
            this.cols = cols;
            this.open = new boolean[2 * rows + 1][2 * cols + 1];
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    open[2 * r + 1][2 * c + 1] = true;
                }
            }
        }

        /** Opens the wall between two adjacent cells. */
        public Builder connect(Cell a, Cell b) {
            if (a.manhattan(b) != 1) {
                throw new IllegalArgumentException(a + " and " + b + " are not adjacent");
            }
            open[a.latticeRow() + b.row() - a.row()][a.latticeCol() + b.col() - a.col()] = true;
            return this;
        }

        public MazeLattice build() {
            boolean[][] copy = new boolean[open.length][];
            for (int i = 0; i < open.length; i++) {
                copy[i] = open[i].clone();
            }
            return new MazeLattice(rows, cols, copy);
        }
    }
}
