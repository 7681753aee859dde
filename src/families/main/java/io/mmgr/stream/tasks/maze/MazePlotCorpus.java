package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.MediaException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;

/**
 * Maze video answers with known verdicts in maze-dataset's look ({@link MazePlotLook}), each with its
 * reference given as structure only (maze-dataset's {@code SolvedMaze} fields, no image): 3x3 to 8x8
 * mazes as MiniVeo3-Reasoner draws them, right answers next to an agent that stops short, one that never
 * moves, one that slides through walls and walls that dissolve mid-video. Half the cases name the marker
 * roles (blue star agent, green start, red target), half leave the agent to be found as the marker
 * that moves.
 */
public final class MazePlotCorpus {

    /** The kinds of answer; only the right one passes the gate. */
    public enum Kind {
        CORRECT,
        /** Walks about 60 % of the solution and stops. */
        STOPS_SHORT,
        /** The star stays on the start disc. */
        NEVER_MOVES,
        /** A straight route that ignores walls, crossing often enough for the 5 % rule. */
        THROUGH_WALL,
        /** The right route, while inner walls (and then their posts) disappear from frame 30 on. */
        WALLS_DISSOLVE
    }

    public static final String STYLE = "video-mazeplot-miniveo3";

    private MazePlotCorpus() {
    }

    /**
     * The icons' colours, and the roles an item names for them: all of them, or ("found") only what
     * cannot be found from the video. A black marker is always named: unnamed, black is the walls'.
     */
    public enum Markers {
        /** MiniVeo3-Reasoner's: green disc, blue star, red flag (named, or the agent found as the marker that moves). */
        MINIVEO3("", MazePlotLook.Icons.MINIVEO3, "agent=blue,start=green,target=red", ""),
        /** A black star. */
        BLACK_AGENT("-black-agent", new MazePlotLook.Icons(MazePlotLook.DISC, java.awt.Color.BLACK, MazePlotLook.FLAG,
                MazePlotLook.TROPHY), "agent=black,start=green,target=red", "agent=black"),
        /** A black flag turning into a black trophy (the star then found as the marker that moves). */
        BLACK_TARGET("-black-target", new MazePlotLook.Icons(MazePlotLook.DISC, MazePlotLook.STAR, java.awt.Color.BLACK,
                java.awt.Color.BLACK), "agent=blue,start=green,target=black", "target=black");

        private final String suffix;
        private final MazePlotLook.Icons icons;
        /** The roles as an item names them ({@code --markers}): all of them, or only what the video cannot show. */
        private final String named;
        private final String found;

        Markers(String suffix, MazePlotLook.Icons icons, String named, String found) {
            this.suffix = suffix;
            this.icons = icons;
            this.named = named;
            this.found = found;
        }

        /** The style's name in tables and case ids. */
        public String style() {
            return STYLE + suffix;
        }
    }

    /**
     * One answer: the problem (its structure is the reference), the route the star walks, the wall
     * blocks that dissolve, whether the item names the marker roles, and the icons' colours.
     */
    public record Case(String id, Kind kind, MazeProblem problem, List<Cell> route, List<long[]> dissolving,
                       boolean rolesGiven, Markers markers) {

        public boolean passes() {
            return kind == Kind.CORRECT;
        }

        public MarkerRoles roles() {
            return MarkerRoles.parse(markersSpec());
        }

        /** The roles as {@code --markers} takes them ("" when none are named). */
        public String markersSpec() {
            return rolesGiven ? markers.named : markers.found;
        }

        public void writeVideo(Path file) throws MediaException {
            MazePlotLook.video(problem.lattice(), problem.start(), problem.target(), route, dissolving,
                    kind == Kind.WALLS_DISSOLVE ? 30 : -1, markers.icons, file);
        }
    }

    public static List<Case> cases(int count, long seed) {
        return cases(count, seed, Markers.MINIVEO3);
    }

    /** As {@link #cases(int, long)}, the icons in {@code markers}' colours. */
    public static List<Case> cases(int count, long seed, Markers markers) {
        Random random = new Random(seed);
        List<Case> out = new ArrayList<>(count);
        Kind[] kinds = Kind.values();
        for (int i = 0; i < count; i++) {
            Kind kind = kinds[i % kinds.length];
            out.add(draw(String.format(Locale.ROOT, "%s-%04d-%s", markers.style(), i + 1, kind.name().toLowerCase(Locale.ROOT)),
                    kind, 3 + (i / kinds.length + i) % 6, (i / kinds.length) % 2 == 0, markers, random));
        }
        return out;
    }

