package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.ColorLut;

/**
 * The ten ARC symbols as colours. Two renderings are in common use and both are accepted: the
 * original ARC-AGI viewer's (fchollet/ARC-AGI, apps/css/common.css) and the ARC Prize viewer's
 * (arcprize.org). A pixel is read as the symbol whose prototype is nearest in CIELAB, which keeps
 * perceptually close colours apart under blur, JPEG and slight hue shifts better than RGB distance.
 */
public final class ArcPalette {

    /** fchollet/ARC-AGI apps/css/common.css, symbols 0..9. */
    public static final int[] CLASSIC = {
        0x000000, 0x0074D9, 0xFF4136, 0x2ECC40, 0xFFDC00, 0xAAAAAA, 0xF012BE, 0xFF851B, 0x7FDBFF, 0x870C25};
    /** The ARC Prize viewer's colours, symbols 0..9. */
    public static final int[] ARC_PRIZE = {
        0x000000, 0x1E93FF, 0xF93C31, 0x4FCC30, 0xFFDC00, 0x999999, 0xE53AA3, 0xFF851B, 0x87D8F1, 0x921231};

    private static final double[][] PROTOTYPES = new double[20][];
    private static final ColorLut LUT;

    static {
        for (int i = 0; i < 10; i++) {
            PROTOTYPES[i] = lab(CLASSIC[i]);
            PROTOTYPES[10 + i] = lab(ARC_PRIZE[i]);
        }
        LUT = ColorLut.of((r, g, b) -> nearest(lab(r, g, b)));
    }

    private ArcPalette() {
    }

    /** The symbol 0..9 nearest to an RGB colour (tabulated, 5 bits per channel). */
    public static int symbol(int rgb) {
        return LUT.classify(rgb);
    }

    /** The exact symbol nearest to an RGB colour (no tabulation). */
    public static int symbolExact(int rgb) {
        return nearest(lab(rgb));
    }

    /** CIE76 distance (Delta E) from a colour to the nearest prototype of a symbol. */
    public static double distance(int rgb, int symbol) {
        double[] c = lab(rgb);
        return Math.sqrt(Math.min(dist(c, PROTOTYPES[symbol]), dist(c, PROTOTYPES[10 + symbol])));
    }

    private static int nearest(double[] c) {
        int best = 0;
        double bestD = Double.MAX_VALUE;
        for (int i = 0; i < PROTOTYPES.length; i++) {
            double d = dist(c, PROTOTYPES[i]);
            if (d < bestD) {
                bestD = d;
                best = i % 10;
            }
        }
        return best;
    }

    /** Squared CIE76 distance. */
    private static double dist(double[] a, double[] b) {
        double dl = a[0] - b[0];
        double da = a[1] - b[1];
        double db = a[2] - b[2];
        return dl * dl + da * da + db * db;
    }

    static double[] lab(int rgb) {
        return lab((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF);
    }

    /** sRGB (D65) to CIELAB. */
    static double[] lab(int r, int g, int b) {
        double rl = linear(r);
        double gl = linear(g);
        double bl = linear(b);
        double x = (0.4124 * rl + 0.3576 * gl + 0.1805 * bl) / 0.95047;
        double y = 0.2126 * rl + 0.7152 * gl + 0.0722 * bl;
        double z = (0.0193 * rl + 0.1192 * gl + 0.9505 * bl) / 1.08883;
        double fx = f(x);
        double fy = f(y);
        double fz = f(z);
        return new double[] {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
    }

    private static double linear(int c) {
        double v = c / 255.0;
        return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    }

    private static double f(double t) {
        return t > 216.0 / 24389 ? Math.cbrt(t) : (24389.0 / 27 * t + 16) / 116;
    }
}
