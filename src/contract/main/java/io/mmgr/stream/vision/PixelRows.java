package io.mmgr.stream.vision;

import java.util.function.IntFunction;

/**
 * Where a decoder (PNG, JPEG, video frame) puts the rows it decodes: packed RGB ({@link #rgb()}) or,
 * for pipelines that only ever look at a pixel's colour code, the codes straight from a
 * {@link ColorLut} ({@link #codes}), which spares them a full-size RGB copy and a pass over it.
 */
abstract class PixelRows<T> {

    /** Called once, before the first row. */
    abstract void size(int width, int height);

    /** Row {@code y} as packed {@code 0xRRGGBB} ints, {@code rgb[0 .. width)}. */
    abstract void row(int y, int[] rgb);

    /** Row {@code y} as bytes from {@code offset}, in R, G, B order, or B, G, R when {@code bgr}. */
    abstract void row(int y, byte[] px, int offset, boolean bgr);

    /** Row {@code y} is the same as row {@code y - 1}. */
    abstract void repeat(int y);

    abstract T image();

    /** A whole image decoded elsewhere (ImageIO's way). */
    abstract T of(RgbImage image);

    static PixelRows<RgbImage> rgb() {
        return new Rgb();
    }

    /**
     * Raw codes through {@code lut} into a buffer of at least {@code width * height} bytes from
     * {@code buffer} (a caller's reused one), as a {@link LabelImage} without a class table.
     */
    static PixelRows<LabelImage> codes(ColorLut lut, IntFunction<byte[]> buffer) {
        return new Codes(lut, buffer);
    }

    private static final class Rgb extends PixelRows<RgbImage> {
        private int width;
        private int height;
        private int[] out;

        @Override
        void size(int width, int height) {
            this.width = width;
            this.height = height;
            this.out = new int[Math.multiplyExact(width, height)];
        }

        @Override
        void row(int y, int[] rgb) {
            System.arraycopy(rgb, 0, out, y * width, width);
        }

        @Override
        void row(int y, byte[] px, int offset, boolean bgr) {
            int r = bgr ? 2 : 0;
            int b = bgr ? 0 : 2;
            for (int x = 0, o = y * width, j = offset; x < width; x++, j += 3) {
                out[o + x] = ((px[j + r] & 0xFF) << 16) | ((px[j + 1] & 0xFF) << 8) | (px[j + b] & 0xFF);
            }
        }

        @Override
        void repeat(int y) {
            System.arraycopy(out, (y - 1) * width, out, y * width, width);
        }

        @Override
        RgbImage image() {
            return new RgbImage(width, height, out);
        }

        @Override
        RgbImage of(RgbImage image) {
            return image;
        }
    }

    private static final class Codes extends PixelRows<LabelImage> {
        private final ColorLut lut;
        private final IntFunction<byte[]> buffer;
        private int width;
        private int height;
        private byte[] out;

        Codes(ColorLut lut, IntFunction<byte[]> buffer) {
            this.lut = lut;
            this.buffer = buffer;
        }

        @Override
        void size(int width, int height) {
            this.width = width;
            this.height = height;
            this.out = buffer.apply(Math.multiplyExact(width, height));
        }

        @Override
        void row(int y, int[] rgb) {
            lut.classify(rgb, 0, out, y * width, width);
        }

        @Override
        void row(int y, byte[] px, int offset, boolean bgr) {
            lut.classify(px, offset, bgr, out, y * width, width);
        }

        @Override
        void repeat(int y) {
            System.arraycopy(out, (y - 1) * width, out, y * width, width);
        }

        @Override
        LabelImage image() {
            return new LabelImage(width, height, out, null);
        }

        @Override
        LabelImage of(RgbImage image) {
            size(image.width(), image.height());
            lut.classify(image.pixels(), 0, out, 0, image.pixels().length);
            return image();
        }
    }
}
