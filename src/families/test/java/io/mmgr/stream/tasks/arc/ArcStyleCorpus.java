package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.tasks.arc.ArcLook.Decor;
import io.mmgr.stream.vision.Degradation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The ARC style corpus: looks that span canvas sizes (128 to 2,048 px), grid sizes (1x1 to 30x30),
 * lines (none, 1 px, thick, with and without a border), anti-aliasing, JPEG from quality 60, blur,
 * colour shifts, margins, frames, axes and captions; and samples with known labels, right answers and
 * the wrong ones models give ({@link ArcFault}).
 */
final class ArcStyleCorpus {

    static final int WHITE = 0xFFFFFF;
    static final int LIGHT = 0xEEEEEE;
    static final int SLATE = 0x1E2630;
    static final int BLACK = 0x000000;
    static final int[] CLASSIC = ArcPalette.CLASSIC;
    static final int[] PRIZE = ArcPalette.ARC_PRIZE;

    private static final Degradation PNG = Degradation.NONE;

    /** The looks, each with a one-line account of what it covers. */
    static final List<Object[]> LOOKS = List.of(
            look(new ArcLook("128-lines-snapped", 128, 128, 1, 0x555555, true, 0.02, WHITE, CLASSIC, false, 1, Decor.NONE, PNG),
                    "128 px, 1 px lines with border, no anti-aliasing"),
            look(new ArcLook("128-no-lines-aa", 128, 128, 0, 0, false, 0.03, LIGHT, PRIZE, true, 1, Decor.NONE, PNG),
                    "128 px, no lines, anti-aliased fractional cells"),
            look(new ArcLook("192-lines-jpeg90", 192, 160, 1, 0x444444, true, 0.04, WHITE, PRIZE, true, 1, Decor.NONE,
                    Degradation.jpeg(90)), "192x160, 1 px lines, JPEG 90"),
            look(new ArcLook("256-lines-jpeg60", 256, 256, 1, 0x555555, true, 0.05, WHITE, CLASSIC, false, 1, Decor.NONE,
                    Degradation.jpeg(60)), "256 px, JPEG 60"),
            look(new ArcLook("384-gaps-white", 384, 384, -0.12, WHITE, false, 0.06, WHITE, PRIZE, true, 1, Decor.NONE, PNG),
                    "thick white gaps (12% of the pitch), no border"),
            look(new ArcLook("512-thick-black-border", 512, 512, -0.2, BLACK, true, 0.05, WHITE, CLASSIC, true, 1,
                    Decor.NONE, Degradation.jpeg(80)), "thick black lines (20%) with border, JPEG 80"),
            look(new ArcLook("640-no-lines-blur", 640, 640, 0, 0, false, 0.08, WHITE, CLASSIC, true, 1, Decor.NONE,
                    PNG.withBlur(1.2)), "no lines, blur 1.2"),
            look(new ArcLook("768-lines-colour-shift", 768, 768, 2, 0x555555, true, 0.05, LIGHT, CLASSIC, true, 1,
                    Decor.NONE, new Degradation(0, 6, 0.9, 0.94, 90)), "2 px lines, hue +6, saturation x0.9, brightness x0.94"),
            look(new ArcLook("1024-no-lines-shift-jpeg", 1024, 1024, 0, 0, false, 0.04, WHITE, PRIZE, true, 1, Decor.NONE,
                    new Degradation(0.6, -5, 1.1, 1.0, 75)), "no lines, hue -5, saturation x1.1, blur, JPEG 75"),
            look(new ArcLook("2048-lines-1px", 2048, 2048, 1, 0x555555, true, 0.03, WHITE, CLASSIC, false, 1, Decor.NONE,
                    PNG), "2048 px with 1 px lines"),
            look(new ArcLook("2048-no-lines-jpeg70", 2048, 1536, 0, 0, false, 0.05, LIGHT, PRIZE, true, 1, Decor.NONE,
                    Degradation.jpeg(70)), "2048x1536, no lines, JPEG 70"),
            look(new ArcLook("stretched-16x9", 1280, 720, 1.5, 0x555555, true, 0.04, WHITE, CLASSIC, true, 1.78, Decor.NONE,
                    Degradation.jpeg(85)), "a square puzzle stretched to 16:9 (cells 1.78:1), JPEG 85"),
            look(new ArcLook("axes-imshow", 640, 480, 0, 0, false, 0.12, WHITE, CLASSIC, true, 1, Decor.AXES, PNG),
                    "matplotlib-like axes: spines, ticks, numbers; no lines"),
            look(new ArcLook("axes-with-lines", 800, 800, 1, 0x888888, true, 0.1, WHITE, PRIZE, true, 1, Decor.AXES,
                    Degradation.jpeg(85)), "axes round a lined grid, JPEG 85"),
            look(new ArcLook("frame-dark-canvas", 600, 600, 2, 0x888888, true, 0.1, SLATE, PRIZE, true, 1, Decor.FRAME,
                    PNG.withBlur(0.7)), "dark canvas, a frame round it, 2 px lines, blur 0.7"),
            look(new ArcLook("caption-gaps", 700, 600, -0.06, LIGHT, false, 0.12, LIGHT, CLASSIC, true, 1, Decor.CAPTION,
                    Degradation.jpeg(80)), "a title above, canvas-coloured gaps, JPEG 80"),
            look(new ArcLook("black-canvas-grey-lines", 540, 540, 1, 0x555555, true, 0.06, BLACK, CLASSIC, false, 1,
                    Decor.NONE, Degradation.jpeg(85)), "black canvas, grey lines with border (the ARC-AGI viewer)"),
            look(new ArcLook("no-margin-no-lines", 450, 450, 0, 0, false, 0, WHITE, PRIZE, true, 1, Decor.NONE, PNG),
                    "no margin: the grid is the whole image, no lines"),
            look(new ArcLook("mixed-degraded", 512, 512, 1, 0x555555, true, 0.05, WHITE, CLASSIC, true, 1, Decor.FRAME,
                    new Degradation(0.8, 4, 0.92, 0.96, 65)), "frame, blur 0.8, hue +4, saturation x0.92, JPEG 65"),
            look(new ArcLook("160-no-lines-snapped", 160, 160, 0, 0, false, 0.04, WHITE, CLASSIC, false, 1, Decor.NONE,
                    PNG.withColour(0, 1, 0.92)), "160 px, no lines, whole-pixel cells, brightness x0.92"));