    /**
     * Writes {@code count} video answers in this look, spread over the marker colours of {@link Markers}
     * in turn, each with its maze as structure ({@code <id>-maze.json}, maze-dataset's names), and
     * {@code cases.jsonl}: one {@code eval maze --batch} case per line ({@code id, maze, output, model},
     * {@code markers} where the item names roles) with the known verdict ({@code expected}: 1 pass, 0
     * fail) and the style.
     */
    public static Path write(Path dir, int count, long seed) throws java.io.IOException {
        java.nio.file.Files.createDirectories(dir);
        Path cases = dir.resolve("cases.jsonl");
        Markers[] all = Markers.values();
        try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(cases, java.nio.charset.StandardCharsets.UTF_8)) {
            for (int m = 0; m < all.length; m++) {
                int n = count / all.length + (m < count % all.length ? 1 : 0);
                for (Case c : n == 0 ? List.<Case>of() : cases(n, seed, all[m])) {
                    Path maze = dir.resolve(c.id() + "-maze.json");
                    Path video = dir.resolve(c.id() + ".mp4");
                    java.nio.file.Files.writeString(maze, MazeStructure.of(c.problem()).toJson().toString());
                    try {
                        c.writeVideo(video);
                    } catch (MediaException e) {
                        throw new java.io.IOException("cannot encode " + video + ": " + e.getMessage(), e);
                    }
                    java.util.Map<String, Object> line = new java.util.LinkedHashMap<>();
                    line.put("id", c.id());
                    line.put("maze", maze.toAbsolutePath().toString());
                    line.put("output", video.toAbsolutePath().toString());
                    line.put("model", "wan");
                    if (!c.markersSpec().isEmpty()) {
                        line.put("markers", MarkerRoles.split(c.markersSpec()));
                    }
                    line.put("expected", c.passes() ? 1 : 0);
                    line.put("style", all[m].style());
                    w.write(io.mmgr.stream.json.JsonAvro.MAPPER.writeValueAsString(line));
                    w.write('\n');
                }
            }
        }
        return cases;
    }

    private static Case draw(String id, Kind kind, int size, boolean rolesGiven, Markers markers, Random random) {
        for (int attempt = 0; attempt < 1000; attempt++) {
            MazeAlgorithm algorithm = MazeAlgorithm.values()[random.nextInt(MazeAlgorithm.values().length)];
            Placement placement = Placement.values()[random.nextInt(Placement.values().length)];
            MazeProblem p = MazeProblem.generate(size, size, algorithm, placement, random);
            List<Cell> sol = p.solution();
            if (sol.size() < 4) {
                continue;
            }
            Optional<List<Cell>> route = switch (kind) {
                case CORRECT, WALLS_DISSOLVE -> Optional.of(sol);
                case STOPS_SHORT -> Optional.of(sol.subList(0, Math.max(2, (int) Math.floor(0.6 * sol.size()))));
                case NEVER_MOVES -> Optional.of(List.of(p.start()));
                case THROUGH_WALL -> Scenario.of(Fault.WALL_CROSSING, p, random).map(Scenario::route)
                        .filter(r -> Scenario.crossings(p.lattice(), r) * 5 >= 2 * (r.size() - 1));
            };
            if (route.isPresent()) {
                List<long[]> dissolving = kind == Kind.WALLS_DISSOLVE ? dissolving(p.lattice(), random) : List.of();
                return new Case(id, kind, p, route.get(), dissolving, rolesGiven, markers);
            }
        }
        throw new IllegalStateException("no " + size + "x" + size + " maze could host " + kind);
    }

    /**
     * Inner wall blocks in the order they disappear: the segments between cells first, then the posts,
     * as many as {@code MAZE_ALTERED} erases (30 % of the wall blocks, and one more).
     */
    private static List<long[]> dissolving(MazeLattice lattice, Random random) {
        List<long[]> segments = new ArrayList<>();
        List<long[]> posts = new ArrayList<>();
        int walls = 0;
        for (int r = 0; r < lattice.latticeRows(); r++) {
            for (int c = 0; c < lattice.latticeCols(); c++) {
                if (lattice.isOpen(r, c)) {
                    continue;
                }
                walls++;
                if (r > 0 && c > 0 && r < lattice.latticeRows() - 1 && c < lattice.latticeCols() - 1) {
                    ((r + c) % 2 == 1 ? segments : posts).add(new long[] {r, c});
                }
            }
        }
        Collections.shuffle(segments, random);
        Collections.shuffle(posts, random);
        List<long[]> out = new ArrayList<>(segments);
        out.addAll(posts);
        return out.subList(0, Math.min(out.size(), (int) Math.ceil(0.3 * walls) + 1));
    }
}
