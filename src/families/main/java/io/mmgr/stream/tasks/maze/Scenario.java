package io.mmgr.stream.tasks.maze;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * A simulated answer to a maze problem with its known truth: what is drawn (walls, target square,
 * route) and facts computed from the construction itself (never from the evaluator): how many
 * walls the route steps through, how many solution cells it visits, how long it is, how much of the
 * wall layout survives.
 */
public record Scenario(Fault fault, MazeProblem problem, MazeLattice drawnLattice, Cell drawnStart, Cell drawnTarget,
                       List<Cell> route, int wallsCrossed, int solutionCellsVisited, double blockLayoutIou) {

    /** Builds the scenario, or empty when this maze cannot host the fault (e.g. no side branch). */
    public static Optional<Scenario> of(Fault fault, MazeProblem p, Random random) {
        List<Cell> sol = p.solution();
        MazeLattice lattice = p.lattice();
        Cell target = p.target();
        Cell start = p.start();
        List<Cell> route;
        MazeLattice drawn = lattice;
        switch (fault) {
            case CORRECT -> route = sol;
            case NO_PATH -> route = List.of(p.start());
            case INCOMPLETE -> {
                if (sol.size() < 5) {
                    return Optional.empty();
                }
                route = sol.subList(0, (int) Math.round(sol.size() * 0.6));
            }
            case WALL_CROSSING -> {
                route = manhattan(p.start(), target, random.nextBoolean());
                int crossed = crossings(lattice, route);
                // a clear violation: at least one wall in every five steps
                if (crossed * 5 < route.size() - 1 || crossed == 0) {
                    route = manhattan(p.start(), target, !isRowFirst(route));
                    crossed = crossings(lattice, route);
                    if (crossed * 5 < route.size() - 1 || crossed == 0) {
                        return Optional.empty();
                    }
                }
            }
            case DEAD_END -> {
                Optional<List<Cell>> r = deadEndRoute(lattice, sol);
                if (r.isEmpty()) {
                    return Optional.empty();
                }
                route = r.get();
            }
            case DETOUR -> {
                Optional<List<Cell>> r = detourRoute(lattice, sol);
                if (r.isEmpty()) {
                    return Optional.empty();
                }
                route = r.get();
            }
            case MAZE_ALTERED -> {
                route = sol;
                drawn = eraseInnerWalls(lattice, sol, random);
            }
            case TARGET_MOVED -> {
                Optional<Cell> t = movedTarget(lattice, sol, random);
                if (t.isEmpty()) {
                    return Optional.empty();
                }
                target = t.get();
                route = lattice.shortestPath(p.start(), target);
            }
            case TARGET_MOVED_PAST -> {
                Optional<List<Cell>> ext = extension(lattice, sol, sol.get(sol.size() - 1), sol.get(sol.size() - 2));
                if (ext.isEmpty()) {
                    return Optional.empty();
                }
                route = new ArrayList<>(sol);
                route.addAll(ext.get());
                target = route.get(route.size() - 1);
            }
            case START_MOVED -> {
                Optional<List<Cell>> ext = extension(lattice, sol, sol.get(0), sol.get(1));
                if (ext.isEmpty()) {
                    return Optional.empty();
                }
                List<Cell> before = new ArrayList<>(ext.get());
                java.util.Collections.reverse(before);
                route = new ArrayList<>(before);
                route.addAll(sol);
                start = route.get(0);
            }
            default -> throw new IllegalStateException();
        }
        Set<Cell> solCells = new HashSet<>(sol);
        int visited = (int) route.stream().distinct().filter(solCells::contains).count();
        return Optional.of(new Scenario(fault, p, drawn, start, target, List.copyOf(route), crossings(lattice, route), visited,
                blockIou(lattice, drawn)));
    }

    public double solutionCoverage() {
        return solutionCellsVisited / (double) problem.solution().size();
    }

    /** Route length in steps over the solution's. */
    public double stepRatio() {
        return (route.size() - 1) / (double) (problem.solution().size() - 1);
    }

    /** Distinct blocks of the drawn route (endpoint cells aside) over the solution's 2n - 3. */
    public double blockRatio() {
        Set<List<Integer>> blocks = new HashSet<>();
        for (int[] b : MazeReference.solutionBlocks(route)) {
            blocks.add(List.of(b[0], b[1]));
        }
        blocks.remove(List.of(problem.start().latticeRow(), problem.start().latticeCol()));
        blocks.remove(List.of(problem.target().latticeRow(), problem.target().latticeCol()));
        return blocks.size() / (double) (2 * problem.solution().size() - 3);
    }

    public boolean backtracks() {
        return route.size() != new HashSet<>(route).size();
    }

    static List<Cell> manhattan(Cell a, Cell b, boolean rowFirst) {
        List<Cell> out = new ArrayList<>();
        int r = a.row();
        int c = a.col();
        out.add(a);
        if (rowFirst) {
            while (c != b.col()) {
                c += Integer.signum(b.col() - c);
                out.add(new Cell(r, c));
            }
        }
        while (r != b.row()) {
            r += Integer.signum(b.row() - r);
            out.add(new Cell(r, c));
        }
        while (c != b.col()) {
            c += Integer.signum(b.col() - c);
            out.add(new Cell(r, c));
        }
        return out;
    }

    private static boolean isRowFirst(List<Cell> route) {
        return route.size() > 1 && route.get(1).row() == route.get(0).row();
    }

    static int crossings(MazeLattice lattice, List<Cell> route) {
        int n = 0;
        for (int i = 1; i < route.size(); i++) {
            if (!route.get(i - 1).equals(route.get(i)) && !lattice.connected(route.get(i - 1), route.get(i))) {
                n++;
            }
        }
        return n;
    }

    /**
     * One to three cells leading on from an end of the solution (away from its neighbour on the
     * solution), so a marker moved there is a full cell or more away; the route there stays short enough
     * to pass the 1.3x length rule, so only the marker check can catch it.
     */
    private static Optional<List<Cell>> extension(MazeLattice lattice, List<Cell> sol, Cell end, Cell inward) {
        Set<Cell> onSol = new HashSet<>(sol);
        List<Cell> out = new ArrayList<>();
        Cell at = end;
        Cell from = inward;
        int budget = Math.max(1, Math.min(3, (int) Math.floor(0.2 * (sol.size() - 1))));
        while (out.size() < budget) {
            Cell next = null;
            for (Cell n : lattice.neighbours(at)) {
                if (!n.equals(from) && !onSol.contains(n) && !out.contains(n)) {
                    next = n;
                    break;
                }
            }
            if (next == null) {
                break;
            }
            out.add(next);
            from = at;
            at = next;
        }
        return out.isEmpty() ? Optional.empty() : Optional.of(out);
    }

    /** The deepest side branch leaving the solution (cells, in walking order), for dead ends and detours. */
    private static List<List<Cell>> branches(MazeLattice lattice, List<Cell> sol) {
        Set<Cell> onSol = new HashSet<>(sol);
        List<List<Cell>> out = new ArrayList<>();
        for (int i = 0; i < sol.size() - 1; i++) {
            for (Cell n : lattice.neighbours(sol.get(i))) {
                if (onSol.contains(n)) {
                    continue;
                }
                // walk the subtree along its longest chain
                List<Cell> chain = longestChain(lattice, n, sol.get(i));
                List<Cell> withJunction = new ArrayList<>();
                withJunction.add(sol.get(i));
                withJunction.addAll(chain);
                out.add(withJunction);
            }
        }
        out.sort((x, y) -> y.size() - x.size());
        return out;
    }

    private static List<Cell> longestChain(MazeLattice lattice, Cell from, Cell parent) {
        List<Cell> best = new ArrayList<>();
        for (Cell n : lattice.neighbours(from)) {
            if (!n.equals(parent)) {
                List<Cell> sub = longestChain(lattice, n, from);
                if (sub.size() > best.size()) {
                    best = sub;
                }
            }
        }
        List<Cell> out = new ArrayList<>();
        out.add(from);
        out.addAll(best);
        return out;
    }

    private static Optional<List<Cell>> deadEndRoute(MazeLattice lattice, List<Cell> sol) {
        List<List<Cell>> b = branches(lattice, sol);
        if (b.isEmpty()) {
            return Optional.empty();
        }
        List<Cell> branch = b.get(0);
        int junction = sol.indexOf(branch.get(0));
        // must stop short enough that fewer than 95 % of solution cells are reached
        if (junction + 1 > 0.9 * sol.size()) {
            return Optional.empty();
        }
        List<Cell> route = new ArrayList<>(sol.subList(0, junction + 1));
        route.addAll(branch.subList(1, branch.size()));
        return Optional.of(route);
    }

    private static Optional<List<Cell>> detourRoute(MazeLattice lattice, List<Cell> sol) {
        List<List<Cell>> b = branches(lattice, sol);
        if (b.isEmpty()) {
            return Optional.empty();
        }
        List<Cell> branch = b.get(0);
        int depth = branch.size() - 1;
        // comfortably past 1.3x both in distinct blocks (images) and in steps walked (videos)
        if (2 * depth < 0.6 * (2 * sol.size() - 3)) {
            return Optional.empty();
        }
        int junction = sol.indexOf(branch.get(0));
        List<Cell> route = new ArrayList<>(sol.subList(0, junction + 1));
        route.addAll(branch.subList(1, branch.size()));
        for (int i = branch.size() - 2; i >= 0; i--) {
            route.add(branch.get(i));
        }
        route.addAll(sol.subList(junction + 1, sol.size()));
        return Optional.of(route);
    }

    private static Optional<Cell> movedTarget(MazeLattice lattice, List<Cell> sol, Random random) {
        Set<Cell> onSol = new HashSet<>(sol);
        List<Cell> candidates = new ArrayList<>();
        for (int r = 0; r < lattice.rows(); r++) {
            for (int c = 0; c < lattice.cols(); c++) {
                Cell t = new Cell(r, c);
                if (onSol.contains(t) || t.manhattan(sol.get(sol.size() - 1)) < 2) {
                    continue;
                }
                List<Cell> route = lattice.shortestPath(sol.get(0), t);
                long shared = route.stream().filter(onSol::contains).count();
                if (shared <= 0.8 * sol.size()) {
                    candidates.add(t);
                }
            }
        }
        return candidates.isEmpty() ? Optional.empty() : Optional.of(candidates.get(random.nextInt(candidates.size())));
    }

    /** Erases inner wall blocks (keeping the outer frame) until at most 70 % of the wall blocks remain. */
    private static MazeLattice eraseInnerWalls(MazeLattice lattice, List<Cell> sol, Random random) {
        List<String> lines = new ArrayList<>(lattice.toStrings());
        List<int[]> segments = new ArrayList<>();
        List<int[]> posts = new ArrayList<>();
        int walls = 0;
        for (int r = 0; r < lines.size(); r++) {
            for (int c = 0; c < lines.get(r).length(); c++) {
                if (lines.get(r).charAt(c) == MazeLattice.WALL) {
                    walls++;
                    if (r > 0 && c > 0 && r < lines.size() - 1 && c < lines.get(r).length() - 1) {
                        ((r + c) % 2 == 1 ? segments : posts).add(new int[] {r, c});
                    }
                }
            }
        }
        // wall segments between cells go first, the posts where they meet after: a thin-wall drawing has no
        // ink of its own for a post, so erasing posts while their segments stand would change nothing there
        java.util.Collections.shuffle(segments, random);
        java.util.Collections.shuffle(posts, random);
        List<int[]> inner = new ArrayList<>(segments);
        inner.addAll(posts);
        int toErase = Math.min(inner.size(), (int) Math.ceil(0.3 * walls) + 1);
        char[][] grid = new char[lines.size()][];
        for (int r = 0; r < lines.size(); r++) {
            grid[r] = lines.get(r).toCharArray();
        }
        for (int i = 0; i < toErase; i++) {
            grid[inner.get(i)[0]][inner.get(i)[1]] = MazeLattice.OPEN;
        }
        // corners may now be open, which the lattice rules forbid; the drawing uses it as a plain grid
        boolean[][] open = new boolean[grid.length][grid[0].length];
        for (int r = 0; r < grid.length; r++) {
            for (int c = 0; c < grid[r].length; c++) {
                open[r][c] = grid[r][c] == MazeLattice.OPEN;
            }
        }
        return MazeLattice.unchecked(open, lattice.rows(), lattice.cols());
    }

    static double blockIou(MazeLattice a, MazeLattice b) {
        int inter = 0;
        int union = 0;
        for (int r = 0; r < a.latticeRows(); r++) {
            for (int c = 0; c < a.latticeCols(); c++) {
                boolean wa = !a.isOpen(r, c);
                boolean wb = !b.isOpen(r, c);
                inter += wa && wb ? 1 : 0;
                union += wa || wb ? 1 : 0;
            }
        }
        return inter / (double) union;
    }
}
