package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.InkImage;
import io.mmgr.stream.vision.Rect;

/**
 * Decides whether a cell-sized region holds a mark and cuts it out as a {@link Glyph}. The threshold
 * is the region's own (adaptive): half-way between its paper level (median ink) and its ink level
 * (99.5th percentile), so faint, coloured or shaded cells are judged against themselves. Specks and
 * slivers of the surrounding lines are dropped before the decision.
 */
public final class GlyphExtractor {

    /**
     * Below this spread between paper and ink (of 255) a region is blank. Measured on the test looks
     * (JPEG down to quality 50, blur, shaded boxes), empty cells spread at most 14 and filled ones at
     * least 184; a mid-grey digit (#909090) still spreads ~110. 48 keeps a wide margin on both sides.
     */
    static final int MIN_CONTRAST = 48;
    /**
     * Components smaller than this fraction of the region (and at least 3 px) are noise specks: JPEG
     * and codec blotches are a few pixels, the smallest digit stroke part (the dot-free "1") is ~3%.
     */
    static final double MIN_SPECK = 0.003;
    /**
     * A component touching the region's edge and thinner than this fraction of the region across
     * that edge is a sliver of a grid line that the cell bounds did not quite exclude.
     */
    static final double SLIVER = 0.12;
    /**
     * A mark counts as a character only when it is at least this fraction of the region tall; printed
     * digits are 40-70% of a cell, a stray dot or dash is far less.
     */
    static final double MIN_HEIGHT = 0.2;
    /**
     * Percentiles taken as the paper and the ink level: the median is paper, as digits cover well under
     * half a cell; the 99.5th percentile lands inside the strokes of even a thin "1" (3-5% of the cell)
     * while a handful of noisy pixels cannot set it.
     */
    static final double PAPER = 0.5;
    static final double INK = 0.995;

    private GlyphExtractor() {
    }

