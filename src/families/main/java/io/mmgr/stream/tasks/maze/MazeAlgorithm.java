package io.mmgr.stream.tasks.maze;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Perfect-maze generators, the two MMGR draws from maze-dataset (understanding-search/maze-dataset,
 * maze_dataset/generation/generators.py: {@code gen_dfs}, {@code gen_wilson}). Both yield spanning
 * trees, so every start/target pair has exactly one solution.
 */
public enum MazeAlgorithm {

    /** Randomised depth-first search (recursive backtracker): long corridors, few branches. */
    DFS {
        @Override
        public MazeLattice generate(int rows, int cols, Random random) {
            MazeLattice.Builder b = MazeLattice.closed(rows, cols);
            boolean[][] seen = new boolean[rows][cols];
            List<Cell> stack = new ArrayList<>();
            Cell start = new Cell(random.nextInt(rows), random.nextInt(cols));
            seen[start.row()][start.col()] = true;
            stack.add(start);
            while (!stack.isEmpty()) {
                Cell c = stack.get(stack.size() - 1);
                List<Cell> fresh = new ArrayList<>(4);
                for (Cell n : gridNeighbours(c, rows, cols)) {
                    if (!seen[n.row()][n.col()]) {
                        fresh.add(n);
                    }
                }
                if (fresh.isEmpty()) {
                    stack.remove(stack.size() - 1);
                    continue;
                }
                Cell n = fresh.get(random.nextInt(fresh.size()));
                b.connect(c, n);
                seen[n.row()][n.col()] = true;
                stack.add(n);
            }
            return b.build();
        }
    },

    /** Wilson's loop-erased random walks: a uniform spanning tree, many short dead ends. */
    WILSON {
        @Override
        public MazeLattice generate(int rows, int cols, Random random) {
            MazeLattice.Builder b = MazeLattice.closed(rows, cols);
            boolean[][] inTree = new boolean[rows][cols];
            int[][] next = new int[rows][cols]; // direction index taken last from each cell during a walk
            inTree[random.nextInt(rows)][random.nextInt(cols)] = true;
            int remaining = rows * cols - 1;
            int[][] dirs = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
            while (remaining > 0) {
                Cell walkStart;
                do {
                    walkStart = new Cell(random.nextInt(rows), random.nextInt(cols));
                } while (inTree[walkStart.row()][walkStart.col()]);
                // random walk until the tree is hit; overwriting directions erases loops
                Cell c = walkStart;
                while (!inTree[c.row()][c.col()]) {
                    int d;
                    Cell n;
                    do {
                        d = random.nextInt(4);
                        n = new Cell(c.row() + dirs[d][0], c.col() + dirs[d][1]);
                    } while (n.row() < 0 || n.col() < 0 || n.row() >= rows || n.col() >= cols);
                    next[c.row()][c.col()] = d;
                    c = n;
                }
                c = walkStart;
                while (!inTree[c.row()][c.col()]) {
                    int d = next[c.row()][c.col()];
                    Cell n = new Cell(c.row() + dirs[d][0], c.col() + dirs[d][1]);
                    b.connect(c, n);
                    inTree[c.row()][c.col()] = true;
                    remaining--;
                    c = n;
                }
            }
            return b.build();
        }
    };

    public abstract MazeLattice generate(int rows, int cols, Random random);

    static List<Cell> gridNeighbours(Cell c, int rows, int cols) {
        List<Cell> out = new ArrayList<>(4);
        if (c.row() > 0) {
            out.add(new Cell(c.row() - 1, c.col()));
        }
        if (c.row() < rows - 1) {
            out.add(new Cell(c.row() + 1, c.col()));
        }
        if (c.col() > 0) {
            out.add(new Cell(c.row(), c.col() - 1));
        }
        if (c.col() < cols - 1) {
            out.add(new Cell(c.row(), c.col() + 1));
        }
        return out;
    }
}
