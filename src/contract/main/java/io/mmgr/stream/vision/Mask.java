package io.mmgr.stream.vision;

import java.util.Arrays;

/**
 * A binary mask over a {@code width x height} grid, one byte (0/1) per pixel, with the set and
 * morphology operations the evaluators need. Morphology uses square (Chebyshev) structuring elements
 * computed separably with running counts, so cost does not grow with the radius.
 */
public final class Mask {

    private final int width;
    private final int height;
    private final byte[] bits;

    public Mask(int width, int height) {
        this(width, height, new byte[width * height]);
    }

    private Mask(int width, int height, byte[] bits) {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("mask must be at least 1x1");
        }
        this.width = width;
        this.height = height;
        this.bits = bits;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public boolean get(int x, int y) {
        return bits[y * width + x] != 0;
    }

    public boolean get(int index) {
        return bits[index] != 0;
    }

    public void set(int x, int y, boolean on) {
        bits[y * width + x] = (byte) (on ? 1 : 0);
    }

    public void set(int index, boolean on) {
        bits[index] = (byte) (on ? 1 : 0);
    }

    /** Sets a clipped axis-aligned rectangle {@code [x0, x1) x [y0, y1)}. */
    public void fillRect(int x0, int y0, int x1, int y1, boolean on) {
        x0 = Math.max(0, x0);
        y0 = Math.max(0, y0);
        x1 = Math.min(width, x1);
        y1 = Math.min(height, y1);
        byte v = (byte) (on ? 1 : 0);
        for (int y = y0; y < y1; y++) {
            Arrays.fill(bits, y * width + x0, y * width + Math.max(x0, x1), v);
        }
    }

    /**
     * Paints a thick segment: a square brush of half-width {@code halfWidth} swept from
     * {@code (x0, y0)} to {@code (x1, y1)} (pixel-centre coordinates), clipped to the grid.
     */
    public void paintSegment(double x0, double y0, double x1, double y1, double halfWidth) {
        double len = Math.hypot(x1 - x0, y1 - y0);
        int steps = Math.max(1, (int) Math.ceil(len * 2));
        for (int i = 0; i <= steps; i++) {
            double t = i / (double) steps;
            double x = x0 + t * (x1 - x0);
            double y = y0 + t * (y1 - y0);
            fillRect((int) Math.round(x - halfWidth), (int) Math.round(y - halfWidth),
                    (int) Math.round(x + halfWidth), (int) Math.round(y + halfWidth), true);
        }
    }

    public Mask copy() {
        return new Mask(width, height, bits.clone());
    }

    public int count() {
        int n = 0;
        for (byte b : bits) {
            n += b;
        }
        return n;
    }

    /** Pixels set in a rectangle, clipped. */
    public int countIn(int x0, int y0, int x1, int y1) {
        x0 = Math.max(0, x0);
        y0 = Math.max(0, y0);
        x1 = Math.min(width, x1);
        y1 = Math.min(height, y1);
        int n = 0;
        for (int y = y0; y < y1; y++) {
            int row = y * width;
            for (int x = x0; x < x1; x++) {
                n += bits[row + x];
            }
        }
        return n;
    }

