package io.mmgr.stream.tasks.maze;

import java.util.List;
import java.util.Random;

/**
 * Where start and target go. MMGR names four placements without defining them; these four follow
 * maze-dataset's endpoint options (maze_dataset/generation/generators.py, {@code get_maze_with_solution}
 * with random, dead-end and fixed endpoints) plus the farthest pair, which makes the longest problem.
 */
public enum Placement {
    /** Top-left cell to bottom-right cell. */
    CORNERS {
        @Override
        Cell[] choose(MazeLattice m, Random random) {
            return new Cell[] {new Cell(0, 0), new Cell(m.rows() - 1, m.cols() - 1)};
        }
    },
    /** Two distinct cells drawn uniformly. */
    RANDOM {
        @Override
        Cell[] choose(MazeLattice m, Random random) {
            Cell a = randomCell(m, random);
            Cell b;
            do {
                b = randomCell(m, random);
            } while (b.equals(a));
            return new Cell[] {a, b};
        }
    },
    /** Two distinct dead ends (every tree with 2+ cells has at least two). */
    DEAD_ENDS {
        @Override
        Cell[] choose(MazeLattice m, Random random) {
            List<Cell> ends = m.deadEnds();
            Cell a = ends.get(random.nextInt(ends.size()));
            Cell b;
            do {
                b = ends.get(random.nextInt(ends.size()));
            } while (b.equals(a));
            return new Cell[] {a, b};
        }
    },
    /** The two ends of the maze's longest route (BFS from a random cell, then from the farthest). */
    FARTHEST {
        @Override
        Cell[] choose(MazeLattice m, Random random) {
            Cell a = farthest(m, randomCell(m, random));
            Cell b = farthest(m, a);
            return random.nextBoolean() ? new Cell[] {a, b} : new Cell[] {b, a};
        }
    };

    abstract Cell[] choose(MazeLattice maze, Random random);

    static Cell randomCell(MazeLattice m, Random random) {
        return new Cell(random.nextInt(m.rows()), random.nextInt(m.cols()));
    }

    static Cell farthest(MazeLattice m, Cell from) {
        int[][] d = m.distancesFrom(from);
        Cell best = from;
        for (int r = 0; r < m.rows(); r++) {
            for (int c = 0; c < m.cols(); c++) {
                if (d[r][c] > d[best.row()][best.col()]) {
                    best = new Cell(r, c);
                }
            }
        }
        return best;
    }
}