    /** A glyph when the region holds a character-sized mark, else null. */
    public static Glyph extract(InkImage ink, Rect r) {
        int w = r.width();
        int h = r.height();
        int[] hist = ink.histogram(r.x(), r.y(), r.x() + w, r.y() + h);
        int paper = InkImage.percentile(hist, PAPER);
        int peak = InkImage.percentile(hist, INK);
        if (peak - paper < MIN_CONTRAST) {
            return null;
        }
        int threshold = paper + (peak - paper) / 2;
        int[] values = new int[w * h];
        boolean[] on = new boolean[w * h];
        for (int y = 0; y < h; y++) {
            int iy = Math.min(ink.height() - 1, r.y() + y);
            for (int x = 0; x < w; x++) {
                int v = ink.get(Math.min(ink.width() - 1, r.x() + x), iy);
                values[y * w + x] = v;
                on[y * w + x] = v >= threshold;
            }
        }
        int[] label = new int[w * h];
        int[] queue = new int[w * h];
        boolean[] keep = new boolean[w * h];
        int minArea = Math.max(3, (int) Math.round(MIN_SPECK * w * h));
        int gx0 = w;
        int gy0 = h;
        int gx1 = -1;
        int gy1 = -1;
        int next = 0;
        for (int start = 0; start < on.length; start++) {
            if (!on[start] || label[start] != 0) {
                continue;
            }
            next++;
            int head = 0;
            int tail = 0;
            queue[tail++] = start;
            label[start] = next;
            int cx0 = w;
            int cy0 = h;
            int cx1 = -1;
            int cy1 = -1;
            while (head < tail) {
                int p = queue[head++];
                int px = p % w;
                int py = p / w;
                cx0 = Math.min(cx0, px);
                cx1 = Math.max(cx1, px);
                cy0 = Math.min(cy0, py);
                cy1 = Math.max(cy1, py);
                for (int dy = -1; dy <= 1; dy++) {
                    int ny = py + dy;
                    if (ny < 0 || ny >= h) {
                        continue;
                    }
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = px + dx;
                        if (nx < 0 || nx >= w) {
                            continue;
                        }
                        int q = ny * w + nx;
                        if (on[q] && label[q] == 0) {
                            label[q] = next;
                            queue[tail++] = q;
                        }
                    }
                }
            }
            int cw = cx1 - cx0 + 1;
            int ch = cy1 - cy0 + 1;
            boolean sliver = ((cx0 == 0 || cx1 == w - 1) && cw <= SLIVER * w)
                    || ((cy0 == 0 || cy1 == h - 1) && ch <= SLIVER * h);
            if (tail < minArea || sliver) {
                continue;
            }
            for (int i = 0; i < tail; i++) {
                keep[queue[i]] = true;
            }
            gx0 = Math.min(gx0, cx0);
            gx1 = Math.max(gx1, cx1);
            gy0 = Math.min(gy0, cy0);
            gy1 = Math.max(gy1, cy1);
        }
        if (gx1 < 0 || gy1 - gy0 + 1 < MIN_HEIGHT * h) {
            return null;
        }
        // one pixel of margin keeps the anti-aliased rim of the strokes
        gx0 = Math.max(0, gx0 - 1);
        gy0 = Math.max(0, gy0 - 1);
        gx1 = Math.min(w - 1, gx1 + 1);
        gy1 = Math.min(h - 1, gy1 + 1);
        int ow = gx1 - gx0 + 1;
        int oh = gy1 - gy0 + 1;
        byte[] out = new byte[ow * oh];
        double below = Math.max(1, threshold - paper);
        double above = Math.max(1, peak - threshold);
        for (int y = 0; y < oh; y++) {
            for (int x = 0; x < ow; x++) {
                int sx = gx0 + x;
                int sy = gy0 + y;
                if (!nearKept(keep, w, h, sx, sy)) {
                    continue; // specks and line slivers are erased, not just left outside the crop
                }
                int v = values[sy * w + sx];
                double n = v < threshold ? 128 * Math.max(0, v - paper) / below : 128 + 127 * Math.min(1, (v - threshold) / above);
                out[y * ow + x] = (byte) Math.min(255, Math.round(n));
            }
        }
        return new Glyph(ow, oh, out);
    }

    private static boolean nearKept(boolean[] keep, int w, int h, int x, int y) {
        for (int dy = -1; dy <= 1; dy++) {
            int ny = y + dy;
            if (ny < 0 || ny >= h) {
                continue;
            }
            for (int dx = -1; dx <= 1; dx++) {
                int nx = x + dx;
                if (nx >= 0 && nx < w && keep[ny * w + nx]) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A coarse fingerprint of the region: the mean ink of each of {@code k x k} blocks. Two frames of
     * a video whose fingerprints match closely show the same cell content.
     */
    public static byte[] fingerprint(InkImage ink, Rect r, int k) {
        byte[] out = new byte[k * k];
        for (int by = 0; by < k; by++) {
            int y0 = r.y() + by * r.height() / k;
            int y1 = Math.max(y0 + 1, r.y() + (by + 1) * r.height() / k);
            for (int bx = 0; bx < k; bx++) {
                int x0 = r.x() + bx * r.width() / k;
                int x1 = Math.max(x0 + 1, r.x() + (bx + 1) * r.width() / k);
                long sum = 0;
                int count = 0;
                for (int y = y0; y < Math.min(y1, ink.height()); y++) {
                    for (int x = x0; x < Math.min(x1, ink.width()); x++) {
                        sum += ink.get(x, y);
                        count++;
                    }
                }
                out[by * k + bx] = (byte) (count == 0 ? 0 : sum / count);
            }
        }
        return out;
    }

    /** Largest block difference between two fingerprints (0..255). */
    public static int difference(byte[] a, byte[] b) {
        int max = 0;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.abs((a[i] & 0xFF) - (b[i] & 0xFF)));
        }
        return max;
    }
}
