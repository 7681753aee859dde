package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;

/**
 * Maze answers with known verdicts, drawn in a given style: sizes over all three bands (3x3 to
 * 13x13), DFS and Wilson mazes, every placement, and every fault next to correct answers. The verdict
 * is known from the construction: only a correct answer passes the gate. Each case also carries its
 * reference, drawn either as the benchmark draws it ({@link MazeRenderer}, 512 px) or in the answer's
 * own style, since references come in any style too.
 */
public final class MazeAnswerCorpus {

    /** One in four answers is right; the others cycle through every fault. */
    static final Fault[] CYCLE = {Fault.CORRECT, Fault.WALL_CROSSING, Fault.INCOMPLETE, Fault.DEAD_END,
            Fault.CORRECT, Fault.DETOUR, Fault.MAZE_ALTERED, Fault.TARGET_MOVED, Fault.CORRECT,
            Fault.TARGET_MOVED_PAST, Fault.START_MOVED, Fault.NO_PATH};

    private MazeAnswerCorpus() {
    }

    /**
     * The colours a video answer draws its markers in, with the roles an item would name for them: MMGR's
     * green agent and red target, a black agent (its own start, as MMGR's), or a black target.
     */
    public enum Markers {
        MMGR(MazePalette.START_RGB, MazePalette.TARGET_RGB, MarkerRoles.MMGR),
        BLACK_AGENT(MazePalette.WALL_RGB, MazePalette.TARGET_RGB, MarkerRoles.parse("agent=black,start=black")),
        BLACK_TARGET(MazePalette.START_RGB, MazePalette.WALL_RGB, MarkerRoles.parse("target=black"));

        final int agentRgb;
        final int targetRgb;
        private final MarkerRoles roles;

        Markers(int agentRgb, int targetRgb, MarkerRoles roles) {
            this.agentRgb = agentRgb;
            this.targetRgb = targetRgb;
            this.roles = roles;
        }

        public MarkerRoles roles() {
            return roles;
        }

        /** What case ids and tables add to the style's name ("" for MMGR's). */
        public String suffix() {
            return this == MMGR ? "" : "-" + name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * @param referenceStyle the references' style, or null for the benchmark's own 512 px block drawing
     * @param markers        the video answer's marker colours (references keep MMGR's)
     */
    public record Case(String id, Scenario scenario, OutputStyle style, OutputStyle referenceStyle, boolean video,
                       Markers markers) {

        public MazeProblem problem() {
            return scenario.problem();
        }

        /** The style's name with the markers' ({@link Markers#suffix()}), for tables. */
        public String styleName() {
            return style.name() + markers.suffix();
        }

        /** The verdict the pixel gate must reach. */
        public boolean passes() {
            return scenario.fault() == Fault.CORRECT;
        }

        public RgbImage referenceProblem() {
            return referenceStyle == null ? MazeRenderer.problem(problem(), MazeBenchmarkGenerator.CANVAS, MazeBenchmarkGenerator.CANVAS)
                    : OutputRenderer.problem(problem(), referenceStyle);
        }

        public RgbImage referenceSolution() {
            return referenceStyle == null ? MazeRenderer.solution(problem(), MazeBenchmarkGenerator.CANVAS, MazeBenchmarkGenerator.CANVAS)
                    : OutputRenderer.solution(problem(), referenceStyle);
        }

        /** The reference images encoded as the style stores them (PNG for the benchmark's own). */
        public byte[] referenceBytes(boolean solution) {
            RgbImage img = solution ? referenceSolution() : referenceProblem();
            return referenceStyle == null ? ImageEncoder.png(img) : OutputRenderer.encode(img, referenceStyle);
        }

        /**
         * The reference image as read back from its file: a JPEG style goes through the encoder and
         * decoder (its artefacts are part of the style), a PNG is lossless and comes back as drawn.
         */
        public RgbImage reference(boolean solution) throws MediaException {
            RgbImage img = solution ? referenceSolution() : referenceProblem();
            return referenceStyle == null ? img : roundTrip(img, referenceStyle);
        }

        /** The still answer as read back from its file (see {@link #reference}). */
        public RgbImage image() throws MediaException {
            return roundTrip(OutputRenderer.image(scenario, style), style);
        }

        private static RgbImage roundTrip(RgbImage img, OutputStyle s) throws MediaException {
            return s.jpegQuality() > 0
                    ? io.mmgr.stream.vision.ImageDecoder.decode(OutputRenderer.encode(img, s), io.mmgr.stream.vision.ImageDecoder.Limits.DEFAULT)
                    : img;
        }

        public String referenceExtension() {
            return referenceStyle != null && referenceStyle.jpegQuality() > 0 ? ".jpg" : ".png";
        }

        /** The still answer, encoded (PNG or the style's JPEG). */
        public byte[] imageBytes() {
            return OutputRenderer.encode(OutputRenderer.image(scenario, style), style);
        }

        public String imageExtension() {
            return style.jpegQuality() > 0 ? ".jpg" : ".png";
        }

        /** Frames for the video answer ({@link MazeAnswerCorpus#frames}). */
        public int frames() {
            return MazeAnswerCorpus.frames(scenario);
        }

        public void writeVideo(Path file, VideoEncoder.Container container) throws MediaException {
            OutputRenderer.video(scenario, style, frames(), container, file, markers.agentRgb, markers.targetRgb);
        }
    }

    /** Frames for a video answer: two or more per step, as real videos (120-360 frames) have for these routes. */
    static int frames(Scenario scenario) {
        return Math.max(48, 2 * (scenario.route().size() - 1) + 16);
    }

