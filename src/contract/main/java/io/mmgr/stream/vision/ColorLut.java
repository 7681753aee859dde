package io.mmgr.stream.vision;

/**
 * A {@link PixelClassifier} tabulated over 5 bits per channel (32 768 entries, fits in L1), so
 * labelling a frame costs one table load per pixel whatever the classifier's rules cost.
 * Each bin is classified at its centre colour; colour rules are tolerant enough that an 8-level
 * bin does not matter.
 */
public final class ColorLut {

    private final byte[] table = new byte[1 << 15];

    private ColorLut(PixelClassifier classifier) {
        for (int r = 0; r < 32; r++) {
            for (int g = 0; g < 32; g++) {
                for (int b = 0; b < 32; b++) {
                    int label = classifier.classify((r << 3) | 4, (g << 3) | 4, (b << 3) | 4);
                    if (label < 0 || label > 127) {
                        throw new IllegalArgumentException("labels must be in 0..127, got " + label);
                    }
                    table[(r << 10) | (g << 5) | b] = (byte) label;
                }
            }
        }
    }

    public static ColorLut of(PixelClassifier classifier) {
        return new ColorLut(classifier);
    }

    public int classify(int rgb) {
        return table[((rgb >> 9) & 0x7C00) | ((rgb >> 6) & 0x3E0) | ((rgb >> 3) & 0x1F)];
    }

    /** The class of one colour given by its channels (the same as {@link #classify(int)} of its packed form). */
    public int classify(int r, int g, int b) {
        return table[((r & 0xF8) << 7) | ((g & 0xF8) << 2) | ((b & 0xF8) >> 3)];
    }

    /**
     * Classifies {@code n} packed pixels from {@code rgb[from]} into {@code out[to]}; runs of one colour
     * (most of a rendered image) are looked up once.
     */
    void classify(int[] rgb, int from, byte[] out, int to, int n) {
        int runRgb = 0;
        byte code = 0;
        for (int i = 0; i < n; i++) {
            int p = rgb[from + i];
            if (i == 0 || p != runRgb) {
                runRgb = p;
                code = (byte) classify(p);
            }
            out[to + i] = code;
        }
    }

    /** Classifies {@code n} pixels of 3 bytes from {@code px[offset]} (R, G, B order, or B, G, R when {@code bgr}) into {@code out[to]}. */
    void classify(byte[] px, int offset, boolean bgr, byte[] out, int to, int n) {
        // one loop per channel order with the table index spelled out: the eval commands run on the
        // client compiler, which neither hoists the order out of the loop nor inlines the lookup
        byte[] t = table;
        int end = to + n;
        if (bgr) {
            for (int i = to, j = offset; i < end; i++, j += 3) {
                out[i] = t[((px[j + 2] & 0xF8) << 7) | ((px[j + 1] & 0xF8) << 2) | ((px[j] & 0xF8) >> 3)];
            }
        } else {
            for (int i = to, j = offset; i < end; i++, j += 3) {
                out[i] = t[((px[j] & 0xF8) << 7) | ((px[j + 1] & 0xF8) << 2) | ((px[j + 2] & 0xF8) >> 3)];
            }
        }
    }

    public LabelImage label(RgbImage image) {
        int[] px = image.pixels();
        byte[] out = new byte[px.length];
        for (int i = 0; i < px.length; i++) {
            int rgb = px[i];
            out[i] = table[((rgb >> 9) & 0x7C00) | ((rgb >> 6) & 0x3E0) | ((rgb >> 3) & 0x1F)];
        }
        return new LabelImage(image.width(), image.height(), out);
    }
}
