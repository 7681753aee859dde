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
    }

    /**
     * Counts each label inside every output cell's footprint ({@code xs} x {@code ys}, clipped to the
     * image). Rows of output cells sharing a y-interval share one column histogram, so the cost is
     * about one pass over the covered source rows plus a prefix sum per distinct interval.
     */
    public LabelGrid resample(Footprints xs, Footprints ys, int numLabels) {
        int ow = xs.size();
        int oh = ys.size();
        int minX = width;
        int maxX = 0;
        for (int i = 0; i < ow; i++) {
            minX = Math.min(minX, clip(xs.start()[i], width - 1));
            maxX = Math.max(maxX, clip(xs.end()[i], width));
        }
        maxX = Math.max(maxX, minX + 1);
        int span = maxX - minX;
        int stride = span + 1;
        int[] prefix = new int[numLabels * stride];
        int[][] counts = new int[numLabels][ow * oh];
        int[] area = new int[ow * oh];
        int lastYa = -1;
        int lastYb = -1;
        for (int cy = 0; cy < oh; cy++) {
            int ya = clip(ys.start()[cy], height - 1);
            int yb = Math.max(ya + 1, clip(ys.end()[cy], height));
            if (ya != lastYa || yb != lastYb) {
                java.util.Arrays.fill(prefix, 0);
                for (int y = ya; y < yb; y++) {
                    int row = y * width + minX;
                    for (int x = 0; x < span; x++) {
                        int l = labels[row + x];
                        if (l >= 0 && l < numLabels) {
                            prefix[l * stride + x + 1]++;
                        }
                    }
                }
                for (int l = 0; l < numLabels; l++) {
                    int base = l * stride;
                    for (int x = 1; x <= span; x++) {
                        prefix[base + x] += prefix[base + x - 1];
                    }
                }
                lastYa = ya;
                lastYb = yb;
            }
            for (int cx = 0; cx < ow; cx++) {
                int xa = clip(xs.start()[cx], width - 1);
                int xb = Math.max(xa + 1, clip(xs.end()[cx], width));
                int cell = cy * ow + cx;
                for (int l = 0; l < numLabels; l++) {
                    int base = l * stride;
                    counts[l][cell] = prefix[base + xb - minX] - prefix[base + xa - minX];
                }
                area[cell] = (yb - ya) * (xb - xa);
            }
        }
        return new LabelGrid(ow, oh, counts, area);
    }

    /** Resamples a rectangle linearly onto an {@code outWidth x outHeight} grid. */
    public LabelGrid resample(Rect region, int outWidth, int outHeight, int numLabels) {
        return resample(Footprints.linear(region.x(), region.width(), outWidth),
                Footprints.linear(region.y(), region.height(), outHeight), numLabels);
    }

    private static int clip(int v, int limit) {
        return Math.max(0, Math.min(limit, v));
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