    /**
     * Writes {@code images} still answers and {@code videos} video answers (MP4), spread over the
     * styles of {@link MazeStyles} in turn, each with its reference problem and solution images, and
     * {@code cases.jsonl}: one {@code eval maze --batch} case per line with the known verdict
     * ({@code expected}: 1 pass, 0 fail) and the style.
     */
    public static Path write(Path dir, int images, int videos, long seed) throws java.io.IOException {
        java.nio.file.Files.createDirectories(dir);
        Path cases = dir.resolve("cases.jsonl");
        try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(cases, java.nio.charset.StandardCharsets.UTF_8)) {
            List<Case> all = new ArrayList<>();
            all.addAll(spread(MazeStyles.IMAGE, images, seed, false));
            all.addAll(spread(MazeStyles.VIDEO, videos, seed, true));
            for (Case c : all) {
                Path problem = dir.resolve(c.id() + "-problem" + c.referenceExtension());
                Path solution = dir.resolve(c.id() + "-solution" + c.referenceExtension());
                java.nio.file.Files.write(problem, c.referenceBytes(false));
                java.nio.file.Files.write(solution, c.referenceBytes(true));
                Path output;
                if (c.video()) {
                    output = dir.resolve(c.id() + ".mp4");
                    try {
                        c.writeVideo(output, VideoEncoder.Container.MP4);
                    } catch (MediaException e) {
                        throw new java.io.IOException("cannot encode " + output + ": " + e.getMessage(), e);
                    }
                } else {
                    output = dir.resolve(c.id() + c.imageExtension());
                    java.nio.file.Files.write(output, c.imageBytes());
                }
                java.util.Map<String, Object> line = new java.util.LinkedHashMap<>();
                line.put("id", c.id());
                line.put("problem", problem.toAbsolutePath().toString());
                line.put("solution", solution.toAbsolutePath().toString());
                line.put("rows", c.problem().rows());
                line.put("cols", c.problem().cols());
                line.put("output", output.toAbsolutePath().toString());
                line.put("expected", c.passes() ? 1 : 0);
                line.put("style", c.style().name());
                w.write(io.mmgr.stream.json.JsonAvro.MAPPER.writeValueAsString(line));
                w.write('\n');
            }
        }
        return cases;
    }

    /** {@code count} cases over the styles in turn (style i gets every len-th case). */
    private static List<Case> spread(List<OutputStyle> styles, int count, long seed, boolean video) {
        List<Case> out = new ArrayList<>(count);
        for (int s = 0; s < styles.size(); s++) {
            int n = count / styles.size() + (s < count % styles.size() ? 1 : 0);
            if (n > 0) {
                out.addAll(draw(styles.get(s), n, seed, video));
            }
        }
        return out;
    }

    public static List<Case> images(OutputStyle style, int count, long seed) {
        return draw(style, count, seed, false);
    }

    public static List<Case> videos(OutputStyle style, int count, long seed) {
        return draw(style, count, seed, true);
    }

    /** Video answers whose markers are drawn in {@code markers}' colours (ids carry its name; MMGR's are {@link #videos}). */
    public static List<Case> videos(OutputStyle style, Markers markers, int count, long seed) {
        return draw(style, count, seed, true, markers);
    }

    private static List<Case> draw(OutputStyle style, int count, long seed, boolean video) {
        return draw(style, count, seed, video, Markers.MMGR);
    }

    private static List<Case> draw(OutputStyle style, int count, long seed, boolean video, Markers markers) {
        Random random = new Random(seed ^ style.name().hashCode() * 0x9E3779B97F4A7C15L);
        List<Case> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Fault fault = CYCLE[i % CYCLE.length];
            // the band turns once more each cycle, so every fault meets every band (12 % 3 == 0 would tie
            // each fault to one band)
            MazeBand band = MazeBand.values()[(i + i / CYCLE.length) % MazeBand.values().length];
            Scenario sc = scenario(band, fault, video, random);
            String id = String.format(Locale.ROOT, "%s%s-%04d-%s", style.name(), markers.suffix(), i + 1,
                    fault.name().toLowerCase(Locale.ROOT));
            out.add(new Case(id, sc, style, i % 2 == 0 ? null : style, video, markers));
        }
        return out;
    }

    /** A problem of the band hosting the fault clearly (so the fault, not chance, decides the verdict). */
    static Scenario scenario(MazeBand band, Fault fault, boolean video, Random random) {
        for (int attempt = 0; attempt < 1000; attempt++) {
            int rows = band.minSize() + random.nextInt(band.maxSize() - band.minSize() + 1);
            int cols = band.minSize() + random.nextInt(band.maxSize() - band.minSize() + 1);
            MazeAlgorithm algorithm = MazeAlgorithm.values()[random.nextInt(MazeAlgorithm.values().length)];
            Placement placement = Placement.values()[random.nextInt(Placement.values().length)];
            MazeProblem p = MazeProblem.generate(rows, cols, algorithm, placement, random);
            if (p.solution().size() < 4) {
                continue;
            }
            Optional<Scenario> sc = Scenario.of(fault, p, random);
            if (sc.isPresent() && clear(sc.get(), video)) {
                return sc.get();
            }
        }
        throw new IllegalStateException("no " + band + " maze could host " + fault);
    }

    /**
     * Faults that only one check can catch stay within the other checks' limits: a moved marker keeps
     * the route under the 1.3x length rule, and a video's wall crossing crosses often enough for the
     * seed's 5 % rule (two walls in five steps).
     */
    private static boolean clear(Scenario sc, boolean video) {
        return switch (sc.fault()) {
            case TARGET_MOVED_PAST, START_MOVED -> sc.blockRatio() <= 1.25 && sc.stepRatio() <= 1.25;
            case WALL_CROSSING -> !video || sc.wallsCrossed() * 5 >= 2 * (sc.route().size() - 1);
            default -> true;
        };
    }
}
