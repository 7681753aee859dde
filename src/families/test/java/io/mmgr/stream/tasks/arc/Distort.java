package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.RgbImage;

/** Resampling a grid picture by non-integer factors; blur, colour drift and JPEG are {@link io.mmgr.stream.vision.Degradation}'s. */
final class Distort {

    private Distort() {
    }

    /** Bilinear resampling by non-integer factors (what a model's upscaler or a resize does). */
    static RgbImage scale(RgbImage src, double sx, double sy) {
        int w = Math.max(1, (int) Math.round(src.width() * sx));
        int h = Math.max(1, (int) Math.round(src.height() * sy));
        int[] out = new int[w * h];
        for (int y = 0; y < h; y++) {
            double fy = Math.max(0, Math.min(src.height() - 1, (y + 0.5) / sy - 0.5));
            int y0 = (int) fy;
            int y1 = Math.min(src.height() - 1, y0 + 1);
            double ty = fy - y0;
            for (int x = 0; x < w; x++) {
                double fx = Math.max(0, Math.min(src.width() - 1, (x + 0.5) / sx - 0.5));
                int x0 = (int) fx;
                int x1 = Math.min(src.width() - 1, x0 + 1);
                double tx = fx - x0;
                int rgb = 0;
                for (int shift = 16; shift >= 0; shift -= 8) {
                    double a = ch(src.get(x0, y0), shift) * (1 - tx) + ch(src.get(x1, y0), shift) * tx;
                    double b = ch(src.get(x0, y1), shift) * (1 - tx) + ch(src.get(x1, y1), shift) * tx;
                    rgb |= clamp(a * (1 - ty) + b * ty) << shift;
                }
                out[y * w + x] = rgb;
            }
        }
        return new RgbImage(w, h, out);
    }

    private static int ch(int rgb, int shift) {
        return (rgb >> shift) & 0xFF;
    }

    private static int clamp(double v) {
        return (int) Math.max(0, Math.min(255, Math.round(v)));
    }
}
