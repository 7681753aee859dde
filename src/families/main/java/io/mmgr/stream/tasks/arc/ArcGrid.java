package io.mmgr.stream.tasks.arc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An ARC grid: 1..30 rows and columns of symbols 0..9 (ARC-AGI's bounds). Immutable; rows are
 * copied in and out.
 */
public final class ArcGrid {

    /** ARC-AGI grids are at most 30x30. */
    public static final int MAX_SIDE = 30;

    private final int[][] cells;

    private ArcGrid(int[][] cells) {
        this.cells = cells;
    }

    /** A grid from rows of symbols; every row must have the same length. */
    public static ArcGrid of(int[][] rows) {
        if (rows == null || rows.length == 0) {
            throw new IllegalArgumentException("grid has no rows");
        }
        int cols = rows[0] == null ? 0 : rows[0].length;
        if (rows.length > MAX_SIDE || cols == 0 || cols > MAX_SIDE) {
            throw new IllegalArgumentException("grid must be 1..30 x 1..30, got " + rows.length + "x" + cols);
        }
        int[][] copy = new int[rows.length][];
        for (int r = 0; r < rows.length; r++) {
            if (rows[r] == null || rows[r].length != cols) {
                throw new IllegalArgumentException("grid row " + r + " has " + (rows[r] == null ? 0 : rows[r].length)
                        + " cells, row 0 has " + cols);
            }
            for (int c = 0; c < cols; c++) {
                if (rows[r][c] < 0 || rows[r][c] > 9) {
                    throw new IllegalArgumentException("grid cell (" + r + ", " + c + ") is " + rows[r][c]
                            + ", symbols are 0..9");
                }
            }
            copy[r] = rows[r].clone();
        }
        return new ArcGrid(copy);
    }

    /** A grid from nested lists (ARC-AGI JSON, Avro {@code groundTruth.grid}). */
    public static ArcGrid of(List<? extends List<Integer>> rows) {
        if (rows == null || rows.isEmpty()) {
            throw new IllegalArgumentException("grid has no rows");
        }
        int[][] a = new int[rows.size()][];
        for (int r = 0; r < rows.size(); r++) {
            List<Integer> row = rows.get(r);
            if (row == null) {
                throw new IllegalArgumentException("grid row " + r + " is missing");
            }
            a[r] = new int[row.size()];
            for (int c = 0; c < row.size(); c++) {
                Integer v = row.get(c);
                if (v == null) {
                    throw new IllegalArgumentException("grid cell (" + r + ", " + c + ") is missing");
                }
                a[r][c] = v;
            }
        }
        return of(a);
    }

    public int rows() {
        return cells.length;
    }

    public int cols() {
        return cells[0].length;
    }

    public int get(int row, int col) {
        return cells[row][col];
    }

    public int[][] toArray() {
        int[][] out = new int[cells.length][];
        for (int r = 0; r < cells.length; r++) {
            out[r] = cells[r].clone();
        }
        return out;
    }

    public List<List<Integer>> toLists() {
        List<List<Integer>> out = new ArrayList<>(cells.length);
        for (int[] row : cells) {
            List<Integer> l = new ArrayList<>(row.length);
            for (int v : row) {
                l.add(v);
            }
            out.add(l);
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArcGrid g && Arrays.deepEquals(cells, g.cells);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(cells);
    }

    /** Compact JSON-like text, e.g. {@code [[0,1],[2,3]]}, as ARC-AGI writes grids. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int r = 0; r < cells.length; r++) {
            if (r > 0) {
                sb.append(',');
            }
            sb.append('[');
            for (int c = 0; c < cells[r].length; c++) {
                if (c > 0) {
                    sb.append(',');
                }
                sb.append(cells[r][c]);
            }
            sb.append(']');
        }
        return sb.append(']').toString();
    }
}
