package io.mmgr.stream.tasks.maze;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A solved maze given as structure in maze-dataset's own attribute names, as {@code SolvedMaze}'s fields
 * give them with {@code .tolist()} (understanding-search/maze-dataset, maze_dataset/maze/lattice_maze.py):
 * {@code grid_shape} [rows, cols]; {@code connection_list} [2][rows][cols] booleans, where [0][r][c]
 * connects (r, c) to (r + 1, c) and [1][r][c] connects (r, c) to (r, c + 1) (as {@code as_pixels} opens
 * the block below, {@code [2r + 2][2c + 1]}, and the block to the right, {@code [2r + 1][2c + 2]});
 * {@code start_pos} and {@code end_pos} [row, col]; {@code solution} a list of [row, col] from start to
 * end. Row 0 is the first row of the arrays: how a picture places it (top or bottom) is the
 * reference's business ({@link MazeOrientation}), not this format's.
 */
public record MazeStructure(MazeLattice lattice, List<Cell> solution) {

    /** Reads the structure; every error names the field and what is wrong with it. */
    public static MazeStructure parse(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException("maze structure must be a JSON object");
        }
        int[] shape = pair(json, "grid_shape");
        int rows = shape[0];
        int cols = shape[1];
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("maze 'grid_shape' must be positive, got [" + rows + ", " + cols + "]");
        }
        JsonNode conn = json.get("connection_list");
        if (conn == null || !conn.isArray() || conn.size() != 2) {
            throw new IllegalArgumentException("maze 'connection_list' must be [2][" + rows + "][" + cols + "] booleans");
        }
        MazeLattice.Builder b = MazeLattice.closed(rows, cols);
        for (int d = 0; d < 2; d++) {
            JsonNode plane = conn.get(d);
            if (!plane.isArray() || plane.size() != rows) {
                throw new IllegalArgumentException("maze 'connection_list'[" + d + "] must have " + rows + " rows");
            }
            for (int r = 0; r < rows; r++) {
                JsonNode row = plane.get(r);
                if (!row.isArray() || row.size() != cols) {
                    throw new IllegalArgumentException("maze 'connection_list'[" + d + "][" + r + "] must have " + cols + " entries");
                }
                for (int c = 0; c < cols; c++) {
                    JsonNode v = row.get(c);
                    if (!v.isBoolean() && !(v.isIntegralNumber() && (v.asInt() == 0 || v.asInt() == 1))) {
                        throw new IllegalArgumentException("maze 'connection_list'[" + d + "][" + r + "][" + c
                                + "] must be a boolean, got " + v);
                    }
                    if (!v.asBoolean()) {
                        continue;
                    }
                    Cell to = d == 0 ? new Cell(r + 1, c) : new Cell(r, c + 1);
                    if (to.row() >= rows || to.col() >= cols) {
                        throw new IllegalArgumentException("maze 'connection_list'[" + d + "][" + r + "][" + c
                                + "] connects " + new Cell(r, c) + " to " + to + ", outside the grid");
                    }
                    b.connect(new Cell(r, c), to);
                }
            }
        }
        MazeLattice lattice = b.build();
        JsonNode sol = json.get("solution");
        if (sol == null || !sol.isArray() || sol.size() < 2) {
            throw new IllegalArgumentException("maze 'solution' must list at least two [row, col] cells");
        }
        List<Cell> solution = new ArrayList<>();
        for (int i = 0; i < sol.size(); i++) {
            solution.add(cell(sol.get(i), "solution[" + i + "]"));
        }
        for (String endpoint : new String[] {"start_pos", "end_pos"}) {
            if (json.hasNonNull(endpoint)) {
                Cell c = cell(json.get(endpoint), endpoint);
                Cell expected = endpoint.equals("start_pos") ? solution.get(0) : solution.get(solution.size() - 1);
                if (!c.equals(expected)) {
                    throw new IllegalArgumentException("maze '" + endpoint + "' " + c + " is not the solution's "
                            + (endpoint.equals("start_pos") ? "first" : "last") + " cell " + expected);
                }
            }
        }
        return new MazeStructure(lattice, List.copyOf(solution));
    }

    private static int[] pair(JsonNode json, String field) {
        JsonNode v = json.get(field);
        if (v == null || !v.isArray() || v.size() != 2 || !v.get(0).isIntegralNumber() || !v.get(1).isIntegralNumber()) {
            throw new IllegalArgumentException("maze '" + field + "' must be two integers [row, col]");
        }
        return new int[] {v.get(0).asInt(), v.get(1).asInt()};
    }

    private static Cell cell(JsonNode v, String what) {
        if (v == null || !v.isArray() || v.size() != 2 || !v.get(0).isIntegralNumber() || !v.get(1).isIntegralNumber()) {
            throw new IllegalArgumentException("maze '" + what + "' must be [row, col] integers, got " + v);
        }
        return new Cell(v.get(0).asInt(), v.get(1).asInt());
    }

    /** A problem's structure (the benchmark's own lattice and solution, row 0 first). */
    public static MazeStructure of(MazeProblem p) {
        return new MazeStructure(p.lattice(), p.solution());
    }

    /** The structure in maze-dataset's names, as {@link #parse} reads it. */
    public com.fasterxml.jackson.databind.node.ObjectNode toJson() {
        var o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        o.putArray("grid_shape").add(rows()).add(cols());
        var conn = o.putArray("connection_list");
        for (int d = 0; d < 2; d++) {
            var plane = conn.addArray();
            for (int r = 0; r < rows(); r++) {
                var row = plane.addArray();
                for (int c = 0; c < cols(); c++) {
                    Cell to = d == 0 ? new Cell(r + 1, c) : new Cell(r, c + 1);
                    row.add(lattice.contains(to) && lattice.connected(new Cell(r, c), to));
                }
            }
        }
        Cell start = solution.get(0);
        Cell end = solution.get(solution.size() - 1);
        o.putArray("start_pos").add(start.row()).add(start.col());
        o.putArray("end_pos").add(end.row()).add(end.col());
        var sol = o.putArray("solution");
        solution.forEach(c -> sol.addArray().add(c.row()).add(c.col()));
        return o;
    }

    public int rows() {
        return lattice.rows();
    }

    public int cols() {
        return lattice.cols();
    }

    /** The solution as the item's {@code solutionPath}: [row, col] pairs. */
    public List<List<Integer>> solutionPath() {
        return solution.stream().map(c -> List.of(c.row(), c.col())).toList();
    }
}
