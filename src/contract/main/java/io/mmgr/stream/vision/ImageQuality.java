package io.mmgr.stream.vision;

/**
 * Full-reference image quality. PSNR = 10 log10(255^2 / MSE) over all pixels and channels (infinite
 * for identical images). SSIM as Wang et al. 2004 ("Image quality assessment: from error visibility to
 * structural similarity"): an 11x11 Gaussian window (sigma 1.5), K1 = 0.01, K2 = 0.03, L = 255,
 * population statistics, averaged over the positions where the window fits inside the image, per RGB
 * channel, then over channels - the settings of scikit-image's structural_similarity with
 * gaussian_weights=True, use_sample_covariance=False and a channel axis.
 */
public final class ImageQuality {

    static final int WINDOW = 11;
    static final double SIGMA = 1.5;
    static final double C1 = Math.pow(0.01 * 255, 2);
    static final double C2 = Math.pow(0.03 * 255, 2);

    private ImageQuality() {
    }

    public static double mse(RgbImage a, RgbImage b) {
        sameSize(a, b);
        double sum = 0;
        int[] pa = a.pixels();
        int[] pb = b.pixels();
        for (int i = 0; i < pa.length; i++) {
            for (int s = 0; s <= 16; s += 8) {
                double d = ((pa[i] >> s) & 0xFF) - ((pb[i] >> s) & 0xFF);
                sum += d * d;
            }
        }
        return sum / (3.0 * pa.length);
    }

    public static double psnr(RgbImage a, RgbImage b) {
        double mse = mse(a, b);
        return mse == 0 ? Double.POSITIVE_INFINITY : 10 * Math.log10(255.0 * 255.0 / mse);
    }

    public static double ssim(RgbImage a, RgbImage b) {
        sameSize(a, b);
        if (a.width() < WINDOW || a.height() < WINDOW) {
            throw new IllegalArgumentException("SSIM needs images of at least " + WINDOW + "x" + WINDOW + " pixels");
        }
        double[] k = kernel();
        double total = 0;
        for (int s = 0; s <= 16; s += 8) {
            total += ssimChannel(channel(a, s), channel(b, s), a.width(), a.height(), k);
        }
        return total / 3;
    }

    private static double ssimChannel(double[] x, double[] y, int w, int h, double[] k) {
        double[] xx = new double[x.length];
        double[] yy = new double[x.length];
        double[] xy = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            xx[i] = x[i] * x[i];
            yy[i] = y[i] * y[i];
            xy[i] = x[i] * y[i];
        }
        double[] mx = filter(x, w, h, k);
        double[] my = filter(y, w, h, k);
        double[] mxx = filter(xx, w, h, k);
        double[] myy = filter(yy, w, h, k);
        double[] mxy = filter(xy, w, h, k);
        int ow = w - WINDOW + 1;
        int oh = h - WINDOW + 1;
        double sum = 0;
        for (int i = 0; i < ow * oh; i++) {
            double vx = mxx[i] - mx[i] * mx[i];
            double vy = myy[i] - my[i] * my[i];
            double cxy = mxy[i] - mx[i] * my[i];
            sum += ((2 * mx[i] * my[i] + C1) * (2 * cxy + C2))
                    / ((mx[i] * mx[i] + my[i] * my[i] + C1) * (vx + vy + C2));
        }
        return sum / (ow * oh);
    }

    /** Separable Gaussian filtering, 'valid' positions only: output is (w-10) x (h-10). */
    private static double[] filter(double[] v, int w, int h, double[] k) {
        int ow = w - WINDOW + 1;
        int oh = h - WINDOW + 1;
        double[] tmp = new double[ow * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < ow; x++) {
                double s = 0;
                for (int i = 0; i < WINDOW; i++) {
                    s += k[i] * v[y * w + x + i];
                }
                tmp[y * ow + x] = s;
            }
        }
        double[] out = new double[ow * oh];
        for (int y = 0; y < oh; y++) {
            for (int x = 0; x < ow; x++) {
                double s = 0;
                for (int i = 0; i < WINDOW; i++) {
                    s += k[i] * tmp[(y + i) * ow + x];
                }
                out[y * ow + x] = s;
            }
        }
        return out;
    }

    static double[] kernel() {
        double[] k = new double[WINDOW];
        double sum = 0;
        int r = WINDOW / 2;
        for (int i = 0; i < WINDOW; i++) {
            k[i] = Math.exp(-((i - r) * (i - r)) / (2 * SIGMA * SIGMA));
            sum += k[i];
        }
        for (int i = 0; i < WINDOW; i++) {
            k[i] /= sum;
        }
        return k;
    }

    private static double[] channel(RgbImage img, int shift) {
        int[] px = img.pixels();
        double[] out = new double[px.length];
        for (int i = 0; i < px.length; i++) {
            out[i] = (px[i] >> shift) & 0xFF;
        }
        return out;
    }

    private static void sameSize(RgbImage a, RgbImage b) {
        if (a.width() != b.width() || a.height() != b.height()) {
            throw new IllegalArgumentException("images differ in size: " + a.width() + "x" + a.height() + " and "
                    + b.width() + "x" + b.height());
        }
    }

    /** Bilinear resampling to a given size (pixel-centre aligned), for comparing frames of different sizes. */
    public static RgbImage resize(RgbImage src, int w, int h) {
        if (src.width() == w && src.height() == h) {
            return src;
        }
        int[] out = new int[w * h];
        double sx = src.width() / (double) w;
        double sy = src.height() / (double) h;
        for (int y = 0; y < h; y++) {
            double fy = Math.max(0, Math.min(src.height() - 1, (y + 0.5) * sy - 0.5));
            int y0 = (int) fy;
            int y1 = Math.min(src.height() - 1, y0 + 1);
            double ty = fy - y0;
            for (int x = 0; x < w; x++) {
                double fx = Math.max(0, Math.min(src.width() - 1, (x + 0.5) * sx - 0.5));
                int x0 = (int) fx;
                int x1 = Math.min(src.width() - 1, x0 + 1);
                double tx = fx - x0;
                int rgb = 0;
                for (int s = 16; s >= 0; s -= 8) {
                    double top = ((src.get(x0, y0) >> s) & 0xFF) * (1 - tx) + ((src.get(x1, y0) >> s) & 0xFF) * tx;
                    double bottom = ((src.get(x0, y1) >> s) & 0xFF) * (1 - tx) + ((src.get(x1, y1) >> s) & 0xFF) * tx;
                    rgb |= (int) Math.max(0, Math.min(255, Math.round(top * (1 - ty) + bottom * ty))) << s;
                }
                out[y * w + x] = rgb;
            }
        }
        return new RgbImage(w, h, out);
    }
}
