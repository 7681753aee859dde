package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.RgbImage;

/** What happens to a grid between a generator's renderer and our decoder: resampling, blur, colour drift, JPEG. */
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

    /** Separable Gaussian blur of standard deviation {@code sigma} pixels. */
    static RgbImage blur(RgbImage src, double sigma) {
        if (sigma <= 0) {
            return src;
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
        int w = src.width();
        int h = src.height();
        double[][] tmp = new double[3][w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double[] acc = new double[3];
                for (int i = -r; i <= r; i++) {
                    int xx = Math.max(0, Math.min(w - 1, x + i));
                    int p = src.get(xx, y);
                    acc[0] += k[i + r] * ch(p, 16);
                    acc[1] += k[i + r] * ch(p, 8);
                    acc[2] += k[i + r] * ch(p, 0);
                }
                for (int c = 0; c < 3; c++) {
                    tmp[c][y * w + x] = acc[c];
                }
            }
        }
        int[] out = new int[w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double[] acc = new double[3];
                for (int i = -r; i <= r; i++) {
                    int yy = Math.max(0, Math.min(h - 1, y + i));
                    for (int c = 0; c < 3; c++) {
                        acc[c] += k[i + r] * tmp[c][yy * w + x];
                    }
                }
                out[y * w + x] = clamp(acc[0]) << 16 | clamp(acc[1]) << 8 | clamp(acc[2]);
            }
        }
        return new RgbImage(w, h, out);
    }

    /** Rotates every pixel's hue by {@code degrees} and scales its brightness (colour drift of a generator). */
    static RgbImage hue(RgbImage src, double degrees, double brightness) {
        int[] out = new int[src.pixels().length];
        float[] hsb = new float[3];
        for (int i = 0; i < out.length; i++) {
            int p = src.pixels()[i];
            java.awt.Color.RGBtoHSB(ch(p, 16), ch(p, 8), ch(p, 0), hsb);
            float hh = (float) (hsb[0] + degrees / 360.0);
            float b = (float) Math.min(1.0, hsb[2] * brightness);
            out[i] = java.awt.Color.HSBtoRGB(hh - (float) Math.floor(hh), hsb[1], b) & 0xFFFFFF;
        }
        return new RgbImage(src.width(), src.height(), out);
    }

    private static int ch(int rgb, int shift) {
        return (rgb >> shift) & 0xFF;
    }

    private static int clamp(double v) {
        return (int) Math.max(0, Math.min(255, Math.round(v)));
    }
}
