package io.mmgr.stream.tasks.maze;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds a maze board of known size in an image from its wall pixels, whatever surrounds it
 * (margins, a frame, plot axes with ticks and labels) and however it is drawn (thick block walls or
 * thin wall lines).
 *
 * <p>Per axis: columns (rows) holding a long unbroken wall run are the candidates for the board's
 * outer walls; for every pair of candidate clusters, a comb of {@code cells - 1} interior wall lines
 * is fitted between their inner edges and scored by how much darker its teeth are than the cells
 * between them. A frame or an axis spine around the board leaves the interior lines out of step with
 * the comb, so the board's own outer walls win. The best pairs of both axes are then checked together:
 * all four outer walls must actually be there.
 */
final class BoardLocator {

    /** A candidate wall line must run unbroken over this share of the image's shorter side. */
    static final double MIN_RUN_FRACTION = 0.25;
    /** Gaps up to this many pixels do not break a run (JPEG or a faint anti-aliased pixel). */
    static final int RUN_GAP = 2;
    /** The fitted comb's teeth must be this much darker (share of the image side) than its cells. */
    static final double MIN_SCORE = 0.02;
    /** Each outer wall must cover this share of its side. */
    static final double MIN_BORDER_COVERAGE = 0.75;
    /** Walls may be up to this share of the pitch (block lattices are 0.5). */
    static final double MAX_THICKNESS_OF_PITCH = 0.75;
    private static final int MAX_CLUSTERS = 40;
    private static final int TOP_FITS = 5;
    /** Candidate outer walls tried from each side. */
    static final int OUTER_CANDIDATES = 4;
    static boolean DEBUG = Boolean.getBoolean("maze.debug");

    private BoardLocator() {
    }

    /** One axis' fitted comb and how well it fits. */
    record Fit(double score, MazeGeometry.Axis axis) {
    }

    /**
     * Per column and per row of an image: the wall darkness (summed, so an anti-aliased edge pixel
     * counts by how dark it is; 255 is one black pixel) and the longest run of wall pixels, gaps of up to
     * {@link #RUN_GAP} pixels bridged.
     */
    record Profiles(int[] colDark, int[] colRun, int[] rowDark, int[] rowRun) {

