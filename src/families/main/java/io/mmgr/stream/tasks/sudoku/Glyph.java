package io.mmgr.stream.tasks.sudoku;

/**
 * One isolated character cut from an image: ink strength 0..255 per pixel, contrast-normalised so
 * that 128 separates ink from paper, cropped close to the ink.
 */
public record Glyph(int width, int height, byte[] ink) {

    public Glyph {
        if (width <= 0 || height <= 0 || ink.length != width * height) {
            throw new IllegalArgumentException("glyph array does not match " + width + "x" + height);
        }
    }

    public int get(int x, int y) {
        return ink[y * width + x] & 0xFF;
    }

    /** Bilinear ink at a fractional position, edges clamped. */
    public double bilinear(double fx, double fy) {
        int x0 = (int) Math.floor(fx);
        int y0 = (int) Math.floor(fy);
        double ax = fx - x0;
        double ay = fy - y0;
        double v = 0;
        for (int dy = 0; dy < 2; dy++) {
            int yy = Math.min(height - 1, Math.max(0, y0 + dy));
            for (int dx = 0; dx < 2; dx++) {
                int xx = Math.min(width - 1, Math.max(0, x0 + dx));
                v += get(xx, yy) * (dx == 0 ? 1 - ax : ax) * (dy == 0 ? 1 - ay : ay);
            }
        }
        return v;
    }
}
