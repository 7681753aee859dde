package io.mmgr.stream.vision;

import java.util.function.IntUnaryOperator;

/** Per-pixel class labels of an image (see {@link ColorLut#label(RgbImage)}). */
public final class LabelImage {

    private final int width;
    private final int height;
    private final byte[] labels;

    public LabelImage(int width, int height, byte[] labels) {
        if (labels.length != width * height) {
            throw new IllegalArgumentException("label array does not match " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
        this.labels = labels;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public int get(int x, int y) {
        return labels[y * width + x];
    }

    public int count(int label) {
        int n = 0;
        for (byte l : labels) {
            if (l == label) {
                n++;
            }
        }
        return n;
    }

    /**
     * The extent of a structure drawn in {@code label}: the first and last rows and columns whose
     * count of that label reaches {@code minFractionOfPeak} of the busiest row / column. A maze's
     * outer wall makes its border rows and columns the busiest, so scattered dark pixels in a margin
     * (noise, captions) do not widen the box. Null when the label is absent.
     */
    public Rect bounds(int label, double minFractionOfPeak) {
        int[] rows = new int[height];
        int[] cols = new int[width];
        for (int y = 0; y < height; y++) {
            int row = y * width;
            int n = 0;
            for (int x = 0; x < width; x++) {
                if (labels[row + x] == label) {
                    n++;
                    cols[x]++;
                }
            }
            rows[y] = n;
        }
        int[] ys = span(rows, minFractionOfPeak);
        int[] xs = span(cols, minFractionOfPeak);
        if (ys == null || xs == null) {
            return null;
        }
        return new Rect(xs[0], ys[0], xs[1] - xs[0] + 1, ys[1] - ys[0] + 1);
    }

    private static int[] span(int[] counts, double minFractionOfPeak) {
        int peak = 0;
        for (int c : counts) {
            peak = Math.max(peak, c);
        }
        if (peak == 0) {
            return null;
        }
        double threshold = Math.max(1, peak * minFractionOfPeak);
        int first = -1;
        int last = -1;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] >= threshold) {
                if (first < 0) {
                    first = i;
                }
                last = i;
            }
        }
        return new int[] {first, last};
    }

    /**
     * Resamples a region onto an {@code outWidth x outHeight} grid, counting each label inside every
     * output cell's footprint (at least one source pixel, so upsampling works too). Cost is linear in
     * the larger of the region and the grid.
     */
    public LabelGrid resample(Rect region, int outWidth, int outHeight, int numLabels) {
        int[] x0 = edges(region.x(), region.width(), outWidth, width);
        int[] y0 = edges(region.y(), region.height(), outHeight, height);
        int cells = outWidth * outHeight;
        int[][] counts = new int[numLabels][cells];
        int[] area = new int[cells];
        for (int cy = 0; cy < outHeight; cy++) {
            int ya = y0[cy];
            int yb = Math.max(ya + 1, y0[cy + 1]);
            for (int cx = 0; cx < outWidth; cx++) {
                int xa = x0[cx];
                int xb = Math.max(xa + 1, x0[cx + 1]);
                int cell = cy * outWidth + cx;
                for (int y = ya; y < yb && y < height; y++) {
                    int row = y * width;
                    for (int x = xa; x < xb && x < width; x++) {
                        int l = labels[row + x];
                        if (l < numLabels) {
                            counts[l][cell]++;
                        }
                    }
                }
                area[cell] = (Math.min(yb, height) - ya) * (Math.min(xb, width) - xa);
            }
        }
        return new LabelGrid(outWidth, outHeight, counts, area);
    }

    private static int[] edges(int start, int length, int cells, int limit) {
        int[] e = new int[cells + 1];
        for (int i = 0; i <= cells; i++) {
            e[i] = Math.min(limit - 1, start + (int) ((long) i * length / cells));
        }
        e[cells] = Math.min(limit, start + length);
        return e;
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
