package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.GridException;
import io.mmgr.stream.vision.GridGeometry;
import io.mmgr.stream.vision.InkImage;
import io.mmgr.stream.vision.Mask;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds a ruled {@code n x n} grid anywhere on a light canvas: any position, margin and size, thin
 * and thick lines, other marks around it. The grid's lines are one connected net, the largest mark
 * on the page; its bounding box is the grid and the rows and columns that the net crosses almost
 * end to end are its lines. Lines too faint or blurred to survive the threshold are put where the
 * lattice says they must be, provided every line that was found sits on that lattice.
 *
 * <p>The net is taken at Otsu's level first. Grey or blurred lines can fall below that level when dark
 * digits set it, so a failed search is repeated half-way between the paper and that level.
 */
public final class GridLocator {

    /**
     * Bounds on Otsu's level (the page/mark split). At least 48, so paper tints and compression
     * noise (a #E8E8E8 box shading is 23, JPEG noise on white under 15) never join the net; at most
     * 160, so mid-grey lines (#707070 is 143) stay in the net when black digits pull Otsu's level up.
     */
    static final int MIN_THRESHOLD = 48;
    static final int MAX_THRESHOLD = 160;
    /**
     * A column (row) of the grid's bounding box is a line when the net covers at least this
     * fraction of it. Lines cover ~100%; digits touching the net add at most a few cells' worth, and a
     * Sudoku column never repeats a digit, so strokes do not line up across all rows.
     */
    static final double LINE_COVERAGE = 0.7;
    /**
     * A found line may sit this fraction of a cell away from its lattice position. Drawn grids put
     * lines within a pixel or two of it; 0.2 also takes slightly uneven hand-made or generated grids,
     * yet stays below the 0.25 cell by which the lines of a 4x4 lattice miss a 9x9 one and vice versa.
     */
    static final double LATTICE_TOLERANCE = 0.2;
    /** Line gaps within this relative spread of their mean make a regular lattice (for the wrong-size report). */
    static final double REGULAR_SPREAD = 0.25;
    /** Smallest cell pitch we try to read, in pixels; below it digits are a few pixels tall. */
    static final int MIN_PITCH = 8;
    /** The grid's bounding box may be at most this elongated (a stretched square grid, not a table or a strip). */
    static final double MAX_ASPECT = 2.0;

    private GridLocator() {
    }

    public static GridGeometry locate(InkImage ink, int n) throws GridException {
        int[] hist = ink.histogram(0, 0, ink.width(), ink.height());
        int threshold = Math.max(MIN_THRESHOLD, Math.min(MAX_THRESHOLD, InkImage.otsu(hist)));
        try {
            return locate(ink, n, threshold);
        } catch (GridException first) {
            int paper = InkImage.percentile(hist, 0.5);
            int lower = paper + (threshold - paper) / 2;
            if (lower <= paper || lower >= threshold) {
                throw first;
            }
            try {
                return locate(ink, n, lower);
            } catch (GridException second) {
                // a wrong size says more than "not found", whichever level saw it
                throw second.kind() == GridException.Kind.WRONG_SIZE || first.kind() != GridException.Kind.WRONG_SIZE
                        ? second : first;
            }
        }
    }

    /**
     * Marks other than the grid may be larger than it (a frame round the page outweighs a 4x4 grid's
     * ten lines): when the largest mark is no grid, the next largest ones are tried.
     */
    static final int CANDIDATES = 3;

    static GridGeometry locate(InkImage ink, int n, int threshold) throws GridException {
        Mask marks = ink.mask(threshold);
        GridException failure = null;
        for (int k = 0; k < CANDIDATES; k++) {
            Mask net = marks.largestComponent();
            if (net.isEmpty()) {
                break;
            }
            try {
                return locate(ink, n, threshold, net);
            } catch (GridException e) {
                if (failure == null || (e.kind() == GridException.Kind.WRONG_SIZE
                        && failure.kind() != GridException.Kind.WRONG_SIZE)) {
                    failure = e;
                }
            }
            marks = marks.andNot(net);
        }
        throw failure != null ? failure : new GridException(GridException.Kind.NOT_FOUND,
                "no grid found: no ruled area of at least " + n * MIN_PITCH + " px a side");
    }

