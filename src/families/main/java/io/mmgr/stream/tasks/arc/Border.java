package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.RgbImage;
import java.util.ArrayList;
import java.util.List;

/**
 * Thick grid lines with an outer border (lines a fifth of the pitch, say): every line, the border's four
 * sides included, is a band of one colour a few pixels wide running the whole length of the grid. Both
 * sides of such a line are edges, and the border's inner side lies off the lattice of cell edges, so the
 * lattice is fitted to the lines' centres instead. The lines' width is the narrowest full-length band
 * of the border's colour, at the sides or inside (cells of its colour along a side or beside a line
 * widen that band); a count is kept only if a band of that colour also runs the full length at each of
 * its inner boundaries. That check, and the decoder's (every cell core one colour, the edges explained
 * as well as by the plain reading), keep a line-free grid whose edge cells share a colour (black cells
 * all round) from passing for a bordered one.
 */
final class Border {

    /** Share of a band's length that must be the border's colour (JPEG blurs the corners of cells). */
    static final double FULL = 0.97;
    /** Thinner borders are plain lines, which the edge lattice already handles. */
    static final int MIN_WIDTH = 3;

    private Border() {
    }

    /**
     * The border round the grid in [x0, x1) x [y0, y1): its width in pixels (0 when none), colour, and the
     * widest stretch across and down that is not a full band of it (a cell's interior, when lines run
     * between all cells).
     */
    record Band(int width, int colour, int interiorX, int interiorY) {
    }

    static Band find(RgbImage img, int x0, int y0, int x1, int y1) {
        if (x1 - x0 < 4 * MIN_WIDTH || y1 - y0 < 4 * MIN_WIDTH) {
            return new Band(0, 0, 0, 0);
        }
        // the outermost pixels may be an anti-aliased blend: the colour is taken two pixels in
        int ref = img.get(x0 + 2, (y0 + y1) / 2);
        int[] across = runs(img, x0, y0, x1, y1, ref, true);
        int[] down = runs(img, x0, y0, x1, y1, ref, false);
        if (across == null || down == null) {
            return new Band(0, 0, 0, 0);
        }
        // cells of the border's colour along a side, or beside a line, widen its band: the narrowest counts
        int w = Math.min(across[2], down[2]);
        return new Band(w < MIN_WIDTH ? 0 : w, ref, across[3], down[3]);
    }

    /**
     * Along one axis: the bands of full columns (rows) at both ends, the first two pixels allowed to
     * blend, the narrowest band of at least {@link #MIN_WIDTH} anywhere and the widest stretch of
     * positions that are not full, as {left, right, narrowest, widest gap}; null when an end has no band
     * that wide.
     */
    private static int[] runs(RgbImage img, int x0, int y0, int x1, int y1, int ref, boolean xAxis) {
        int from = xAxis ? x0 : y0;
        int to = xAxis ? x1 : y1;
        boolean[] full = new boolean[to - from];
        for (int p = from; p < to; p++) {
            full[p - from] = full(img, x0, y0, x1, y1, ref, xAxis, p);
        }
        int n = full.length;
        int a = 0;
        while (a < 2 && a < n && !full[a]) {
            a++;
        }
        int b = n;
        while (b > n - 2 && b > 0 && !full[b - 1]) {
            b--;
        }
        int left = 0;
        while (a + left < n && full[a + left]) {
            left++;
        }
        int right = 0;
        while (b - 1 - right >= 0 && full[b - 1 - right]) {
            right++;
        }
        if (left + a < MIN_WIDTH || right + (n - b) < MIN_WIDTH || a + left >= b - right) {
            return null;
        }
        int narrowest = Math.min(left + a, right + (n - b));
        int run = 0;
        int gap = 0;
        int widestGap = 0;
        for (int i = a + left; i < b - right; i++) {
            if (full[i]) {
                run++;
                gap = 0;
            } else {
                if (run >= MIN_WIDTH) {
                    narrowest = Math.min(narrowest, run);
                }
                run = 0;
                widestGap = Math.max(widestGap, ++gap);
            }
        }
        return new int[] {left + a, right + (n - b), narrowest, widestGap};
    }

