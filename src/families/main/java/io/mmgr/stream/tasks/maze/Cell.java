package io.mmgr.stream.tasks.maze;

/** A maze cell by row and column (0-based); its lattice block is {@code (2 row + 1, 2 col + 1)}. */
public record Cell(int row, int col) {

    public int latticeRow() {
        return 2 * row + 1;
    }

    public int latticeCol() {
        return 2 * col + 1;
    }

    public int manhattan(Cell other) {
        return Math.abs(row - other.row) + Math.abs(col - other.col);
    }

    @Override
    public String toString() {
        return "(" + row + "," + col + ")";
    }
}
