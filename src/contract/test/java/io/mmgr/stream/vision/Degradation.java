package io.mmgr.stream.vision;

import java.util.Locale;

/**
 * What happens to a picture between a model's renderer and our decoders: slight Gaussian blur, a small
 * colour shift (hue rotation, saturation and brightness factors, applied to every pixel, paper
 * included), then the file format (PNG, or JPEG at a quality). {@link #apply} returns the image as an
 * evaluator sees it after decoding the file. Shared by the Sudoku and ARC style corpora.
 *
 * @param blur        Gaussian sigma in pixels, 0 for none
 * @param hueDegrees  hue rotation
 * @param saturation  saturation factor (1 unchanged)
 * @param brightness  brightness (HSB value) factor (1 unchanged)
 * @param jpegQuality 1..100, or 0 for PNG
 */
public record Degradation(double blur, double hueDegrees, double saturation, double brightness, int jpegQuality) {

    public static final Degradation NONE = new Degradation(0, 0, 1, 1, 0);

    public static Degradation jpeg(int quality) {
        return new Degradation(0, 0, 1, 1, quality);
    }

    public Degradation withBlur(double sigma) {
        return new Degradation(sigma, hueDegrees, saturation, brightness, jpegQuality);
    }

    public Degradation withColour(double hue, double sat, double value) {
        return new Degradation(blur, hue, sat, value, jpegQuality);
    }

    public Degradation withJpeg(int quality) {
        return new Degradation(blur, hueDegrees, saturation, brightness, quality);
    }

    /** The file a model would hand in. */
    public byte[] encode(RgbImage img) {
        RgbImage out = shift(blur(img, blur), hueDegrees, saturation, brightness);
        return jpegQuality > 0 ? ImageEncoder.jpeg(out, jpegQuality) : ImageEncoder.png(out);
    }

    public String mediaType() {
        return jpegQuality > 0 ? "image/jpeg" : "image/png";
    }

    /** The picture after blur, colour shift, encoding and decoding (PNG is lossless: no round trip). */
    public RgbImage apply(RgbImage img) {
        if (jpegQuality <= 0) {
            return shift(blur(img, blur), hueDegrees, saturation, brightness);
        }
        try {
            return ImageDecoder.decode(encode(img), ImageDecoder.Limits.DEFAULT);
        } catch (MediaException e) {
            throw new IllegalStateException("a fixture image did not decode: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (blur > 0) {
            sb.append(String.format(Locale.ROOT, "blur %.1f, ", blur));
        }
        if (hueDegrees != 0 || saturation != 1 || brightness != 1) {
            sb.append(String.format(Locale.ROOT, "hue %+.0f sat x%.2f val x%.2f, ", hueDegrees, saturation, brightness));
        }
        return sb.append(jpegQuality > 0 ? "jpeg " + jpegQuality : "png").toString();
    }

    /** Separable Gaussian blur (edges clamped). */
    public static RgbImage blur(RgbImage src, double sigma) {
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
        float[][] planes = new float[3][w * h];
        int[] px = src.pixels();
        for (int i = 0; i < px.length; i++) {
            planes[0][i] = (px[i] >> 16) & 0xFF;
            planes[1][i] = (px[i] >> 8) & 0xFF;
            planes[2][i] = px[i] & 0xFF;
        }
        float[] line = new float[w];
        int[] same = new int[w];
        for (int c = 0; c < planes.length; c++) {
            for (int y = 0; y < h; y++) {
                convolve(planes[c], y * w, 1, w, k, r, line, same);
            }
            planes[c] = convolveDown(planes[c], w, h, k, r);
        }
        int[] out = new int[w * h];
        for (int i = 0; i < out.length; i++) {
            out[i] = clamp(planes[0][i]) << 16 | clamp(planes[1][i]) << 8 | clamp(planes[2][i]);
        }
        return new RgbImage(w, h, out);
    }

    /**
     * Convolves {@code n} samples starting at {@code offset}, {@code stride} apart, in place. A window of
     * one value sums as the last window of that value did, so that sum is reused: most of a picture is
     * flat, and the fixtures' blur was most of their drawing time (bit-identical: the same sums in the
     * same order). {@code same}: scratch, at least {@code n} long.
     */
    private static void convolve(float[] plane, int offset, int stride, int n, double[] k, int r, float[] line,
                                 int[] same) {
        for (int i = 0; i < n; i++) {
            line[i] = plane[offset + i * stride];
        }
        // same[i]: the last index up to which the samples equal line[i]
        same[n - 1] = n - 1;
        for (int i = n - 2; i >= 0; i--) {
            same[i] = line[i] == line[i + 1] ? same[i + 1] : i;
        }
        boolean known = false;
        float flatValue = 0;
        float flatSum = 0;
        for (int i = 0; i < n; i++) {
            int first = Math.max(0, i - r);
            boolean flat = same[first] >= Math.min(n - 1, i + r);
            if (flat && known && line[first] == flatValue) {
                plane[offset + i * stride] = flatSum;
                continue;
            }
            double acc = 0;
            for (int j = -r; j <= r; j++) {
                acc += k[j + r] * line[Math.max(0, Math.min(n - 1, i + j))];
            }
            plane[offset + i * stride] = (float) acc;
            if (flat) {
                known = true;
                flatValue = line[first];
                flatSum = (float) acc;
            }
        }
    }

    /**
     * As {@link #convolve} down every column at once, row by row: walking a column of a large picture
     * missed the cache at every sample. Each output is the same sum in the same order; a window of one
     * value reuses its column's last such sum.
     */
    private static float[] convolveDown(float[] plane, int w, int h, double[] k, int r) {
        float[] out = new float[plane.length];
        // same[i]: the last row down to which the samples of i's column equal plane[i]
        int[] same = new int[plane.length];
        for (int x = 0; x < w; x++) {
            same[(h - 1) * w + x] = h - 1;
        }
        for (int y = h - 2; y >= 0; y--) {
            for (int x = 0, i = y * w; x < w; x++, i++) {
                same[i] = plane[i] == plane[i + w] ? same[i + w] : y;
            }
        }
        boolean[] known = new boolean[w];
        float[] flatValue = new float[w];
        float[] flatSum = new float[w];
        for (int y = 0; y < h; y++) {
            int first = Math.max(0, y - r) * w;
            int last = Math.min(h - 1, y + r);
            for (int x = 0; x < w; x++) {
                boolean flat = same[first + x] >= last;
                if (flat && known[x] && plane[first + x] == flatValue[x]) {
                    out[y * w + x] = flatSum[x];
                    continue;
                }
                double acc = 0;
                for (int j = -r; j <= r; j++) {
                    acc += k[j + r] * plane[Math.max(0, Math.min(h - 1, y + j)) * w + x];
                }
                out[y * w + x] = (float) acc;
                if (flat) {
                    known[x] = true;
                    flatValue[x] = plane[first + x];
                    flatSum[x] = (float) acc;
                }
            }
        }
        return out;
    }

    /** Rotates every pixel's hue and scales its saturation and brightness (clamped to [0, 1]). */
    public static RgbImage shift(RgbImage src, double hueDegrees, double saturation, double brightness) {
        if (hueDegrees == 0 && saturation == 1 && brightness == 1) {
            return src;
        }
        return src.colourShifted(hueDegrees, saturation, brightness);
    }

    private static int clamp(double v) {
        return (int) Math.max(0, Math.min(255, Math.round(v)));
    }
}
