package io.mmgr.stream.vision;

/**
 * How much "ink" each pixel carries, 0 (paper) to 255 (full ink), as {@code 255 - min(R, G, B)}: a
 * white page is 0 and black, dark or strongly coloured marks (red, blue, green, even yellow) are high,
 * because at least one channel of a saturated colour is dark. Pale tints such as a grey box shading
 * stay low. It assumes dark marks on a light page, as puzzle renders and documents are.
 */
public final class InkImage {

    private final int width;
    private final int height;
    private final byte[] ink;

    public InkImage(int width, int height, byte[] ink) {
        if (width <= 0 || height <= 0 || ink.length != width * height) {
            throw new IllegalArgumentException("ink array does not match " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
        this.ink = ink;
    }

    public static InkImage of(RgbImage image) {
        int[] px = image.pixels();
        byte[] out = new byte[px.length];
        for (int i = 0; i < px.length; i++) {
            int p = px[i];
            int m = Math.min((p >> 16) & 0xFF, Math.min((p >> 8) & 0xFF, p & 0xFF));
            out[i] = (byte) (255 - m);
        }
        return new InkImage(image.width(), image.height(), out);
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public int get(int x, int y) {
        return ink[y * width + x] & 0xFF;
    }

    public int get(int index) {
        return ink[index] & 0xFF;
    }

    /** Pixels with ink at or above {@code threshold}. */
    public Mask mask(int threshold) {
        Mask m = new Mask(width, height);
        for (int i = 0; i < ink.length; i++) {
            if ((ink[i] & 0xFF) >= threshold) {
                m.set(i, true);
            }
        }
        return m;
    }

    /** Histogram of the ink values in a clipped rectangle {@code [x0, x1) x [y0, y1)}. */
    public int[] histogram(int x0, int y0, int x1, int y1) {
        int[] h = new int[256];
        x0 = Math.max(0, x0);
        y0 = Math.max(0, y0);
        x1 = Math.min(width, x1);
        y1 = Math.min(height, y1);
        for (int y = y0; y < y1; y++) {
            int row = y * width;
            for (int x = x0; x < x1; x++) {
                h[ink[row + x] & 0xFF]++;
            }
        }
        return h;
    }

    /** Otsu's threshold of a histogram (the first level of the upper class). */
    public static int otsu(int[] hist) {
        long total = 0;
        long sum = 0;
        for (int i = 0; i < 256; i++) {
            total += hist[i];
            sum += (long) i * hist[i];
        }
        long wB = 0;
        long sumB = 0;
        double best = -1;
        int level = 128;
        for (int t = 0; t < 255; t++) {
            wB += hist[t];
            if (wB == 0) {
                continue;
            }
            long wF = total - wB;
            if (wF == 0) {
                break;
            }
            sumB += (long) t * hist[t];
            double mB = sumB / (double) wB;
            double mF = (sum - sumB) / (double) wF;
            double between = (double) wB * wF * (mB - mF) * (mB - mF);
            if (between > best) {
                best = between;
                level = t + 1;
            }
        }
        return level;
    }

    /** The smallest level with at least {@code fraction} of the histogram's pixels at or below it. */
    public static int percentile(int[] hist, double fraction) {
        long total = 0;
        for (int v : hist) {
            total += v;
        }
        long need = (long) Math.ceil(total * fraction);
        long acc = 0;
        for (int i = 0; i < 256; i++) {
            acc += hist[i];
            if (acc >= need && acc > 0) {
                return i;
            }
        }
        return 255;
    }
}