    public boolean isEmpty() {
        for (byte b : bits) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    public Mask and(Mask other) {
        checkSame(other);
        byte[] out = new byte[bits.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (bits[i] & other.bits[i]);
        }
        return new Mask(width, height, out);
    }

    public Mask or(Mask other) {
        checkSame(other);
        byte[] out = new byte[bits.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (bits[i] | other.bits[i]);
        }
        return new Mask(width, height, out);
    }

    /** In place union, for accumulating masks over frames. */
    public void orInPlace(Mask other) {
        checkSame(other);
        for (int i = 0; i < bits.length; i++) {
            bits[i] |= other.bits[i];
        }
    }

    public Mask andNot(Mask other) {
        checkSame(other);
        byte[] out = new byte[bits.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (bits[i] & ~other.bits[i] & 1);
        }
        return new Mask(width, height, out);
    }

    public Mask not() {
        byte[] out = new byte[bits.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (1 - bits[i]);
        }
        return new Mask(width, height, out);
    }

    public int intersectionCount(Mask other) {
        checkSame(other);
        int n = 0;
        for (int i = 0; i < bits.length; i++) {
            n += bits[i] & other.bits[i];
        }
        return n;
    }

    /**
     * Intersection over union of two masks, counting only pixels inside {@code region} (null: all).
     * Two empty masks are identical, so their IoU is 1.
     */
    public static double iou(Mask a, Mask b, Mask region) {
        a.checkSame(b);
        if (region != null) {
            a.checkSame(region);
        }
        int inter = 0;
        int union = 0;
        for (int i = 0; i < a.bits.length; i++) {
            if (region != null && region.bits[i] == 0) {
                continue;
            }
            inter += a.bits[i] & b.bits[i];
            union += a.bits[i] | b.bits[i];
        }
        return union == 0 ? 1.0 : (double) inter / union;
    }

    /**
     * {@link #iou} of {@code a} and {@code b} over the pixels farther than one pixel (Chebyshev) from
     * every set pixel of {@code near}: {@code iou(a, b, near[0].or(near[1])...dilate(1).not())}, row by
     * row without the four intermediate masks (a maze video takes it once per frame).
     */
    public static double iouAwayFrom(Mask a, Mask b, Mask... near) {
        a.checkSame(b);
        for (Mask m : near) {
            a.checkSame(m);
        }
        int w = a.width;
        int h = a.height;
        // near's union dilated along the row, for the rows above, at and below the current one
        byte[] above = new byte[w];
        byte[] at = new byte[w];
        byte[] below = new byte[w];
        byte[] union = new byte[w];
        dilatedRow(near, 0, w, union, at);
        int inter = 0;
        int all = 0;
        for (int y = 0; y < h; y++) {
            if (y + 1 < h) {
                dilatedRow(near, y + 1, w, union, below);
            } else {
                java.util.Arrays.fill(below, (byte) 0);
            }
            int row = y * w;
            for (int x = 0; x < w; x++) {
                if ((above[x] | at[x] | below[x]) != 0) {
                    continue;
                }
                inter += a.bits[row + x] & b.bits[row + x];
                all += a.bits[row + x] | b.bits[row + x];
            }
            byte[] t = above;
            above = at;
            at = below;
            below = t;
        }
        return all == 0 ? 1.0 : (double) inter / all;
    }

    /** Row {@code y} of the masks' union, dilated by one pixel along the row, into {@code out}. */
    private static void dilatedRow(Mask[] masks, int y, int w, byte[] union, byte[] out) {
        java.util.Arrays.fill(union, (byte) 0);
        int row = y * w;
        for (Mask m : masks) {
            for (int x = 0; x < w; x++) {
                union[x] |= m.bits[row + x];
            }
        }
        for (int x = 0; x < w; x++) {
            out[x] = (byte) (union[x] | (x > 0 ? union[x - 1] : 0) | (x + 1 < w ? union[x + 1] : 0));
        }
    }

    /** Centroid {x, y} in pixel-centre coordinates, or null when empty. */
    public double[] centroid() {
        long sx = 0;
        long sy = 0;
        long n = 0;
        for (int y = 0; y < height; y++) {
            int row = y * width;
            for (int x = 0; x < width; x++) {
                if (bits[row + x] != 0) {
                    sx += x;
                    sy += y;
                    n++;
                }
            }
        }
        return n == 0 ? null : new double[] {sx / (double) n + 0.5, sy / (double) n + 0.5};
    }

    /** Dilation by a (2r+1)-square: a pixel is set if any pixel within Chebyshev distance r is set. */
    public Mask dilate(int r) {
        if (r <= 0) {
            return copy();
        }
        return morph(r, false);
    }

    /**
     * Erosion by a (2r+1)-square: a pixel stays set only if every pixel within distance r is set.
     * Pixels outside the grid count as set (as OpenCV's default border), so erosion does not eat
     * shapes that touch the edge.
     */
    public Mask erode(int r) {
        if (r <= 0) {
            return copy();
        }
        return morph(r, true);
    }

    private Mask morph(int r, boolean erode) {
        byte[] tmp = new byte[bits.length];
        byte[] out = new byte[bits.length];
        int need = erode ? 2 * r + 1 : 1;
        // horizontal pass: count of set pixels in the window, outside treated as set for erosion
        for (int y = 0; y < height; y++) {
            int row = y * width;
            int sum = erode ? r : 0; // left padding
            for (int x = 0; x <= Math.min(r - 1, width - 1); x++) {
                sum += bits[row + x];
            }
            if (erode && r > width) {
                sum += r - width;
            }
            for (int x = 0; x < width; x++) {
                int add = x + r;
                sum += add < width ? bits[row + add] : (erode ? 1 : 0);
                if (erode ? sum >= need : sum >= 1) {
                    tmp[row + x] = 1;
                }
                int rem = x - r;
                sum -= rem >= 0 ? bits[row + rem] : (erode ? 1 : 0);
            }
        }
        for (int x = 0; x < width; x++) {
            int sum = erode ? r : 0;
            for (int y = 0; y <= Math.min(r - 1, height - 1); y++) {
                sum += tmp[y * width + x];
            }
            if (erode && r > height) {
                sum += r - height;
            }
            for (int y = 0; y < height; y++) {
                int add = y + r;
                sum += add < height ? tmp[add * width + x] : (erode ? 1 : 0);
                if (erode ? sum >= need : sum >= 1) {
                    out[y * width + x] = 1;
                }
                int rem = y - r;
                sum -= rem >= 0 ? tmp[rem * width + x] : (erode ? 1 : 0);
            }
        }
        return new Mask(width, height, out);
    }

    /**
     * Enclosed holes: 4-connected background regions that do not reach the border, with at least
     * {@code minArea} pixels. Background is 4-connected because the foreground is taken 8-connected,
     * so a one-pixel-wide diagonal ring still encloses its inside.
     */
    public int holes(int minArea) {
        int[] label = new int[bits.length];
        int[] queue = new int[bits.length];
        // flood the outside first
        int head = 0;
        int tail = 0;
        for (int x = 0; x < width; x++) {
            tail = seed(label, queue, tail, x, -1);
            tail = seed(label, queue, tail, x + (height - 1) * width, -1);
        }
        for (int y = 0; y < height; y++) {
            tail = seed(label, queue, tail, y * width, -1);
            tail = seed(label, queue, tail, y * width + width - 1, -1);
        }
        flood4(label, queue, head, tail, -1);
        int holes = 0;
        for (int i = 0; i < bits.length; i++) {
            if (bits[i] == 0 && label[i] == 0) {
                int t = seed(label, queue, 0, i, 1);
                int area = flood4(label, queue, 0, t, 1);
                if (area >= minArea) {
                    holes++;
                }
            }
        }
        return holes;
    }

    private int seed(int[] label, int[] queue, int tail, int index, int value) {
        if (bits[index] == 0 && label[index] == 0) {
            label[index] = value;
            queue[tail++] = index;
        }
        return tail;
    }

    /** Breadth-first fill over background pixels; returns the number of pixels filled. */
    private int flood4(int[] label, int[] queue, int head, int tail, int value) {
        while (head < tail) {
            int i = queue[head++];
            int x = i % width;
            int y = i / width;
            if (x > 0) {
                tail = seed(label, queue, tail, i - 1, value);
            }
            if (x < width - 1) {
                tail = seed(label, queue, tail, i + 1, value);
            }
            if (y > 0) {
                tail = seed(label, queue, tail, i - width, value);
            }
            if (y < height - 1) {
                tail = seed(label, queue, tail, i + width, value);
            }
        }
        return tail;
    }

    /** The mask without its 8-connected components smaller than {@code minArea} pixels. */
    public Mask withoutSmallComponents(int minArea) {
        return components(minArea, false);
    }

    /** The largest 8-connected component (empty when the mask is empty). */
    public Mask largestComponent() {
        return components(0, true);
    }

    /**
     * Labels the 8-connected components breadth first. Markers and paths cover a small share of the
     * grid, so the work is kept to the set pixels: the components are queued one after another in
     * one array of that size and the kept ones copied out from it, and the labels live in a
     * per-thread buffer that is cleared again at exactly the pixels that were labelled (one video
     * frame asks for three of these).
     */
    private Mask components(int minArea, boolean largestOnly) {
        int n = count();
        byte[] out = new byte[bits.length];
        if (n == 0) {
            return new Mask(width, height, out);
        }
        boolean[] seen = seenBuffer(bits.length);
        int[] queue = new int[n];
        // component k is queue[starts[k] .. starts[k + 1])
        int[] starts = new int[17];
        int components = 0;
        int best = 0;
        int bestArea = 0;
        int tail = 0;
        for (int i = 0; i < bits.length && tail < n; i++) {
            if (bits[i] == 0 || seen[i]) {
                continue;
            }
            int first = tail;
            seen[i] = true;
            queue[tail++] = i;
            for (int head = first; head < tail; head++) {
                int p = queue[head];
                int px = p % width;
                int py = p / width;
                for (int dy = -1; dy <= 1; dy++) {
                    int ny = py + dy;
                    if (ny < 0 || ny >= height) {
                        continue;
                    }
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = px + dx;
                        if (nx < 0 || nx >= width) {
                            continue;
                        }
                        int q = ny * width + nx;
                        if (bits[q] != 0 && !seen[q]) {
                            seen[q] = true;
                            queue[tail++] = q;
                        }
                    }
                }
            }
            if (components + 2 > starts.length) {
                starts = Arrays.copyOf(starts, starts.length * 2);
            }
            starts[components++] = first;
            starts[components] = tail;
            // the first of the largest wins a tie
            if (tail - first > bestArea) {
                bestArea = tail - first;
                best = components - 1;
            }
        }
        for (int k = 0; k < components; k++) {
            if (largestOnly ? k == best : starts[k + 1] - starts[k] >= minArea) {
                for (int j = starts[k]; j < starts[k + 1]; j++) {
                    out[queue[j]] = 1;
                }
            }
        }
        for (int j = 0; j < tail; j++) {
            seen[queue[j]] = false;
        }
        return new Mask(width, height, out);
    }