    private static GridGeometry locate(InkImage ink, int n, int threshold, Mask net) throws GridException {
        int w = ink.width();
        int h = ink.height();
        int x0 = w;
        int y0 = h;
        int x1 = -1;
        int y1 = -1;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (net.get(x, y)) {
                    x0 = Math.min(x0, x);
                    x1 = Math.max(x1, x);
                    y0 = Math.min(y0, y);
                    y1 = Math.max(y1, y);
                }
            }
        }
        int bw = x1 - x0 + 1;
        int bh = y1 - y0 + 1;
        if (x1 < 0 || bw < n * MIN_PITCH || bh < n * MIN_PITCH) {
            throw new GridException(GridException.Kind.NOT_FOUND, "no grid found: no ruled area of at least "
                    + n * MIN_PITCH + " px a side");
        }
        double aspect = bw / (double) bh;
        if (aspect > MAX_ASPECT || aspect < 1 / MAX_ASPECT) {
            throw new GridException(GridException.Kind.NOT_FOUND, String.format(Locale.ROOT,
                    "no grid found: the largest ruled area is %dx%d px, too elongated for a square grid", bw, bh));
        }
        int[] colCount = new int[bw];
        int[] rowCount = new int[bh];
        for (int y = y0; y <= y1; y++) {
            for (int x = x0; x <= x1; x++) {
                if (net.get(x, y)) {
                    colCount[x - x0]++;
                    rowCount[y - y0]++;
                }
            }
        }
        Lines cols = fit(runs(colCount, bh, x0), n, "columns");
        Lines rows = fit(runs(rowCount, bw, y0), n, "rows");
        return new GridGeometry(cols.centre, cols.half, rows.centre, rows.half, cols.seen, rows.seen, threshold);
    }

    /**
     * Whether the lines seen in {@code g} are still where they were in {@code ink}: each still inked
     * (at the level they were found at) along {@link #LINE_COVERAGE} of its length, sampled every
     * other pixel. A video's grid rarely moves, so checking costs far less than searching; a moved,
     * faded or vanished grid fails and is searched for again.
     */
    public static boolean stillFits(InkImage ink, GridGeometry g) {
        int y0 = (int) Math.round(g.ys()[0]);
        int y1 = (int) Math.round(g.ys()[g.rows()]);
        int x0 = (int) Math.round(g.xs()[0]);
        int x1 = (int) Math.round(g.xs()[g.cols()]);
        if (x0 < 0 || y0 < 0 || x1 >= ink.width() || y1 >= ink.height()) {
            return false;
        }
        for (int k = 0; k <= g.cols(); k++) {
            if (g.xSeen()[k] && !inked(ink, (int) Math.round(g.xs()[k]), y0, y1, true, g.threshold())) {
                return false;
            }
        }
        for (int k = 0; k <= g.rows(); k++) {
            if (g.ySeen()[k] && !inked(ink, (int) Math.round(g.ys()[k]), x0, x1, false, g.threshold())) {
                return false;
            }
        }
        return true;
    }

    private static boolean inked(InkImage ink, int at, int from, int to, boolean vertical, int threshold) {
        int hits = 0;
        int samples = 0;
        for (int t = from; t <= to; t += 2) {
            samples++;
            if ((vertical ? ink.get(at, t) : ink.get(t, at)) >= threshold) {
                hits++;
            }
        }
        return hits >= LINE_COVERAGE * samples;
    }

    private record Lines(double[] centre, double[] half, boolean[] seen) {
    }

    /** Runs of line positions: {centre, half-width} in image coordinates. */
    private static List<double[]> runs(int[] count, int span, int offset) {
        List<double[]> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= count.length; i++) {
            boolean line = i < count.length && count[i] >= LINE_COVERAGE * span;
            if (line && start < 0) {
                start = i;
            } else if (!line && start >= 0) {
                int len = i - start;
                out.add(new double[] {offset + start + (len - 1) / 2.0, len / 2.0});
                start = -1;
            }
        }
        return out;
    }

    /** The n+1 line centres and half-widths, fitted to a regular lattice from the first to the last line. */
    private static Lines fit(List<double[]> runs, int n, String axis) throws GridException {
        if (runs.size() < 2) {
            throw new GridException(GridException.Kind.NOT_FOUND, "no grid found: the ruled area has no border lines");
        }
        double first = runs.get(0)[0];
        double last = runs.get(runs.size() - 1)[0];
        double cell = (last - first) / n;
        if (cell < MIN_PITCH) {
            throw new GridException(GridException.Kind.NOT_FOUND, "no grid found: cells would be under " + MIN_PITCH + " px");
        }
        double[] centre = new double[n + 1];
        double[] half = new double[n + 1];
        boolean[] seen = new boolean[n + 1];
        boolean fits = true;
        for (double[] run : runs) {
            double pos = (run[0] - first) / cell;
            int k = (int) Math.round(pos);
            if (k < 0 || k > n || Math.abs(pos - k) > LATTICE_TOLERANCE || seen[k]) {
                fits = false;
                break;
            }
            seen[k] = true;
            centre[k] = run[0];
            half[k] = run[1];
        }
        if (!fits) {
            int m = runs.size() - 1;
            if (m != n && regular(runs)) {
                throw new GridException(GridException.Kind.WRONG_SIZE,
                        "the grid has " + m + " " + axis + ", expected " + n);
            }
            throw new GridException(GridException.Kind.NOT_FOUND,
                    "no grid found: the lines do not form " + n + " evenly spaced " + axis);
        }
        boolean inner = false;
        for (int k = 1; k < n; k++) {
            inner |= seen[k];
        }
        if (!inner) {
            // a bare frame (a photo border, a text box) is not a grid: at least the box lines must show
            throw new GridException(GridException.Kind.NOT_FOUND, "no grid found: a frame without inner " + axis + " lines");
        }
        double thin = Double.MAX_VALUE;
        for (int k = 0; k <= n; k++) {
            if (seen[k]) {
                thin = Math.min(thin, half[k]);
            }
        }
        for (int k = 0; k <= n; k++) {
            if (!seen[k]) {
                centre[k] = first + k * cell;
                half[k] = thin; // a line too faint to find is at most as wide as the thinnest found
            }
        }
        return new Lines(centre, half, seen);
    }

    private static boolean regular(List<double[]> runs) {
        double total = runs.get(runs.size() - 1)[0] - runs.get(0)[0];
        double mean = total / (runs.size() - 1);
        for (int i = 1; i < runs.size(); i++) {
            double gap = runs.get(i)[0] - runs.get(i - 1)[0];
            if (Math.abs(gap - mean) > REGULAR_SPREAD * mean) {
                return false;
            }
        }
        return true;
    }
}