        /**
         * One pass over the pixels: classifies each through the LUT into {@code codes} (counting the
         * codes into {@code histogram} and noting where the coloured ones are in {@code colour}) when
         * {@code pixels} is given, else reads {@code codes} (counting and noting them too when
         * {@code histogram} and {@code colour} are given); the classes and darkness are those of one
         * paper, see {@link MazePalette#classes}.
         */
        static Profiles scan(int[] pixels, byte[] codes, int[] histogram, MazeCanvas.Positions colour, int width,
                             int height, byte[] classes, int[] darkness) {
            io.mmgr.stream.vision.ColorLut lut = MazePalette.lut();
            int[] colDark = new int[width];
            int[] colStart = new int[width];
            int[] colLast = new int[width];
            int[] colBest = new int[width];
            java.util.Arrays.fill(colLast, Integer.MIN_VALUE / 2);
            int[] rowDark = new int[height];
            int[] rowBest = new int[height];
            byte wall = (byte) MazePalette.WALL;
            // the row's runs of one code: where each starts and its code (a run per pixel at worst)
            int[] runAt = new int[width + 1];
            int[] runCode = new int[width];
            for (int y = 0; y < height; ) {
                int i = y * width;
                int runs = 0;
                int dark = 0;
                int start = 0;
                int last = Integer.MIN_VALUE / 2;
                int best = 0;
                int colourFrom = colour == null ? 0 : colour.size;
                if (pixels == null) {
                    // codes given: the row is walked run by run, each run's darkness and wall span
                    // taken at once (a wall run inside a row is unbroken, so it only moves the end)
                    for (int x = 0; x < width; ) {
                        int code = codes[i];
                        int from = x;
                        do {
                            x++;
                            i++;
                        } while (x < width && codes[i] == code);
                        if (colour != null && code >= MazePalette.CODE_START && code <= MazePalette.CODE_LAST_COLOUR) {
                            for (int j = i - (x - from); j < i; j++) {
                                colour.add(j);
                            }
                        }
                        runAt[runs] = from;
                        runCode[runs++] = code;
                        dark += darkness[code] * (x - from);
                        if (classes[code] == wall) {
                            if (from - last - 1 > RUN_GAP) {
                                start = from;
                            }
                            last = x - 1;
                            best = Math.max(best, last - start + 1);
                        }
                    }
                }
                // RGB pixels: classified on the way, runs of one colour (most of a maze image) once
                int rgbOfRun = 0;
                for (int x = 0; pixels != null && x < width; x++, i++) {
                    int code;
                    int rgb = pixels[i];
                    if (x == 0 || rgb != rgbOfRun) {
                        rgbOfRun = rgb;
                        code = lut.classify(rgb);
                    } else {
                        code = runCode[runs - 1];
                    }
                    codes[i] = (byte) code;
                    if (code >= MazePalette.CODE_START && code <= MazePalette.CODE_LAST_COLOUR) {
                        colour.add(i);
                    }
                    if (runs == 0 || runCode[runs - 1] != code) {
                        runAt[runs] = x;
                        runCode[runs++] = code;
                    }
                    dark += darkness[code];
                    if (classes[code] == wall) {
                        // a run goes on over gaps of up to RUN_GAP pixels
                        if (x - last - 1 > RUN_GAP) {
                            start = x;
                        }
                        last = x;
                        best = Math.max(best, x - start + 1);
                    }
                }
                runAt[runs] = width;
                // rows identical to this one (a block lattice repeats each row many times) add the
                // same again: per column, k more rows of the same darkness and wall runs k rows longer
                int k = 1;
                int row = y * width;
                while (y + k < height && sameRow(pixels, codes, row, (y + k) * width, width)) {
                    k++;
                }
                for (int r = 0; r < k; r++) {
                    rowDark[y + r] = dark;
                    rowBest[y + r] = best;
                }
                int colourTo = colour == null ? 0 : colour.size;
                for (int r = 1; r < k && colour != null; r++) {
                    if (pixels != null) {
                        System.arraycopy(codes, row, codes, row + r * width, width);
                    }
                    for (int j = colourFrom; j < colourTo; j++) {
                        colour.add(colour.at[j] + r * width);
                    }
                }
                for (int q = 0; q < runs; q++) {
                    int code = runCode[q];
                    int from = runAt[q];
                    int to = runAt[q + 1];
                    if (histogram != null) {
                        histogram[code] += k * (to - from);
                    }
                    int d = darkness[code] * k;
                    if (d != 0) {
                        for (int x = from; x < to; x++) {
                            colDark[x] += d;
                        }
                    }
                    if (classes[code] == wall) {
                        for (int x = from; x < to; x++) {
                            if (y - colLast[x] - 1 > RUN_GAP) {
                                colStart[x] = y;
                            }
                            colLast[x] = y + k - 1;
                            colBest[x] = Math.max(colBest[x], colLast[x] - colStart[x] + 1);
                        }
                    }
                }
                y += k;
            }
            return new Profiles(colDark, colBest, rowDark, rowBest);
        }

        /** Whether two rows of the image (pixels when given, else codes) are the same. */
        private static boolean sameRow(int[] pixels, byte[] codes, int a, int b, int width) {
            return pixels != null ? java.util.Arrays.equals(pixels, a, a + width, pixels, b, b + width)
                    : java.util.Arrays.equals(codes, a, a + width, codes, b, b + width);
        }
    }

    /** The board, or null when no maze-shaped structure of this size is found. */
    static MazeGeometry locate(Profiles prof, byte[] codes, byte[] classes, int width, int height, int rows, int cols) {
        int minRun = (int) Math.ceil(MIN_RUN_FRACTION * Math.min(width, height));
        List<Fit> xs = fits(prof.colDark(), prof.colRun(), height, minRun, cols);
        List<Fit> ys = fits(prof.rowDark(), prof.rowRun(), width, minRun, rows);
        List<MazeGeometry> combos = new ArrayList<>();
        List<Double> scores = new ArrayList<>();
        for (Fit fx : xs) {
            for (Fit fy : ys) {
                combos.add(new MazeGeometry(fx.axis(), fy.axis()));
                scores.add(fx.score() + fy.score());
            }
        }
        Integer[] order = new Integer[combos.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, Comparator.comparingDouble(i -> -scores.get(i)));
        for (int i : order) {
            if (bordersPresent(codes, classes, width, height, combos.get(i))) {
                return combos.get(i);
            }
        }
        return null;
    }