    private static Object[] look(ArcLook look, String covers) {
        return new Object[] {look, covers};
    }

    /** One labelled sample: the truth, what the answer shows, and what the evaluator must say. */
    record Sample(String id, ArcGrid truth, int[][] drawn, String fault) {
        boolean sameSize() {
            return drawn.length == truth.rows() && drawn[0].length == truth.cols();
        }

        double gridIntegrity() {
            return sameSize() ? 1.0 : 0.0;
        }

        Double cellAccuracy() {
            if (!sameSize()) {
                return null;
            }
            int same = 0;
            for (int r = 0; r < truth.rows(); r++) {
                for (int c = 0; c < truth.cols(); c++) {
                    same += drawn[r][c] == truth.get(r, c) ? 1 : 0;
                }
            }
            return same / (double) (truth.rows() * truth.cols());
        }

        double validSolution() {
            return Arrays.deepEquals(drawn, truth.toArray()) ? 1.0 : 0.0;
        }
    }

    private ArcStyleCorpus() {
    }

    /**
     * {@code n} samples for one look: truths alternate between real ARC-AGI answers and made grids whose
     * sizes run from 1x1 to 30x30 (edges included); one in six is right, the others carry a fault.
     */
    static List<Sample> samples(int n, long seed) {
        Random random = new Random(seed);
        List<Object[]> pairs = ArcFixtures.testPairs();
        List<Sample> out = new ArrayList<>();
        int k = 0;
        while (out.size() < n) {
            ArcGrid truth;
            String id;
            if (k % 2 == 0) {
                Object[] p = pairs.get(random.nextInt(pairs.size()));
                ArcTask task = (ArcTask) p[0];
                truth = task.test((int) p[1]).output();
                id = task.id();
            } else {
                truth = made(random, k / 2);
                id = "made-" + truth.rows() + "x" + truth.cols();
            }
            int f = k % (ArcFault.values().length + 1);
            k++;
            if (f == 0) {
                out.add(new Sample(id, truth, truth.toArray(), "correct"));
                continue;
            }
            ArcFault fault = ArcFault.values()[f - 1];
            Optional<int[][]> drawn = fault.apply(truth.toArray());
            drawn.ifPresent(d -> out.add(new Sample(id, truth, d, fault.name())));
        }
        return out;
    }

