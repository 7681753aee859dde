package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.RgbImage;

/** Image degradations for fixtures: Gaussian blur and PNG/JPEG encoding. */
final class Degrade {

    private Degrade() {
    }

    /** Separable Gaussian blur with the given sigma in pixels (0: unchanged). */
    static RgbImage blur(RgbImage img, double sigma) {
        if (sigma <= 0) {
            return img;
        }
        int r = (int) Math.ceil(3 * sigma);
        double[] k = new double[2 * r + 1];
        double sum = 0;
        for (int i = -r; i <= r; i++) {
            k[i + r] = Math.exp(-i * i / (2 * sigma * sigma));
            sum += k[i + r];
        }
        for (int i = 0; i < k.length; i++) {
            k[i] /= sum;
        }
        int w = img.width();
        int h = img.height();
        int[] src = img.pixels();
        int[] tmp = new int[src.length];
        int[] out = new int[src.length];
        pass(src, tmp, w, h, k, r, true);
        pass(tmp, out, w, h, k, r, false);
        return new RgbImage(w, h, out);
    }

    private static void pass(int[] src, int[] dst, int w, int h, double[] k, int r, boolean horizontal) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double rr = 0;
                double gg = 0;
                double bb = 0;
                for (int i = -r; i <= r; i++) {
                    int sx = horizontal ? Math.min(w - 1, Math.max(0, x + i)) : x;
                    int sy = horizontal ? y : Math.min(h - 1, Math.max(0, y + i));
                    int p = src[sy * w + sx];
                    double wt = k[i + r];
                    rr += ((p >> 16) & 0xFF) * wt;
                    gg += ((p >> 8) & 0xFF) * wt;
                    bb += (p & 0xFF) * wt;
                }
                dst[y * w + x] = ((int) Math.round(rr) << 16) | ((int) Math.round(gg) << 8) | (int) Math.round(bb);
            }
        }
    }

}
