package io.mmgr.stream.tasks.sudoku;

import java.util.ArrayList;
import java.util.List;

/**
 * The digits already read in one image or video, as small normalised bitmaps. A board prints each digit
 * up to nine times in one or two faces, so a new glyph that all but coincides with one read before is
 * that digit: its reading is reused instead of asking Tesseract again (a solved 9x9 then costs about
 * eighteen OCR calls, not 81). A glyph Tesseract could not read at all takes the digit of its nearest
 * remembered glyph when that one is clearly nearer than any glyph of another digit. Only confident
 * readings are remembered, so a doubtful one is never copied.
 */
final class GlyphMemory {

    /** Side of the normalised bitmap (the glyph's box scaled into it, aspect kept by padding). */
    static final int SIDE = 16;
    /**
     * Mean absolute difference (of 255) under which two glyphs are the same print. Copies of one digit
     * in one face differ by sub-pixel placement and compression noise; different digits of one face
     * differ in whole strokes (a 6 and an 8 in the upper right), far more than this.
     */
    static final double SAME = 10;
    /**
     * And no 4 x 4 block of the bitmaps may differ by more than this in mean ink: thin faces (Roboto
     * Thin) leave most pixels paper, so a 3 and an 8 differ little on average but a whole stroke's worth
     * in the blocks where one has a stroke and the other none.
     */
    static final double SAME_BLOCK = 24;
    static final int BLOCK = 4;
    /** For an unread glyph: the nearest must be within this, and the nearest other digit this many times farther. */
    static final double NEAR = 28;
    static final double MARGIN = 1.6;
    /** Boxes whose aspect ratios differ by more than this factor are not the same print. */
    static final double ASPECT = 1.15;

    private record Entry(byte[] bitmap, double aspect, int digit) {
    }

    private final List<Entry> entries = new ArrayList<>();

    /** The digit of a remembered glyph this one all but coincides with, or 0. */
    int recall(Glyph g) {
        byte[] b = normalise(g);
        double aspect = aspect(g);
        for (Entry e : entries) {
            if (similarAspect(aspect, e.aspect) && distance(b, e.bitmap) <= SAME
                    && blockDistance(b, e.bitmap) <= SAME_BLOCK) {
                return e.digit;
            }
        }
        return 0;
    }

    void remember(Glyph g, int digit) {
        entries.add(new Entry(normalise(g), aspect(g), digit));
    }

    /** For a glyph no OCR attempt read: the digit of the clearly nearest remembered glyph, or 0. */
    int nearest(Glyph g) {
        byte[] b = normalise(g);
        double aspect = aspect(g);
        double[] best = new double[10];
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        for (Entry e : entries) {
            if (similarAspect(aspect, e.aspect)) {
                best[e.digit] = Math.min(best[e.digit], distance(b, e.bitmap));
            }
        }
        int top = 0;
        for (int d = 1; d <= 9; d++) {
            if (best[d] < (top == 0 ? Double.MAX_VALUE : best[top])) {
                top = d;
            }
        }
        if (top == 0 || best[top] > NEAR) {
            return 0;
        }
        for (int d = 1; d <= 9; d++) {
            if (d != top && best[d] < MARGIN * best[top]) {
                return 0;
            }
        }
        return top;
    }

    private static boolean similarAspect(double a, double b) {
        return Math.max(a, b) / Math.min(a, b) <= ASPECT;
    }

    private static double aspect(Glyph g) {
        return g.width() / (double) g.height();
    }

    private static double distance(byte[] a, byte[] b) {
        long sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs((a[i] & 0xFF) - (b[i] & 0xFF));
        }
        return sum / (double) a.length;
    }

    /** The largest difference of block means between two bitmaps. */
    private static double blockDistance(byte[] a, byte[] b) {
        double max = 0;
        for (int by = 0; by < SIDE; by += BLOCK) {
            for (int bx = 0; bx < SIDE; bx += BLOCK) {
                long d = 0;
                for (int y = by; y < by + BLOCK; y++) {
                    for (int x = bx; x < bx + BLOCK; x++) {
                        d += (a[y * SIDE + x] & 0xFF) - (b[y * SIDE + x] & 0xFF);
                    }
                }
                max = Math.max(max, Math.abs(d) / (double) (BLOCK * BLOCK));
            }
        }
        return max;
    }

    /**
     * The glyph's box scaled into a SIDE x SIDE square, centred, aspect kept: area means when shrinking,
     * bilinear samples when enlarging (a small glyph must not leave empty target pixels).
     */
    static byte[] normalise(Glyph g) {
        double scale = SIDE / (double) Math.max(g.width(), g.height());
        double ox = (SIDE - g.width() * scale) / 2;
        double oy = (SIDE - g.height() * scale) / 2;
        byte[] out = new byte[SIDE * SIDE];
        if (scale < 1) {
            double[] sum = new double[SIDE * SIDE];
            int[] area = new int[SIDE * SIDE];
            for (int y = 0; y < g.height(); y++) {
                int ty = (int) Math.min(SIDE - 1, Math.floor(oy + (y + 0.5) * scale));
                for (int x = 0; x < g.width(); x++) {
                    int tx = (int) Math.min(SIDE - 1, Math.floor(ox + (x + 0.5) * scale));
                    sum[ty * SIDE + tx] += g.get(x, y);
                    area[ty * SIDE + tx]++;
                }
            }
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) (area[i] == 0 ? 0 : Math.round(sum[i] / area[i]));
            }
            return out;
        }
        for (int ty = 0; ty < SIDE; ty++) {
            double fy = (ty + 0.5 - oy) / scale - 0.5;
            for (int tx = 0; tx < SIDE; tx++) {
                double fx = (tx + 0.5 - ox) / scale - 0.5;
                out[ty * SIDE + tx] = (byte) Math.round(sample(g, fx, fy));
            }
        }
        return out;
    }

    /** Bilinear ink at a fractional position; paper (0) outside the glyph's box. */
    private static double sample(Glyph g, double fx, double fy) {
        if (fx < -0.5 || fy < -0.5 || fx > g.width() - 0.5 || fy > g.height() - 0.5) {
            return 0;
        }
        return g.bilinear(fx, fy);
    }
}
