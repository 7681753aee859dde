package io.mmgr.stream.tasks.maze;

import java.util.ArrayList;
import java.util.List;

/**
 * How a picture places a maze given as structure: row 0 at the top (MMGR's images, maze-dataset's
 * {@code as_pixels}) or at the bottom (maze-dataset's {@code MazePlot} once an icon is drawn with an
 * extent, which turns matplotlib's y axis upright), mirrored, turned, or with rows and columns swapped.
 * Each maps a cell of the structure to the cell the picture shows it in, read with row 0 at the top.
 */
public enum MazeOrientation {
    AS_GIVEN(false, false, false),
    ROW_ZERO_AT_BOTTOM(true, false, false),
    MIRRORED(false, true, false),
    TURNED_HALF(true, true, false),
    TRANSPOSED(false, false, true),
    TRANSPOSED_ROW_ZERO_AT_BOTTOM(true, false, true),
    TRANSPOSED_MIRRORED(false, true, true),
    TRANSPOSED_TURNED_HALF(true, true, true);

    private final boolean flipRows;
    private final boolean flipCols;
    private final boolean transpose;

    MazeOrientation(boolean flipRows, boolean flipCols, boolean transpose) {
        this.flipRows = flipRows;
        this.flipCols = flipCols;
        this.transpose = transpose;
    }

    /** The orientations a rows x cols picture may use (a non-square maze keeps its shape: no transposes). */
    public static List<MazeOrientation> candidates(int rows, int cols) {
        List<MazeOrientation> out = new ArrayList<>();
        for (MazeOrientation o : values()) {
            if (!o.transpose || rows == cols) {
                out.add(o);
            }
        }
        return out;
    }

    /** Position {@code (r, c)} of an {@code n x m} grid as the picture shows it. */
    private int[] map(int r, int c, int n, int m) {
        int rr = flipRows ? n - 1 - r : r;
        int cc = flipCols ? m - 1 - c : c;
        return transpose ? new int[] {cc, rr} : new int[] {rr, cc};
    }

    public Cell apply(Cell cell, int rows, int cols) {
        int[] p = map(cell.row(), cell.col(), rows, cols);
        return new Cell(p[0], p[1]);
    }

    public List<Cell> apply(List<Cell> route, int rows, int cols) {
        return route.stream().map(c -> apply(c, rows, cols)).toList();
    }

    /** The lattice as the picture shows it (the lattice rules are kept by every orientation). */
    public MazeLattice apply(MazeLattice lattice) {
        int n = lattice.latticeRows();
        int m = lattice.latticeCols();
        boolean[][] open = transpose ? new boolean[m][n] : new boolean[n][m];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < m; c++) {
                int[] p = map(r, c, n, m);
                open[p[0]][p[1]] = lattice.isOpen(r, c);
            }
        }
        return transpose ? MazeLattice.unchecked(open, lattice.cols(), lattice.rows())
                : MazeLattice.unchecked(open, lattice.rows(), lattice.cols());
    }

    /** The inverse: a cell as the picture shows it back to the structure's cell. */
    public Cell invert(Cell shown, int rows, int cols) {
        // flips are their own inverse; with a transpose the picture's grid is cols x rows
        int r = transpose ? shown.col() : shown.row();
        int c = transpose ? shown.row() : shown.col();
        return new Cell(flipRows ? rows - 1 - r : r, flipCols ? cols - 1 - c : c);
    }
}