    /** Sizes cycle through the extremes and random ones; content is noise, sparse objects or blocks. */
    static ArcGrid made(Random random, int i) {
        int[][] sizes = {{1, 1}, {30, 30}, {1, 30}, {30, 1}, {2, 2}, {3, 17}, {29, 30}, {5, 5}};
        int rows;
        int cols;
        if (i % 2 == 0) {
            int[] s = sizes[(i / 2) % sizes.length];
            rows = s[0];
            cols = s[1];
        } else {
            rows = 1 + random.nextInt(30);
            cols = 1 + random.nextInt(30);
        }
        int[][] g = new int[rows][cols];
        switch ((i / 3) % 3) {
            case 0 -> {
                for (int[] row : g) {
                    for (int c = 0; c < cols; c++) {
                        row[c] = random.nextInt(10);
                    }
                }
            }
            case 1 -> {
                int objects = 1 + random.nextInt(4);
                for (int o = 0; o < objects; o++) {
                    int colour = 1 + random.nextInt(9);
                    int r0 = random.nextInt(rows);
                    int c0 = random.nextInt(cols);
                    int h = 1 + random.nextInt(Math.max(1, rows / 3));
                    int w = 1 + random.nextInt(Math.max(1, cols / 3));
                    for (int r = r0; r < Math.min(rows, r0 + h); r++) {
                        for (int c = c0; c < Math.min(cols, c0 + w); c++) {
                            g[r][c] = colour;
                        }
                    }
                }
            }
            default -> {
                int bh = 1 + random.nextInt(3);
                int bw = 1 + random.nextInt(3);
                for (int r = 0; r < rows; r++) {
                    for (int c = 0; c < cols; c++) {
                        g[r][c] = ((r / bh) * 7 + (c / bw) * 3 + i) % 10;
                    }
                }
            }
        }
        return ArcGrid.of(g);
    }

    /**
     * Whether a grid drawn without lines makes the same picture as some grid of another size stretched
     * over the same extent: an all-black 3x2 is an all-black 3x3, and rows [1 1 2 2] are rows [1 2]. A
     * reader told the expected size then rightly reads that size, so such a sample's label cannot be
     * told from its pixels. The candidate is the drawn grid sampled at the other lattice's cell
     * centres; the pictures are compared on the common refinement of both lattices.
     */
    static boolean indistinguishableWithoutLines(int[][] drawn, int rows, int cols) {
        int rd = drawn.length;
        int cd = drawn[0].length;
        if (rd == rows && cd == cols) {
            return false;
        }
        int[][] other = new int[rows][cols];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                other[r][c] = drawn[(2 * r + 1) * rd / (2 * rows)][(2 * c + 1) * cd / (2 * cols)];
            }
        }
        int ly = lcm(rd, rows);
        int lx = lcm(cd, cols);
        for (int y = 0; y < ly; y++) {
            for (int x = 0; x < lx; x++) {
                if (drawn[y * rd / ly][x * cd / lx] != other[y * rows / ly][x * cols / lx]) {
                    return false;
                }
            }
        }
        return true;
    }

    private static int lcm(int a, int b) {
        int x = a;
        int y = b;
        while (y != 0) {
            int t = x % y;
            x = y;
            y = t;
        }
        return a / x * b;
    }
}