    /** All false on return to the caller, who must clear what it sets before it returns. */
    private static final ThreadLocal<boolean[][]> SEEN = ThreadLocal.withInitial(() -> new boolean[][] {new boolean[0]});

    private static boolean[] seenBuffer(int size) {
        boolean[][] holder = SEEN.get();
        if (holder[0].length < size) {
            holder[0] = new boolean[size];
        }
        return holder[0];
    }

    /**
     * Zhang-Suen thinning to a one-pixel-wide, 8-connected skeleton that keeps the shape's
     * topology (its loops stay loops).
     */
    public Mask thin() {
        byte[] img = bits.clone();
        int[] marked = new int[bits.length];
        // only set pixels can be removed: each pass visits those still set, not the whole mask (a
        // pass decides every pixel on the image as it was before the pass, so the order is free)
        int[] set = new int[bits.length];
        int m = 0;
        for (int i = 0; i < img.length; i++) {
            if (img[i] != 0) {
                set[m++] = i;
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int pass = 0; pass < 2; pass++) {
                int n = 0;
                for (int k = 0; k < m; k++) {
                    int i = set[k];
                    int y = i / width;
                    int x = i - y * width;
                    int p2 = at(img, x, y - 1);
                    int p3 = at(img, x + 1, y - 1);
                    int p4 = at(img, x + 1, y);
                    int p5 = at(img, x + 1, y + 1);
                    int p6 = at(img, x, y + 1);
                    int p7 = at(img, x - 1, y + 1);
                    int p8 = at(img, x - 1, y);
                    int p9 = at(img, x - 1, y - 1);
                    int b = p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9;
                    if (b < 2 || b > 6) {
                        continue;
                    }
                    int a = (p2 == 0 && p3 == 1 ? 1 : 0) + (p3 == 0 && p4 == 1 ? 1 : 0)
                            + (p4 == 0 && p5 == 1 ? 1 : 0) + (p5 == 0 && p6 == 1 ? 1 : 0)
                            + (p6 == 0 && p7 == 1 ? 1 : 0) + (p7 == 0 && p8 == 1 ? 1 : 0)
                            + (p8 == 0 && p9 == 1 ? 1 : 0) + (p9 == 0 && p2 == 1 ? 1 : 0);
                    if (a != 1) {
                        continue;
                    }
                    boolean remove = pass == 0
                            ? p2 * p4 * p6 == 0 && p4 * p6 * p8 == 0
                            : p2 * p4 * p8 == 0 && p2 * p6 * p8 == 0;
                    if (remove) {
                        marked[n++] = i;
                    }
                }
                for (int k = 0; k < n; k++) {
                    img[marked[k]] = 0;
                }
                if (n > 0) {
                    int kept = 0;
                    for (int k = 0; k < m; k++) {
                        if (img[set[k]] != 0) {
                            set[kept++] = set[k];
                        }
                    }
                    m = kept;
                }
                changed |= n > 0;
            }
        }
        return new Mask(width, height, img);
    }

    private int at(byte[] img, int x, int y) {
        return x < 0 || y < 0 || x >= width || y >= height ? 0 : img[y * width + x];
    }

    private void checkSame(Mask other) {
        if (other.width != width || other.height != height) {
            throw new IllegalArgumentException("mask sizes differ: " + width + "x" + height
                    + " vs " + other.width + "x" + other.height);
        }
    }
}