    /**
     * The candidates of one axis (boundaries at the lines' centres) whose every inner boundary is a
     * full-length band of the border's colour, its core (the width less a pixel each side) at least.
     */
    static List<AxisFit.Hypothesis> confirmed(RgbImage img, int x0, int y0, int x1, int y1, Band band,
                                              List<AxisFit.Hypothesis> candidates, boolean xAxis) {
        List<AxisFit.Hypothesis> out = new ArrayList<>();
        double core = Math.max(0.5, band.width() / 2.0 - 1);
        int limit = xAxis ? x1 : y1;
        for (AxisFit.Hypothesis h : candidates) {
            boolean all = true;
            for (int k = 1; k < h.count() && all; k++) {
                double b = h.boundary(k);
                int from = (int) Math.ceil(b - core);
                int to = (int) Math.floor(b + core);
                for (int p = from; p <= to && all; p++) {
                    all = p >= 0 && p < limit && full(img, x0, y0, x1, y1, band.colour(), xAxis, p);
                }
            }
            if (all) {
                out.add(h);
            }
        }
        return out;
    }

    /**
     * Lines merged with cells of their colour on every side (mostly black cells under black lines) leave
     * no band of a line's width alone: the narrowest is a line, a cell and a line. A cell of another
     * colour still fills exactly a cell's interior between two lines, so the widest stretch that is not a
     * full band is that interior, and {@code n} cells leave lines (length - n interiors) / (n + 1) wide.
     * The counts whose lines come out thinner than the narrowest band, but at least {@link #MIN_WIDTH} and
     * under 40% of the pitch, that explain the edges and are {@link #confirmed} are kept.
     */
    static List<AxisFit.Hypothesis> fromInterior(RgbImage img, int x0, int y0, int x1, int y1, Band band,
                                                 List<AxisFit.Peak> peaks, boolean xAxis) {
        int interior = xAxis ? band.interiorX() : band.interiorY();
        int from = xAxis ? x0 : y0;
        double len = (xAxis ? x1 : y1) - from;
        List<AxisFit.Hypothesis> out = new ArrayList<>();
        for (int n = 1; interior > 0 && n <= ArcGrid.MAX_SIDE; n++) {
            double lw = (len - n * interior) / (n + 1.0);
            if (lw < MIN_WIDTH) {
                break;
            }
            if (lw >= band.width() || lw > 0.4 * (interior + lw)) {
                continue;
            }
            double half = lw / 2;
            AxisFit.Hypothesis h = AxisFit.fit(peaks, from - 0.5 + half, from + len - 0.5 - half, n, half);
            if (h.unexplained() <= AxisFit.MAX_UNEXPLAINED) {
                Band lines = new Band((int) Math.round(lw), band.colour(), interior, interior);
                out.addAll(confirmed(img, x0, y0, x1, y1, lines, List.of(h), xAxis));
            }
        }
        return out;
    }

    /**
     * The hypotheses of one axis whose lines are as wide, within 2 px (JPEG moves a cell's sides by a
     * pixel), as those of one of the other axis's: lines are drawn one width both ways, while a single
     * cell of another colour on a page of black cells fits lines of some width along each axis.
     */
    static List<AxisFit.Hypothesis> sameWidth(List<AxisFit.Hypothesis> these, List<AxisFit.Hypothesis> across) {
        return these.stream()
                .filter(h -> across.stream().anyMatch(a -> Math.abs(a.lineHalf() - h.lineHalf()) <= 1))
                .toList();
    }

    /** Whether column (row) {@code at} is, over {@link #FULL} of the grid's length, the colour {@code ref}. */
    private static boolean full(RgbImage img, int x0, int y0, int x1, int y1, int ref, boolean xAxis, int at) {
        int from = xAxis ? y0 : x0;
        int to = xAxis ? y1 : x1;
        int allowed = (to - from) - (int) Math.ceil(FULL * (to - from));
        int miss = 0;
        for (int t = from; t < to; t++) {
            if (ArcGridDecoder.l1(xAxis ? img.get(at, t) : img.get(t, at), ref) > ArcGridDecoder.EDGE_THRESHOLD
                    && ++miss > allowed) {
                return false;
            }
        }
        return true;
    }
}
