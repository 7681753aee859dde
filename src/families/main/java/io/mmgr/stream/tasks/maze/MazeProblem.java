package io.mmgr.stream.tasks.maze;

import java.util.List;
import java.util.Random;

/**
 * One maze problem: the lattice, start and target cells and the (unique) solution from start to target.
 */
public record MazeProblem(MazeLattice lattice, Cell start, Cell target, List<Cell> solution,
                          MazeAlgorithm algorithm, Placement placement) {

    public MazeProblem {
        solution = List.copyOf(solution);
        if (solution.size() < 2 || !solution.get(0).equals(start) || !solution.get(solution.size() - 1).equals(target)) {
            throw new IllegalArgumentException("solution must run from start " + start + " to target " + target);
        }
        for (int i = 1; i < solution.size(); i++) {
            if (!lattice.connected(solution.get(i - 1), solution.get(i))) {
                throw new IllegalArgumentException("solution steps through a wall between "
                        + solution.get(i - 1) + " and " + solution.get(i));
            }
        }
    }

    public int rows() {
        return lattice.rows();
    }

    public int cols() {
        return lattice.cols();
    }

    /** Draws a perfect maze of the given size and places start and target. */
    public static MazeProblem generate(int rows, int cols, MazeAlgorithm algorithm, Placement placement, Random random) {
        MazeLattice lattice = algorithm.generate(rows, cols, random);
        Cell[] ends = placement.choose(lattice, random);
        List<Cell> solution = lattice.shortestPath(ends[0], ends[1]);
        return new MazeProblem(lattice, ends[0], ends[1], solution, algorithm, placement);
    }

    /** Solution as [[row, col], ...] for the benchmark item's ground truth. */
    public List<List<Integer>> solutionAsLists() {
        return solution.stream().map(c -> List.of(c.row(), c.col())).toList();
    }
}
