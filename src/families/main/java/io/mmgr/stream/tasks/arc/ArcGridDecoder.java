package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.Rect;
import io.mmgr.stream.vision.RgbImage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads an ARC grid from an image: locates the grid on the canvas (margins of any background),
 * infers rows and columns from the colour edges (grid lines or colour runs, {@link AxisFit}), samples
 * each cell's core and maps it to the nearest of the ten ARC colours ({@link ArcPalette}). Blur, JPEG,
 * slight hue shifts and non-integer scaling move edges by a pixel or two and are absorbed by the
 * tolerances; a cell whose colour is far from every ARC colour is read as {@link #UNREADABLE}.
 *
 * <p>Without grid lines some images are ambiguous: a 6x6 grid made of 2x2 blocks is pixel for pixel a
 * 3x3 grid with larger cells. Among readings that explain the pixels equally well the decoder prefers
 * square cells, then the dimensions the caller expects (the ground truth's, when known), then the
 * coarsest. The expected dimensions never override the pixels: a reading is only chosen if its
 * boundaries explain the image's edges, and when grid lines are visible only readings that put a line
 * on every boundary count.
 */
public final class ArcGridDecoder {

    /** A cell whose colour is not one of the ten ARC colours. */
    public static final int UNREADABLE = -1;

    /** L1 RGB distance that counts as a colour edge / as "not the background". */
    static final int EDGE_THRESHOLD = 48;
    static final int BACKGROUND_THRESHOLD = 60;
    /** A page colour this close (CIELAB) to an ARC colour could be cells of that colour. */
    static final double PAGE_IS_CELL = 10.0;
    /** Cell aspect ratios within this factor of 1 count as square. */
    static final double ASPECT_TOLERANCE = 1.8;
    /** Unexplained edge share (rows and columns together) by which a coarser reading explains the edges better. */
    static final double AS_WELL = 0.01;
    /** Counts of one axis this close (ratio) compete on how tightly they fit. */
    static final double NEAR_COUNT = 1.5;
    /** Mean edge offset (px) by which another count fits an axis's edges more tightly. */
    static final double TIGHTER = 0.1;
    /** Share of a cell core's pixels one colour must hold for a bordered reading to stand. */
    static final double UNIFORM = 0.9;
    /** Smallest cell the decoder resolves, in pixels. */
    static final double MIN_PITCH = 3.0;

    /**
     * The reading: symbols (or {@link #UNREADABLE}), where the grid was found, its pitch, whether grid
     * lines were seen, whether another reading explained the pixels as well, and the share of core
     * pixels that agreed with each cell's symbol (lowest over the grid).
     */
    public record Decoded(int[][] cells, Rect bounds, double cellWidth, double cellHeight, boolean gridLines,
                          boolean ambiguous, double minAgreement) {
        public int rows() {
            return cells.length;
        }

        public int cols() {
            return cells[0].length;
        }

        public String cellsText() {
            StringBuilder sb = new StringBuilder("[");
            for (int r = 0; r < cells.length; r++) {
                sb.append(r == 0 ? "[" : ",[");
                for (int c = 0; c < cells[r].length; c++) {
                    sb.append(c == 0 ? "" : ",").append(cells[r][c]);
                }
                sb.append(']');
            }
            return sb.append(']').toString();
        }
    }

    private ArcGridDecoder() {
    }



    /**
     * @param image    the generated image
     * @param region   where to look (the answer region of a full puzzle canvas), or null for all of it
     * @param expected rows and columns of the ground truth, used only to break ties, or null
     */
    public static Decoded decode(RgbImage image, Rect region, int[] expected) throws ArcDecodeException {
        RgbImage img = region == null ? image : crop(image, region);
        int w = img.width();
        int h = img.height();
        if (w < 3 || h < 3) {
            throw new ArcDecodeException("the image (or its answer region) is only " + w + "x" + h + " pixels");
        }
        int[] px = img.pixels();
        Integer background = background(img);
        List<Extent> extents = new ArrayList<>();
        Extent whole = null; // the whole image, when it is an alternative to a page of an ARC colour
        if (background != null) {
            // a page close to an ARC colour (black, the greys) may hide cells; a tint (#EEEEEE, slate) does not
            boolean arcColoured = ArcPalette.distance(background, ArcPalette.symbolExact(background)) <= PAGE_IS_CELL;
            Extent span = span(img, background);
            if (arcColoured) {
                // cells may be the page's colour (black cells on a black page): the grid is everything
                // marked, first to last row and column, or, without a border, the whole image
                if (span != null) {
                    extents.add(span);
                }
                if (span == null || span.x0 > 0 || span.y0 > 0 || span.x1 < w || span.y1 < h) {
                    whole = new Extent(0, 0, w, h);
                    extents.add(whole);
                }
            } else {
                // every cell differs from the page: the board is the densest block of marks, clear of
                // titles, tick labels and frames; everything marked is the fallback
                Extent e = extent(img, background);
                if (e == null) {
                    throw new ArcDecodeException("no grid found: every pixel of the "
                            + (region == null ? "image" : "answer region") + " is the background colour");
                }
                extents.add(e);
                if (span != null && !span.equals(e)) {
                    extents.add(span);
                }
            }
        } else {
            extents.add(new Extent(0, 0, w, h));
        }
        EdgeMaps edges = new EdgeMaps(img);
        // the first extent (in order of likelihood) whose lattice explains its edges is the grid; when
        // none does, the one leaving the least edge mass unexplained
        Reading best = null;
        for (int i = 0; i < extents.size(); i++) {
            Reading r = read(img, extents.get(i), edges, expected);
            if (r == null) {
                continue;
            }
            if (r.unexplained() <= AxisFit.MAX_UNEXPLAINED * 2) {
                best = r;
                if (whole != null && extents.get(i) != whole) {
                    // a page of an ARC colour with cells of its colour along the image's edges looks
                    // like a margin. When the whole image reads as a lattice the marked part lies on,
                    // both readings explain the pixels: the ground truth's size decides, as for any tie,
                    // and otherwise an equal pitch (the "margin" is whole cells) does. So with gaps: a
                    // board cropped edge to edge, white gaps, black cells all round, marks only its gaps
                    Reading all = read(img, whole, edges, expected);
                    if (all != null && all.unexplained() <= AxisFit.MAX_UNEXPLAINED * 2 && onLattice(r, all)) {
                        boolean allFits = all.matches(expected);
                        boolean partFits = r.matches(expected);
                        if (allFits && !partFits || allFits == partFits && samePitch(all, r)) {
                            best = all;
                        }
                    }
                }
                break;
            }
            if (best == null || r.unexplained() < best.unexplained()) {
                best = r;
            }
        }
        if (best == null) {
            throw new ArcDecodeException("no regular grid of cells found in the "
                    + (region == null ? "image" : "answer region"));
        }
        Rect origin = region == null ? new Rect(0, 0, w, h) : clip(region, image);
        Rect bounds = new Rect((int) Math.round(best.cols.start() + 0.5) + origin.x(),
                (int) Math.round(best.rows.start() + 0.5) + origin.y(),
                Math.max(1, (int) Math.round(best.cols.pitch() * best.cols.count())),
                Math.max(1, (int) Math.round(best.rows.pitch() * best.rows.count())));
        return sample(img, best, bounds);
    }

    private record Extent(int x0, int y0, int x1, int y1) {
    }

    private record Reading(AxisFit.Hypothesis rows, AxisFit.Hypothesis cols, boolean lines, boolean ambiguous) {
        boolean matches(int[] expected) {
            return expected != null && rows.count() == expected[0] && cols.count() == expected[1];
        }

        double unexplained() {
            return rows.unexplained() + cols.unexplained();
        }
    }

    private static Reading read(RgbImage img, Extent e, EdgeMaps edges, int[] expected) {
        int w = img.width();
        int h = img.height();
        double lenX = e.x1 - e.x0;
        double lenY = e.y1 - e.y0;
        if (lenX < MIN_PITCH || lenY < MIN_PITCH) {
            return null;
        }
        // profiles: edge pixels per position, counted across the extent (plus a little halo along the axis)
        int ax0 = Math.max(0, e.x0 - 3);
        int ax1 = Math.min(w, e.x1 + 3);
        int ay0 = Math.max(0, e.y0 - 3);
        int ay1 = Math.min(h, e.y1 + 3);
        double[] profX = edges.profileX(ax0, ax1, e.y0, e.y1);
        double[] profY = edges.profileY(e.x0, e.x1, ay0, ay1);
        // profile index i holds the step at i - 0.5
        List<AxisFit.Peak> peaksX = AxisFit.peaks(profX, peakFloor(lenY), -0.5);
        List<AxisFit.Peak> peaksY = AxisFit.peaks(profY, peakFloor(lenX), -0.5);
        // outer boundaries sit on the extent's edges (between pixels, hence the half pixel)
        List<AxisFit.Hypothesis> cx = candidates(peaksX, e.x0 - 0.5, e.x1 - 0.5, lenX, 0);
        List<AxisFit.Hypothesis> cy = candidates(peaksY, e.y0 - 0.5, e.y1 - 0.5, lenY, 0);
        Reading plain = null;
        if (!cx.isEmpty() && !cy.isEmpty()) {
            // grid lines: with them every boundary is drawn, so readings that split cells are rejected.
            // JPEG rings beside a thin line on a flat cell, within its 8x8 block: the drawn lattice can
            // leave that unexplained while finer ones, splitting cells, explain it. So the lines are
            // looked for on the coarsest fair fit each way as well, and it stands in for an axis none
            // of whose consistent counts agrees with the lines
            AxisFit.Hypothesis fx = coarsestFair(peaksX, e.x0 - 0.5, e.x1 - 0.5, lenX, cx.get(0));
            AxisFit.Hypothesis fy = coarsestFair(peaksY, e.y0 - 0.5, e.y1 - 0.5, lenY, cy.get(0));
            boolean line = GridLines.lines(img, edges.edgeX, edges.edgeY, cy.get(0), cx.get(0))
                    || GridLines.lines(img, edges.edgeX, edges.edgeY, fy, fx);
            if (line) {
                List<AxisFit.Hypothesis> lx = agreeing(img, edges, cx, fx, fy, true);
                List<AxisFit.Hypothesis> ly = agreeing(img, edges, cy, fy, fx, false);
                cx = lx.isEmpty() ? cx : lx;
                cy = ly.isEmpty() ? cy : ly;
            }
            plain = choose(cx, cy, line, expected, null);
        }
        // under a thick border the outer boundaries are the centres of its lines; such a reading stands
        // only if every inner boundary shows a line as thick, every cell's core is one colour, and it
        // explains the edges as well as the reading from the extent's edges
        Border.Band band = Border.find(img, e.x0, e.y0, e.x1, e.y1);
        if (band.width() > 0) {
            double half = band.width() / 2.0;
            List<AxisFit.Hypothesis> bx = Border.confirmed(img, e.x0, e.y0, e.x1, e.y1, band,
                    candidates(peaksX, e.x0 - 0.5 + half, e.x1 - 0.5 - half, lenX - 2 * half, half), true);
            List<AxisFit.Hypothesis> by = Border.confirmed(img, e.x0, e.y0, e.x1, e.y1, band,
                    candidates(peaksY, e.y0 - 0.5 + half, e.y1 - 0.5 - half, lenY - 2 * half, half), false);
            // a border with no line inside it is not told from cells of its colour round the grid
            Reading bordered = bx.isEmpty() || by.isEmpty() ? null : choose(bx, by, true, expected, img);
            if (bordered != null && bordered.rows().count() == 1 && bordered.cols().count() == 1) {
                bordered = null;
            }
            if (bordered == null) {
                // the lines may be merged with cells of their colour all round: their width follows
                // from the cells of other colours
                List<AxisFit.Hypothesis> ix = Border.fromInterior(img, e.x0, e.y0, e.x1, e.y1, band, peaksX, true);
                List<AxisFit.Hypothesis> iy = Border.fromInterior(img, e.x0, e.y0, e.x1, e.y1, band, peaksY, false);
                List<AxisFit.Hypothesis> sx = Border.sameWidth(ix, iy);
                List<AxisFit.Hypothesis> sy = Border.sameWidth(iy, ix);
                bordered = sx.isEmpty() || sy.isEmpty() ? null : choose(sx, sy, true, expected, img);
                if (bordered != null && bordered.rows().count() == 1 && bordered.cols().count() == 1) {
                    bordered = null;
                }
            }
            if (bordered != null && (plain == null || bordered.unexplained() <= plain.unexplained() + AS_WELL)) {
                return bordered;
            }
        }
        return plain == null || squareness(plain) == 0 ? plain : squareStrip(img, e, plain, peaksX, peaksY);
    }

    /**
     * A strip of one or two cells with thick lines (a fifth of a 16 px pitch, say) keeps only 2 px of each
     * line solid under JPEG, too little for a {@link Border}, and both sides of each line are edges: its
     * short axis then reads as a few cells of a line's width, far from square. Cells are square, so the
     * long axis's pitch fixes the short axis's count; what is left of its length over those cells is the
     * border's line, and the lattice is fitted to the lines' centres. That reading replaces the plain one
     * only if it explains the edges and every cell core is one colour.
     */
    private static Reading squareStrip(RgbImage img, Extent e, Reading plain, List<AxisFit.Peak> peaksX,
                                       List<AxisFit.Peak> peaksY) {
        boolean shortX = plain.cols().pitch() < plain.rows().pitch();
        double pitch = shortX ? plain.rows().pitch() : plain.cols().pitch();
        int from = shortX ? e.x0 : e.y0;
        double len = shortX ? e.x1 - e.x0 : e.y1 - e.y0;
        int n = (int) Math.round(len / pitch);
        AxisFit.Hypothesis current = shortX ? plain.cols() : plain.rows();
        if (n < 1 || n >= current.count()) {
            return plain;
        }
        // lines take at most 40% of the pitch
        double half = Math.min(0.2 * pitch, Math.max(0, (len - n * pitch) / 2));
        AxisFit.Hypothesis h = AxisFit.fit(shortX ? peaksX : peaksY, from - 0.5 + half, from + len - 0.5 - half, n,
                half);
        if (h.unexplained() > AxisFit.MAX_UNEXPLAINED) {
            return plain;
        }
        Reading square = shortX ? new Reading(plain.rows(), h, plain.lines(), plain.ambiguous())
                : new Reading(h, plain.cols(), plain.lines(), plain.ambiguous());
        return squareness(square) == 0 && sample(img, square, null).minAgreement() >= UNIFORM ? square : plain;
    }

    /** The consistent counts that agree with the lines, or else the coarsest fair fit if it agrees. */
    private static List<AxisFit.Hypothesis> agreeing(RgbImage img, EdgeMaps edges, List<AxisFit.Hypothesis> consistent,
                                                     AxisFit.Hypothesis fair, AxisFit.Hypothesis across, boolean xAxis) {
        List<AxisFit.Hypothesis> out = GridLines.agreeing(img, edges.edgeX, edges.edgeY, consistent, across, xAxis);
        if (out.isEmpty() && fair.count() < consistent.get(0).count()) {
            out = GridLines.agreeing(img, edges.edgeX, edges.edgeY, List.of(fair), across, xAxis);
        }
        return out;
    }

    /** The coarsest count leaving at most 2.5 {@link AxisFit#MAX_UNEXPLAINED} of the edges unexplained. */
    private static AxisFit.Hypothesis coarsestFair(List<AxisFit.Peak> peaks, double start, double end, double len,
                                                   AxisFit.Hypothesis coarsestConsistent) {
        for (int n = 1; n < coarsestConsistent.count(); n++) {
            if (len / n < MIN_PITCH) {
                break;
            }
            AxisFit.Hypothesis f = AxisFit.fit(peaks, start, end, n, 0);
            if (f.unexplained() <= 2.5 * AxisFit.MAX_UNEXPLAINED) {
                return f;
            }
        }
        return coarsestConsistent;
    }

    /**
     * The likeliest reading of the candidates each way, or null when none is left. With an image, only
     * readings whose every cell core is {@link #UNIFORM} one colour count.
     */
    private static Reading choose(List<AxisFit.Hypothesis> cx, List<AxisFit.Hypothesis> cy, boolean line,
                                  int[] expected, RgbImage uniformIn) {
        List<Reading> readings = new ArrayList<>();
        for (AxisFit.Hypothesis x : cx) {
            for (AxisFit.Hypothesis y : cy) {
                Reading r = new Reading(y, x, line, false);
                if (uniformIn == null || sample(uniformIn, r, null).minAgreement() >= UNIFORM) {
                    readings.add(r);
                }
            }
        }
        if (readings.isEmpty()) {
            return null;
        }
        // the expected size breaks no tie for a reading that a coarser one explains better: a lattice
        // one column finer than a line-free picture may still pass as consistent (few edges fall off
        // it) but leaves more of them unexplained than the drawn lattice, whereas a finer lattice that
        // is right explains at least as much (JPEG ringing, both sides of a line)
        // judged against a fixed copy: the list itself is reordered while it is sorted
        List<Reading> all = List.copyOf(readings);
        Comparator<Reading> order = Comparator
                .comparingDouble((Reading r) -> squareness(r))
                .thenComparingInt(r -> outdone(r, all) ? 1 : 0)
                .thenComparingInt(r -> r.matches(expected) ? 0 : 1)
                .thenComparingInt(r -> r.rows().count() * r.cols().count());
        readings.sort(order);
        Reading first = readings.get(0);
        boolean ambiguous = readings.size() > 1 && squareness(readings.get(1)) == squareness(first);
        return new Reading(first.rows(), first.cols(), line, ambiguous);
    }


    /**
     * The smoothed profile height a peak needs, for a grid {@code across} pixels the other way: 3, or 0.3
     * of a cell of a 30-cell side. A strip (1x30 of 4 px cells) lowers it, to its width less three pixels
     * (its border lines and a blended one), or it would show no edges at all; a strip of 6 px keeps 3, so
     * that JPEG noise in its 4 px cells does not bridge the lines' peaks.
     */
    private static double peakFloor(double across) {
        return Math.max(Math.min(3, Math.max(1, across - 3)), 0.3 * across / ArcGrid.MAX_SIDE);
    }

    /** Whether two readings have the same pitch, each way, within the boundary tolerance over the grid. */
    private static boolean samePitch(Reading a, Reading b) {
        return Math.abs(a.cols().pitch() - b.cols().pitch()) * a.cols().count() <= a.cols().tolerance()
                && Math.abs(a.rows().pitch() - b.rows().pitch()) * a.rows().count() <= a.rows().tolerance();
    }

    /** Whether a reading with fewer cells leaves over {@link #AS_WELL} less of the edges unexplained. */
    private static boolean outdone(Reading r, List<Reading> readings) {
        int cells = r.rows().count() * r.cols().count();
        for (Reading q : readings) {
            if (q.rows().count() * q.cols().count() < cells && q.unexplained() + AS_WELL < r.unexplained()) {
                return true;
            }
        }
        return false;
    }

    private static boolean divides(int a, int b) {
        return Math.max(a, b) % Math.min(a, b) == 0;
    }

    /** Whether every boundary of {@code part} lies on a boundary of {@code all}, each way. */
    private static boolean onLattice(Reading part, Reading all) {
        return onLattice(part.cols(), all.cols()) && onLattice(part.rows(), all.rows());
    }

    private static boolean onLattice(AxisFit.Hypothesis part, AxisFit.Hypothesis all) {
        for (int k = 0; k <= part.count(); k++) {
            double b = part.boundary(k);
            long j = Math.round((b - all.start()) / all.pitch());
            if (j < 0 || j > all.count() || Math.abs(all.boundary((int) j) - b) > all.tolerance()) {
                return false;
            }
        }
        return true;
    }

    /**
     * 0 for cells whose aspect ratio is within {@link #ASPECT_TOLERANCE} (models stretch canvases, e.g. a
     * square puzzle into a 16:9 video frame), otherwise how far from square (log of the aspect ratio).
     */
    private static double squareness(Reading r) {
        double a = Math.abs(Math.log(r.cols().pitch() / r.rows().pitch()));
        return a <= Math.log(ASPECT_TOLERANCE) ? 0 : a;
    }

    /** Consistent counts along one axis, coarsest first. */
    private static List<AxisFit.Hypothesis> candidates(List<AxisFit.Peak> peaks, double start, double end, double len,
                                                       double lineHalf) {
        List<AxisFit.Hypothesis> fits = new ArrayList<>();
        // a cell is wider than its lines (a band as wide as the cells is a row of cells of its colour):
        // lines take at most 40% of the pitch
        int maxCount = (int) Math.min(ArcGrid.MAX_SIDE, Math.floor(len / Math.max(MIN_PITCH, 5 * lineHalf)));
        for (int n = 1; n <= maxCount; n++) {
            fits.add(AxisFit.fit(peaks, start, end, n, lineHalf));
        }
        if (fits.isEmpty()) {
            return List.of();
        }
        List<AxisFit.Hypothesis> consistent = new ArrayList<>();
        for (AxisFit.Hypothesis f : fits) {
            if (f.unexplained() <= AxisFit.MAX_UNEXPLAINED) {
                consistent.add(f);
            }
        }
        if (consistent.isEmpty()) {
            // heavily degraded: take the best explanation if it is still a fair one
            AxisFit.Hypothesis best = fits.stream().min(Comparator.comparingDouble(AxisFit.Hypothesis::unexplained))
                    .orElseThrow();
            if (best.unexplained() > 2.5 * AxisFit.MAX_UNEXPLAINED) {
                return List.of();
            }
            consistent.add(best);
        }
        return tightest(consistent);
    }

    /**
     * Drops counts whose boundaries sit markedly further from the edges than another count's: within the
     * tolerance a count one off the drawn one can still pass (17 rows of 6.3 px read as 16 of 6.7 px
     * leave every edge within 2 px), but the drawn lattice puts them a few tenths of a pixel away. Only
     * counts close to each other (under {@link #NEAR_COUNT} apart, neither dividing the other) compete:
     * a multiple puts the drawn edges on the same boundaries, and a much finer lattice has a boundary
     * near every stray mark (JPEG ringing), hence fits them more tightly without being any likelier.
     */
    static List<AxisFit.Hypothesis> tightest(List<AxisFit.Hypothesis> consistent) {
        List<AxisFit.Hypothesis> out = new ArrayList<>();
        for (AxisFit.Hypothesis h : consistent) {
            boolean beaten = false;
            for (AxisFit.Hypothesis g : consistent) {
                boolean near = Math.max(g.count(), h.count()) < NEAR_COUNT * Math.min(g.count(), h.count())
                        && !divides(g.count(), h.count());
                if (near && g.residual() + TIGHTER < h.residual() && g.residual() < 0.5 * h.residual()
                        && g.unexplained() <= h.unexplained() + AS_WELL) {
                    beaten = true;
                    break;
                }
            }
            if (!beaten) {
                out.add(h);
            }
        }
        return out;
    }

    /** Each cell's core (a quarter of the pitch in from every boundary) votes for a symbol. */
    private static Decoded sample(RgbImage img, Reading r, Rect bounds) {
        int rows = r.rows().count();
        int cols = r.cols().count();
        int[][] cells = new int[rows][cols];
        double minAgreement = 1.0;
        int[] votes = new int[10];
        long[][] sums = new long[10][3];
        for (int i = 0; i < rows; i++) {
            double top = r.rows().boundary(i);
            double bottom = r.rows().boundary(i + 1);
            double my = Math.max(0.25 * r.rows().pitch(), Math.min(r.rows().tolerance(), 0.4 * r.rows().pitch()));
            int y0 = clampInt((int) Math.ceil(top + my), 0, img.height() - 1);
            int y1 = clampInt((int) Math.floor(bottom - my), y0, img.height() - 1);
            for (int j = 0; j < cols; j++) {
                double left = r.cols().boundary(j);
                double right = r.cols().boundary(j + 1);
                double mx = Math.max(0.25 * r.cols().pitch(), Math.min(r.cols().tolerance(), 0.4 * r.cols().pitch()));
                int x0 = clampInt((int) Math.ceil(left + mx), 0, img.width() - 1);
                int x1 = clampInt((int) Math.floor(right - mx), x0, img.width() - 1);
                java.util.Arrays.fill(votes, 0);
                for (long[] s : sums) {
                    java.util.Arrays.fill(s, 0);
                }
                int total = 0;
                for (int y = y0; y <= y1; y++) {
                    for (int x = x0; x <= x1; x++) {
                        int rgb = img.get(x, y);
                        int s = ArcPalette.symbol(rgb);
                        votes[s]++;
                        sums[s][0] += (rgb >> 16) & 0xFF;
                        sums[s][1] += (rgb >> 8) & 0xFF;
                        sums[s][2] += rgb & 0xFF;
                        total++;
                    }
                }
                int best = 0;
                for (int s = 1; s < 10; s++) {
                    if (votes[s] > votes[best]) {
                        best = s;
                    }
                }
                int n = votes[best];
                int mean = (int) (sums[best][0] / n) << 16 | (int) (sums[best][1] / n) << 8 | (int) (sums[best][2] / n);
                boolean arcColour = ArcPalette.distance(mean, best) <= ArcThresholds.MAX_COLOUR_DISTANCE;
                cells[i][j] = arcColour ? best : UNREADABLE;
                minAgreement = Math.min(minAgreement, n / (double) total);
            }
        }
        return new Decoded(cells, bounds, r.cols().pitch(), r.rows().pitch(), r.lines(), r.ambiguous(), minAgreement);
    }

    /**
     * The canvas background: the dominant colour of the outermost pixel ring, if it covers most of the
     * ring; null when the ring is busy (the grid fills the image).
     */
    private static Integer background(RgbImage img) {
        int w = img.width();
        int h = img.height();
        int[] bins = new int[4096];
        long[][] sums = new long[4096][3];
        int ring = 0;
        for (int x = 0; x < w; x++) {
            ring += add(img.get(x, 0), bins, sums) + add(img.get(x, h - 1), bins, sums);
        }
        for (int y = 1; y < h - 1; y++) {
            ring += add(img.get(0, y), bins, sums) + add(img.get(w - 1, y), bins, sums);
        }
        int top = 0;
        for (int b = 1; b < bins.length; b++) {
            if (bins[b] > bins[top]) {
                top = b;
            }
        }
        int n = bins[top];
        int rgb = (int) (sums[top][0] / n) << 16 | (int) (sums[top][1] / n) << 8 | (int) (sums[top][2] / n);
        // neighbouring bins hold the same colour under JPEG noise: count the ring pixels near it
        int top0 = 0;
        int bottom = 0;
        int left = 0;
        int right = 0;
        for (int x = 0; x < w; x++) {
            top0 += l1(img.get(x, 0), rgb) <= BACKGROUND_THRESHOLD ? 1 : 0;
            bottom += l1(img.get(x, h - 1), rgb) <= BACKGROUND_THRESHOLD ? 1 : 0;
        }
        for (int y = 0; y < h; y++) {
            left += l1(img.get(0, y), rgb) <= BACKGROUND_THRESHOLD ? 1 : 0;
            right += l1(img.get(w - 1, y), rgb) <= BACKGROUND_THRESHOLD ? 1 : 0;
        }
        int near = top0 + bottom + left + right;
        if (near >= 0.9 * (ring + 4)) {
            return rgb;
        }
        // a grid that is not square fills the image one way only, with page above and below it (or
        // left and right): a colour that no cell can have (not an ARC colour) on two opposite sides is
        // the page even though the grid's own cells make up the other two
        boolean page = ArcPalette.distance(rgb, ArcPalette.symbolExact(rgb)) > ArcThresholds.MAX_COLOUR_DISTANCE;
        boolean across = top0 >= 0.9 * w && bottom >= 0.9 * w;
        boolean down = left >= 0.9 * h && right >= 0.9 * h;
        return page && (across || down) ? rgb : null;
    }

    private static int add(int rgb, int[] bins, long[][] sums) {
        int b = ((rgb >> 12) & 0xF00) | ((rgb >> 8) & 0xF0) | ((rgb >> 4) & 0xF);
        bins[b]++;
        sums[b][0] += (rgb >> 16) & 0xFF;
        sums[b][1] += (rgb >> 8) & 0xFF;
        sums[b][2] += rgb & 0xFF;
        return 1;
    }

    /**
     * The board: the block of rows and columns densest in non-background pixels. Rows (columns) with a
     * few marks form runs; runs split only by narrow gaps (the canvas-coloured gaps between cells) are
     * one run, while a margin wider than a quarter of the shorter neighbour separates a title, tick
     * labels or a frame from the board. The heaviest run is taken, each axis counted within the other's
     * run, twice round; then rows and columns at its ends that are far sparser than its middle (axis
     * ticks, a frame's sides) are trimmed off.
     */
    private static Extent extent(RgbImage img, int background) {
        int w = img.width();
        int h = img.height();
        boolean[] on = new boolean[w * h];
        int[] px = img.pixels();
        // runs of one colour are compared with the background once
        int last = px.length == 0 ? 0 : ~px[0];
        boolean marked = false;
        for (int i = 0; i < px.length; i++) {
            if (px[i] != last) {
                last = px[i];
                marked = l1(last, background) > BACKGROUND_THRESHOLD;
            }
            on[i] = marked;
        }
        int x0 = 0;
        int x1 = w;
        int y0 = 0;
        int y1 = h;
        for (int round = 0; round < 2; round++) {
            int[] ys = heaviestRun(counts(on, w, x0, x1, y0, y1, false), x1 - x0);
            if (ys == null) {
                return null;
            }
            y0 = ys[0];
            y1 = ys[1];
            int[] xs = heaviestRun(counts(on, w, x0, x1, y0, y1, true), y1 - y0);
            if (xs == null) {
                return null;
            }
            x0 = xs[0];
            x1 = xs[1];
        }
        int[] ys = trim(counts(on, w, x0, x1, 0, h, false), y0, y1);
        int[] xs = trim(counts(on, w, 0, w, ys[0], ys[1], true), x0, x1);
        return new Extent(xs[0], ys[0], xs[1], ys[1]);
    }

    /** Every row and column with a few marks, first to last (a board drawn only in lines on a dark page). */
    private static Extent span(RgbImage img, int background) {
        int w = img.width();
        int h = img.height();
        int[] cols = new int[w];
        int[] rows = new int[h];
        int[] px = img.pixels();
        // runs of one colour are compared with the background once
        int last = px.length == 0 ? 0 : ~px[0];
        boolean marked = false;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (px[y * w + x] != last) {
                    last = px[y * w + x];
                    marked = l1(last, background) > BACKGROUND_THRESHOLD;
                }
                if (marked) {
                    cols[x]++;
                    rows[y]++;
                }
            }
        }
        int minCol = Math.max(2, (int) Math.ceil(0.02 * h));
        int minRow = Math.max(2, (int) Math.ceil(0.02 * w));
        int x0 = 0;
        while (x0 < w && cols[x0] < minCol) {
            x0++;
        }
        int x1 = w;
        while (x1 > x0 && cols[x1 - 1] < minCol) {
            x1--;
        }
        int y0 = 0;
        while (y0 < h && rows[y0] < minRow) {
            y0++;
        }
        int y1 = h;
        while (y1 > y0 && rows[y1 - 1] < minRow) {
            y1--;
        }
        return x1 - x0 < 1 || y1 - y0 < 1 ? null : new Extent(x0, y0, x1, y1);
    }

    /** Marked pixels per column (or per row) of the image, counted inside the rectangle only. */
    private static int[] counts(boolean[] on, int w, int x0, int x1, int y0, int y1, boolean perColumn) {
        int[] c = new int[perColumn ? w : on.length / w];
        for (int y = y0; y < y1; y++) {
            int o = y * w;
            for (int x = x0; x < x1; x++) {
                if (on[o + x]) {
                    c[perColumn ? x : y]++;
                }
            }
        }
        return c;
    }

    /** [from, to) of the heaviest run of positions with at least 2% of {@code span} marked, small gaps bridged. */
    private static int[] heaviestRun(int[] count, int span) {
        int min = Math.max(2, (int) Math.ceil(0.02 * span));
        List<int[]> runs = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= count.length; i++) {
            boolean dense = i < count.length && count[i] >= min;
            if (dense && start < 0) {
                start = i;
            } else if (!dense && start >= 0) {
                runs.add(new int[] {start, i});
                start = -1;
            }
        }
        if (runs.isEmpty()) {
            return null;
        }
        boolean[] lattice = latticeGaps(runs);
        List<int[]> merged = new ArrayList<>();
        int[] cur = runs.get(0).clone();
        int lastLen = cur[1] - cur[0];
        for (int k = 1; k < runs.size(); k++) {
            int[] r = runs.get(k);
            int gap = r[0] - cur[1];
            int shorter = Math.min(lastLen, r[1] - r[0]);
            if (gap <= Math.max(1, shorter / 4) || lattice[k - 1]) {
                cur[1] = r[1];
            } else {
                merged.add(cur);
                cur = r.clone();
            }
            lastLen = r[1] - r[0];
        }
        merged.add(cur);
        int[] best = null;
        long bestMass = -1;
        for (int[] r : merged) {
            long mass = 0;
            for (int i = r[0]; i < r[1]; i++) {
                mass += count[i];
            }
            if (mass > bestMass) {
                bestMass = mass;
                best = r;
            }
        }
        return best;
    }

    /**
     * Which gaps between runs (gap k lies after run k) are the page-coloured gaps between rows of cells: a
     * lattice of runs of one length (a cell, within a pixel or 15%) and gaps of one width (within a pixel),
     * each gap at most two thirds of a cell (lines take at most 40% of the pitch), three runs at least. Small
     * boards drawn the viewers' way (white gaps on a white page, 2-3 px at a 10 px pitch) have gaps wider than
     * the quarter of a cell bridged otherwise, and a board cut into its rows would read as one cell; a title
     * or tick labels do not repeat the board's cells and gaps, so they stay apart.
     */
    static boolean[] latticeGaps(List<int[]> runs) {
        int gaps = runs.size() - 1;
        boolean[] pair = new boolean[Math.max(0, gaps)];
        int[] width = new int[Math.max(0, gaps)];
        for (int k = 0; k < gaps; k++) {
            int a = runs.get(k)[1] - runs.get(k)[0];
            int b = runs.get(k + 1)[1] - runs.get(k + 1)[0];
            width[k] = runs.get(k + 1)[0] - runs.get(k)[1];
            boolean sameCell = Math.abs(a - b) <= Math.max(1, 0.15 * Math.max(a, b));
            pair[k] = sameCell && 3 * width[k] <= 2 * Math.min(a, b);
        }
        boolean[] lattice = new boolean[Math.max(0, gaps)];
        for (int k = 0; k < gaps; k++) {
            boolean before = k > 0 && pair[k - 1] && Math.abs(width[k - 1] - width[k]) <= 1;
            boolean after = k + 1 < gaps && pair[k + 1] && Math.abs(width[k + 1] - width[k]) <= 1;
            lattice[k] = pair[k] && (before || after);
        }
        return lattice;
    }

    /** Drops end positions holding under half the run's median count (ticks, frame sides, stray marks). */
    private static int[] trim(int[] count, int from, int to) {
        int[] inside = java.util.Arrays.copyOfRange(count, from, to);
        java.util.Arrays.sort(inside);
        int floor = inside[inside.length / 2] / 2;
        int a = from;
        int b = to;
        while (a < b - 1 && count[a] < floor) {
            a++;
        }
        while (b - 1 > a && count[b - 1] < floor) {
            b--;
        }
        return new int[] {a, b};
    }

    static int l1(int a, int b) {
        return Math.abs(((a >> 16) & 0xFF) - ((b >> 16) & 0xFF)) + Math.abs(((a >> 8) & 0xFF) - ((b >> 8) & 0xFF))
                + Math.abs((a & 0xFF) - (b & 0xFF));
    }

    private static int clampInt(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /** The part of {@code region} inside the image, or null when nothing is. */
    static Rect clip(Rect region, RgbImage image) {
        int x0 = Math.max(0, region.x());
        int y0 = Math.max(0, region.y());
        int x1 = Math.min(image.width(), region.x() + region.width());
        int y1 = Math.min(image.height(), region.y() + region.height());
        return x1 - x0 < 3 || y1 - y0 < 3 ? null : new Rect(x0, y0, x1 - x0, y1 - y0);
    }

    private static RgbImage crop(RgbImage image, Rect region) throws ArcDecodeException {
        Rect r = clip(region, image);
        if (r == null) {
            throw new ArcDecodeException("the answer region " + region + " lies outside the " + image.width() + "x"
                    + image.height() + " image");
        }
        int[] out = new int[r.width() * r.height()];
        for (int y = 0; y < r.height(); y++) {
            System.arraycopy(image.pixels(), (r.y() + y) * image.width() + r.x(), out, y * r.width(), r.width());
        }
        return new RgbImage(r.width(), r.height(), out);
    }
}