    /** The best comb fits of one axis, best first. */
    static List<Fit> fits(int[] darkness, int[] bestRun, int across, int minRun, int cells) {
        int n = darkness.length;
        double[] prefix = new double[n + 1];
        for (int i = 0; i < n; i++) {
            prefix[i + 1] = prefix[i] + darkness[i] / (255.0 * across);
        }
        List<int[]> clusters = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (bestRun[i] >= minRun) {
                if (!clusters.isEmpty() && clusters.get(clusters.size() - 1)[1] >= i - 2) {
                    clusters.get(clusters.size() - 1)[1] = i;
                } else {
                    clusters.add(new int[] {i, i});
                }
            }
        }
        if (clusters.size() > MAX_CLUSTERS) {
            return List.of();
        }
        if (DEBUG) {
            StringBuilder sb = new StringBuilder("clusters");
            clusters.forEach(c -> sb.append(" ").append(c[0]).append("-").append(c[1]));
            System.out.println(sb);
        }
        List<Fit> out = new ArrayList<>();
        // the board's outer walls are among the outermost candidates: inside them lie only its own
        // lines, outside them at most a frame, a spine or an axis line per side
        int k = clusters.size();
        for (int a = 0; a < Math.min(k, OUTER_CANDIDATES); a++) {
            for (int b = Math.max(a + 1, k - OUTER_CANDIDATES); b < k; b++) {
                int inner = clusters.get(a)[1] + 1;
                int span = clusters.get(b)[0] - inner;
                if (span < 2 * cells || span < minRun / 2) {
                    continue;
                }
                Fit f = fit(prefix, inner, span, cells);
                if (f != null && f.score() >= MIN_SCORE) {
                    if (thinner(clusters.get(a), f) || thinner(clusters.get(b), f)) {
                        continue;
                    }
                    Fit anchored = onOuterWalls(f, prefix, darkness, clusters.get(a), clusters.get(b));
                    if (anchored.score() >= MIN_SCORE) {
                        out.add(anchored);
                    }
                } else {
                    // no interior lines to fit (a maze with its inner walls erased, or a bare frame):
                    // the outer walls alone, as thick as the thinner of them, ranked below every real fit
                    double t = Math.min(clusters.get(a)[1] - clusters.get(a)[0], clusters.get(b)[1] - clusters.get(b)[0]) + 1;
                    if (t < (span + t) / cells) {
                        out.add(new Fit(-1.0 + (f == null ? 0 : Math.max(-0.5, f.score())),
                                new MazeGeometry.Axis(inner - t, (span + t) / cells, t, cells)));
                    }
                }
            }
        }
        out.sort(Comparator.comparingDouble(f -> -f.score()));
        if (DEBUG) {
            out.forEach(f -> System.out.println("  fit " + f));
        }
        return out.size() > TOP_FITS ? out.subList(0, TOP_FITS) : out;
    }

    /**
     * Re-anchors a fit on the centres of its outer walls when they are drawn as thick as the inner
     * lines (the usual case): the two centres are the longest baseline there is, so the pitch comes
     * out to a fraction of a pixel even when few inner lines are left. An outer wall drawn thicker
     * (an axis spine over it, a frame touching it) keeps the position found from its inner edge.
     */
    static Fit onOuterWalls(Fit f, double[] prefix, int[] darkness, int[] first, int[] last) {
        MazeGeometry.Axis a = f.axis();
        double t = a.thickness();
        double tolerance = Math.max(1.5, 0.2 * t);
        double c0 = first[1] - first[0] + 1 <= t + tolerance ? centroid(darkness, first) : a.origin() + t / 2;
        double c1 = last[1] - last[0] + 1 <= t + tolerance ? centroid(darkness, last) : a.origin() + a.cells() * a.pitch() + t / 2;
        double pitch = (c1 - c0) / a.cells();
        if (pitch <= t) {
            return f;
        }
        MazeGeometry.Axis axis = new MazeGeometry.Axis(c0 - t / 2, pitch, t, a.cells());
        return new Fit(score(prefix, axis.origin() + t, a.cells() * pitch - t, t, a.cells()), axis);
    }

    /**
     * Whether a candidate outer wall is much thinner than the fitted inner lines: a board's outer
     * walls are as thick as its inner ones or thicker (block borders, plot spines); a thin frame around
     * a thick-walled board is not its outer wall.
     */
    private static boolean thinner(int[] cluster, Fit f) {
        return cluster[1] - cluster[0] + 1 < 0.6 * f.axis().thickness() - 1;
    }

    /** Darkness-weighted centre of a cluster of columns (one pixel either side included), in pixel-edge coordinates. */
    private static double centroid(int[] darkness, int[] cluster) {
        long sum = 0;
        double moment = 0;
        for (int i = Math.max(0, cluster[0] - 1); i <= Math.min(darkness.length - 1, cluster[1] + 1); i++) {
            sum += darkness[i];
            moment += darkness[i] * (i + 0.5);
        }
        return sum == 0 ? (cluster[0] + cluster[1] + 1) / 2.0 : moment / sum;
    }

    /** Best wall thickness (and a sub-pixel nudge of the inner edges) for the interior between two outer walls. */
    static Fit fit(double[] prefix, double inner, double span, int cells) {
        double tMax = Math.min(MAX_THICKNESS_OF_PITCH * span / (cells - MAX_THICKNESS_OF_PITCH),
                (span - cells) / (cells - 1.0));
        if (tMax < 0.75) {
            return null;
        }
        double step = tMax < 50 ? 0.25 : tMax / 200;
        double bestT = 0.75;
        double best = Double.NEGATIVE_INFINITY;
        for (double t = 0.75; t <= tMax; t += step) {
            double s = score(prefix, inner, span, t, cells);
            if (s > best) {
                best = s;
                bestT = t;
            }
        }
        double bestInner = inner;
        double bestSpan = span;
        double t0 = bestT;
        for (double di = -1; di <= 1; di += 0.5) {
            for (double ds = -1; ds <= 1; ds += 0.5) {
                for (double t = Math.max(0.75, t0 - 2 * step); t <= Math.min(tMax, t0 + 2 * step); t += step / 2) {
                    double s = score(prefix, inner + di, span + ds - di, t, cells);
                    if (s > best + 1e-9) {
                        best = s;
                        bestT = t;
                        bestInner = inner + di;
                        bestSpan = span + ds - di;
                    }
                }
            }
        }
        double pitch = (bestSpan + bestT) / cells;
        return new Fit(best, new MazeGeometry.Axis(bestInner - bestT, pitch, bestT, cells));
    }

    /** Mean darkness of the interior wall lines minus that of the cells between them. */
    static double score(double[] prefix, double inner, double span, double t, int cells) {
        double p = (span + t) / cells;
        double teeth = 0;
        double gaps = 0;
        // line j's far edge is where cell j starts: its prefix sum is looked up once for both
        for (int j = 0; j < cells; j++) {
            double b = inner + j * p;
            double atB = at(prefix, b);
            if (j > 0) {
                double a = b - t;
                teeth += (atB - at(prefix, a)) / (b - a);
            }
            double e = b + p - t;
            gaps += (at(prefix, e) - atB) / (e - b);
        }
        return teeth / (cells - 1) - gaps / cells;
    }

    /** The prefix sum at a fractional position (linear inside a pixel). */
    private static double at(double[] prefix, double x) {
        int n = prefix.length - 1;
        if (x <= 0) {
            return 0;
        }
        if (x >= n) {
            return prefix[n];
        }
        int i = (int) x;
        return prefix[i] + (x - i) * (prefix[i + 1] - prefix[i]);
    }

    /** Whether all four outer walls of the geometry are drawn (each covering most of its side). */
    static boolean bordersPresent(byte[] codes, byte[] classes, int width, int height, MazeGeometry g) {
        MazeGeometry.Axis ax = g.x();
        MazeGeometry.Axis ay = g.y();
        int x0 = clamp((int) Math.floor(ax.origin()), width);
        int x1 = clamp((int) Math.ceil(ax.end()), width);
        int y0 = clamp((int) Math.floor(ay.origin()), height);
        int y1 = clamp((int) Math.ceil(ay.end()), height);
        if (x1 - x0 < 2 || y1 - y0 < 2) {
            return false;
        }
        return lineCoverage(codes, classes, width, true, band(ax, 0, width), y0, y1) >= MIN_BORDER_COVERAGE
                && lineCoverage(codes, classes, width, true, band(ax, ax.cells(), width), y0, y1) >= MIN_BORDER_COVERAGE
                && lineCoverage(codes, classes, width, false, band(ay, 0, height), x0, x1) >= MIN_BORDER_COVERAGE
                && lineCoverage(codes, classes, width, false, band(ay, ay.cells(), height), x0, x1) >= MIN_BORDER_COVERAGE;
    }

    private static int[] band(MazeGeometry.Axis a, int line, int limit) {
        double s = a.origin() + line * a.pitch();
        return new int[] {clamp((int) Math.floor(s - 1), limit), clamp((int) Math.ceil(s + a.thickness() + 1), limit)};
    }

    /** Share of positions along a line (from..to) where the band across it holds a wall pixel. */
    private static double lineCoverage(byte[] codes, byte[] classes, int width, boolean vertical, int[] band, int from, int to) {
        byte wall = (byte) MazePalette.WALL;
        int covered = 0;
        for (int along = from; along < to; along++) {
            for (int across = band[0]; across < band[1]; across++) {
                int i = vertical ? along * width + across : across * width + along;
                if (classes[codes[i]] == wall) {
                    covered++;
                    break;
                }
            }
        }
        return covered / (double) Math.max(1, to - from);
    }

    private static int clamp(int v, int limit) {
        return Math.max(0, Math.min(limit, v));
    }
}
