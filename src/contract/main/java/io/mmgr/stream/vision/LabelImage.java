package io.mmgr.stream.vision;

import java.util.function.IntUnaryOperator;

/**
 * Per-pixel class labels of an image: raw codes per pixel (see {@link ColorLut#label(RgbImage)}) read
 * through a table from code to class, so one labelling pass serves whichever split of the codes into
 * classes an image turns out to need.
 */
public final class LabelImage {

    private final int width;
    private final int height;
    private final byte[] codes;
    private final byte[] classOf;

    /** Labels that are their own classes. */
    public LabelImage(int width, int height, byte[] labels) {
        this(width, height, labels, null);
    }

    /**
     * Codes per pixel (the first {@code width * height} entries of {@code codes}, which may be a
     * longer reused buffer) and the class of each code (null: codes are the classes).
     */
    public LabelImage(int width, int height, byte[] codes, byte[] classOf) {
        if (codes.length < width * height) {
            throw new IllegalArgumentException("label array does not match " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
        this.codes = codes;
        this.classOf = classOf;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** The backing codes (not a copy; may be longer than {@code width * height}). */
    public byte[] codes() {
        return codes;
    }

    /** Whether the codes are the labels themselves (no class table). */
    public boolean raw() {
        return classOf == null;
    }

    public int get(int x, int y) {
        return get(y * width + x);
    }

    public int get(int index) {
        int c = codes[index];
        return classOf == null ? c : classOf[c];
    }

    /**
     * Source intervals, one per output index along an axis: output index {@code i} covers source
     * pixels {@code [start[i], end[i])}. Intervals may overlap or repeat (a thin line stretched over
     * several output pixels), so an axis can be mapped piecewise rather than by one scale.
     */
    public record Footprints(int[] start, int[] end) {
        public Footprints {
            if (start.length != end.length || start.length == 0) {
                throw new IllegalArgumentException("footprints need matching, non-empty start and end arrays");
            }
        }

        public int size() {
            return start.length;
        }

        /** {@code cells} equal intervals over {@code [from, from + length)} (at least one pixel each). */
        public static Footprints linear(int from, int length, int cells) {
            int[] s = new int[cells];
            int[] e = new int[cells];
            for (int i = 0; i < cells; i++) {
                s[i] = from + (int) ((long) i * length / cells);
                e[i] = Math.max(s[i] + 1, from + (int) ((long) (i + 1) * length / cells));
            }
            return new Footprints(s, e);
        }

        /** Clipped to {@code [0, limit)}, at least one pixel each. */
        Footprints clip(int limit) {
            int[] s = new int[size()];
            int[] e = new int[size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = Math.max(0, Math.min(limit - 1, start[i]));
                e[i] = Math.max(s[i] + 1, Math.min(limit, end[i]));
            }
            return new Footprints(s, e);
        }

        /**
         * Groups of consecutive outputs with the same interval (the pixels of a thin line stretched
         * over a block share one): {@code group[i]} for each output, then each group's interval.
         */
        int[][] groups() {
            int[] group = new int[size()];
            int n = 0;
            for (int i = 0; i < size(); i++) {
                if (i > 0 && (start[i] != start[i - 1] || end[i] != end[i - 1])) {
                    n++;
                }
                group[i] = n;
            }
            int[] gs = new int[n + 1];
            int[] ge = new int[n + 1];
            for (int i = 0; i < size(); i++) {
                gs[group[i]] = start[i];
                ge[group[i]] = end[i];
            }
            return new int[][] {group, gs, ge};
        }

        /**
         * For every source pixel, the groups whose interval holds it, as compressed rows: those of
         * pixel {@code p} are {@code index[offset[p] .. offset[p + 1])}.
         */
        static int[][] inverse(int[] gs, int[] ge, int limit) {
            int[] offset = new int[limit + 1];
            for (int g = 0; g < gs.length; g++) {
                for (int p = gs[g]; p < ge[g]; p++) {
                    offset[p + 1]++;
                }
            }
            for (int p = 0; p < limit; p++) {
                offset[p + 1] += offset[p];
            }
            int[] index = new int[offset[limit]];
            int[] fill = offset.clone();
            for (int g = 0; g < gs.length; g++) {
                for (int p = gs[g]; p < ge[g]; p++) {
                    index[fill[p]++] = g;
                }
            }
            return new int[][] {offset, index};
        }
    }

    /**
     * Counts the labels {@code first .. numLabels - 1} inside every output cell's footprint
     * ({@code xs} x {@code ys}, clipped to the image). Each source pixel of such a label is added to
     * the cells whose footprints hold it, so the cost is one look at every covered pixel plus one
     * increment per counted pixel and cell (usually one); labels below {@code first} (background) cost
     * nothing more.
     */
    public LabelGrid resample(Footprints xs, Footprints ys, int first, int numLabels) {
        return resample(xs, ys, first, numLabels, null, 0);
    }

    /**
     * As {@link #resample(Footprints, Footprints, int, int)}, visiting only the pixels listed in
     * {@code candidates[0 .. n)} (indices {@code y * width + x}; null: every pixel), for labels known
     * to occur only there.
     */
    public LabelGrid resample(Footprints xs, Footprints ys, int first, int numLabels, int[] candidates, int n) {
        Footprints cx = xs.clip(width);
        Footprints cy = ys.clip(height);
        int ow = cx.size();
        int oh = cy.size();
        int[][] gx = cx.groups();
        int[][] gy = cy.groups();
        int gw = gx[1].length;
        int gh = gy[1].length;
        int[][] xi = Footprints.inverse(gx[1], gx[2], width);
        int[][] yi = Footprints.inverse(gy[1], gy[2], height);
        int[] xOff = xi[0];
        int[] xIdx = xi[1];
        int[] yOff = yi[0];
        int[] yIdx = yi[1];
        int x0 = width;
        int x1 = 0;
        for (int g = 0; g < gw; g++) {
            x0 = Math.min(x0, gx[1][g]);
            x1 = Math.max(x1, gx[2][g]);
        }
        // the usual pixel lies in exactly one group per axis: its group, or -1 for none or several
        int[] single = new int[width];
        for (int x = 0; x < width; x++) {
            single[x] = xOff[x + 1] - xOff[x] == 1 ? xIdx[xOff[x]] : -1;
        }
        int[][] grouped = new int[numLabels][gw * gh];
        if (candidates != null) {
            countCandidates(candidates, n, first, numLabels, gw, single, xOff, xIdx, yOff, yIdx, grouped);
        }
        // rows whose codes repeat the row above (a block lattice repeats each row many times) are
        // counted once per run of identical rows, then added to every output row they fall in
        int[][] rowCounts = new int[numLabels][gw];
        int[] rowsIn = new int[gh];
        int[] touched = new int[gh];
        for (int y = 0; candidates == null && y < height; ) {
            int row = y * width;
            int k = 1;
            while (y + k < height && java.util.Arrays.equals(codes, row + x0, row + x1, codes, row + k * width + x0,
                    row + k * width + x1)) {
                k++;
            }
            int nTouched = 0;
            for (int r = y; r < y + k; r++) {
                for (int a = yOff[r]; a < yOff[r + 1]; a++) {
                    int g = yIdx[a];
                    if (rowsIn[g]++ == 0) {
                        touched[nTouched++] = g;
                    }
                }
            }
            y += k;
            if (nTouched == 0) {
                continue;
            }
            for (int l = first; l < numLabels; l++) {
                java.util.Arrays.fill(rowCounts[l], 0);
            }
            // runs of one label in one group are counted in a register, not one memory increment each
            int runLabel = -1;
            int runGroup = -1;
            int run = 0;
            for (int x = x0; x < x1; x++) {
                int code = codes[row + x];
                int l = classOf == null ? code : classOf[code];
                if (l < first || l >= numLabels) {
                    continue;
                }
                if (single[x] >= 0) {
                    int g = single[x];
                    if (g == runGroup && l == runLabel) {
                        run++;
                    } else {
                        if (run > 0) {
                            rowCounts[runLabel][runGroup] += run;
                        }
                        runLabel = l;
                        runGroup = g;
                        run = 1;
                    }
                    continue;
                }
                int[] cl = rowCounts[l];
                for (int b = xOff[x]; b < xOff[x + 1]; b++) {
                    cl[xIdx[b]]++;
                }
            }
            if (run > 0) {
                rowCounts[runLabel][runGroup] += run;
            }
            for (int t = 0; t < nTouched; t++) {
                int g = touched[t];
                int m = rowsIn[g];
                rowsIn[g] = 0;
                int base = g * gw;
                for (int l = first; l < numLabels; l++) {
                    int[] rc = rowCounts[l];
                    int[] cl = grouped[l];
                    for (int c = 0; c < gw; c++) {
                        cl[base + c] += m * rc[c];
                    }
                }
            }
        }
        int[][] counts = new int[numLabels][ow * oh];
        int[] area = new int[ow * oh];
        for (int r = 0; r < oh; r++) {
            int rg = gy[0][r] * gw;
            int rh = cy.end()[r] - cy.start()[r];
            for (int c = 0; c < ow; c++) {
                int cell = r * ow + c;
                area[cell] = rh * (cx.end()[c] - cx.start()[c]);
                int gcell = rg + gx[0][c];
                for (int l = first; l < numLabels; l++) {
                    counts[l][cell] = grouped[l][gcell];
                }
            }
        }
        return new LabelGrid(ow, oh, counts, area);
    }

    /**
     * Adds the candidate pixels of labels {@code first .. numLabels - 1} to the groups holding them.
     * Candidates come in ascending order (they are noted while scanning), so the row is followed
     * rather than divided out of each index, and a run of pixels of one label in one group (a stroke
     * across a cell) is counted in a register; any order still counts right.
     */
    private void countCandidates(int[] candidates, int n, int first, int numLabels, int gw, int[] single,
                                 int[] xOff, int[] xIdx, int[] yOff, int[] yIdx, int[][] grouped) {
        int rowStart = 0;
        int rowEnd = 0;
        int y = 0;
        // the row's only group, or -1 when it lies in none or several
        int rowGroup = -1;
        int runLabel = -1;
        int runCell = -1;
        int run = 0;
        for (int k = 0; k < n; k++) {
            int i = candidates[k];
            int code = codes[i];
            int l = classOf == null ? code : classOf[code];
            if (l < first || l >= numLabels) {
                continue;
            }
            if (i >= rowEnd || i < rowStart) {
                y = i / width;
                rowStart = y * width;
                rowEnd = rowStart + width;
                rowGroup = yOff[y + 1] - yOff[y] == 1 ? yIdx[yOff[y]] : -1;
            }
            int x = i - rowStart;
            int gx = single[x];
            if (rowGroup >= 0 && gx >= 0) {
                int cell = rowGroup * gw + gx;
                if (cell == runCell && l == runLabel) {
                    run++;
                } else {
                    if (run > 0) {
                        grouped[runLabel][runCell] += run;
                    }
                    runLabel = l;
                    runCell = cell;
                    run = 1;
                }
                continue;
            }
            int[] cl = grouped[l];
            for (int a = yOff[y]; a < yOff[y + 1]; a++) {
                int base = yIdx[a] * gw;
                for (int b = xOff[x]; b < xOff[x + 1]; b++) {
                    cl[base + xIdx[b]]++;
                }
            }
        }
        if (run > 0) {
            grouped[runLabel][runCell] += run;
        }
    }

    /** Resamples a rectangle linearly onto an {@code outWidth x outHeight} grid, counting every label. */
    public LabelGrid resample(Rect region, int outWidth, int outHeight, int numLabels) {
        return resample(Footprints.linear(region.x(), region.width(), outWidth),
                Footprints.linear(region.y(), region.height(), outHeight), 0, numLabels);
    }

    /** Label counts per cell of a resampled grid. */
    public static final class LabelGrid {
        private final int width;
        private final int height;
        private final int[][] counts;
        private final int[] area;

        LabelGrid(int width, int height, int[][] counts, int[] area) {
            this.width = width;
            this.height = height;
            this.counts = counts;
            this.area = area;
        }

        public int width() {
            return width;
        }

        public int height() {
            return height;
        }

        /** Cells holding at least {@code minFraction} of their footprint in {@code label}. */
        public Mask mask(int label, double minFraction) {
            return mask(label, a -> (int) Math.ceil(Math.max(1, minFraction * a)));
        }

        /** A per-cell minimum count, from the cell's position and footprint area. */
        @FunctionalInterface
        public interface CellThreshold {
            double minCount(int cx, int cy, int area);
        }

        /** Cells whose count of {@code label} reaches a threshold that depends on where the cell is. */
        public Mask mask(int label, CellThreshold threshold) {
            Mask m = new Mask(width, height);
            int[] c = counts[label];
            for (int cy = 0, i = 0; cy < height; cy++) {
                for (int cx = 0; cx < width; cx++, i++) {
                    if (c[i] > 0 && c[i] >= threshold.minCount(cx, cy, area[i])) {
                        m.set(i, true);
                    }
                }
            }
            return m;
        }

        /** Cells whose count of {@code label} reaches {@code minCount.applyAsInt(footprintArea)}. */
        public Mask mask(int label, IntUnaryOperator minCount) {
            Mask m = new Mask(width, height);
            int[] c = counts[label];
            for (int i = 0; i < c.length; i++) {
                if (c[i] > 0 && c[i] >= minCount.applyAsInt(area[i])) {
                    m.set(i, true);
                }
            }
            return m;
        }
    }
}
