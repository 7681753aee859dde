package io.mmgr.stream.vision;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.awt.image.DataBufferInt;
import java.util.Objects;

/**
 * An 8-bit RGB image as packed {@code 0xRRGGBB} ints, row-major. Hot loops read {@link #pixels()}
 * directly instead of {@code BufferedImage.getRGB} per pixel. Alpha is composited over white on the
 * way in, since generated outputs are judged as they would look on a page.
 */
public final class RgbImage {

    private final int width;
    private final int height;
    private final int[] pixels;

    public RgbImage(int width, int height, int[] pixels) {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("image must be at least 1x1, got " + width + "x" + height);
        }
        Objects.requireNonNull(pixels);
        if (pixels.length != width * height) {
            throw new IllegalArgumentException("pixel array has " + pixels.length + " entries for " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
        this.pixels = pixels;
    }

    public static RgbImage filled(int width, int height, int rgb) {
        int[] px = new int[width * height];
        java.util.Arrays.fill(px, rgb & 0xFFFFFF);
        return new RgbImage(width, height, px);
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** The backing array (not a copy). */
    public int[] pixels() {
        return pixels;
    }

    public int get(int x, int y) {
        return pixels[y * width + x];
    }

    public void set(int x, int y, int rgb) {
        pixels[y * width + x] = rgb & 0xFFFFFF;
    }

    public RgbImage copy() {
        return new RgbImage(width, height, pixels.clone());
    }

    /**
     * Every pixel's hue turned by {@code hueDegrees}, its saturation and brightness (HSB value) scaled and
     * clamped to [0, 1], as a camera or a colour grade would (fixtures and generators draw such styles).
     */
    public RgbImage colourShifted(double hueDegrees, double saturation, double brightness) {
        int[] out = new int[pixels.length];
        float[] hsb = new float[3];
        // a drawing is mostly runs of one colour: each run is converted once (the conversion is a pure function)
        int last = pixels.length == 0 ? 0 : ~pixels[0];
        int shifted = 0;
        for (int i = 0; i < pixels.length; i++) {
            int p = pixels[i];
            if (p != last) {
                Color.RGBtoHSB((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF, hsb);
                float h = (float) (hsb[0] + hueDegrees / 360.0);
                float s = (float) Math.min(1.0, hsb[1] * saturation);
                float v = (float) Math.min(1.0, hsb[2] * brightness);
                shifted = Color.HSBtoRGB(h - (float) Math.floor(h), s, v) & 0xFFFFFF;
                last = p;
            }
            out[i] = shifted;
        }
        return new RgbImage(width, height, out);
    }

    /** Reads a decoded image through its raster buffer; unusual layouts are first drawn into INT_RGB once. */
    public static RgbImage of(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        int[] out = new int[w * h];
        switch (image.getType()) {
            case BufferedImage.TYPE_INT_RGB -> {
                int[] src = intData(image);
                for (int i = 0; i < out.length; i++) {
                    out[i] = src[i] & 0xFFFFFF;
                }
            }
            case BufferedImage.TYPE_INT_ARGB -> {
                int[] src = intData(image);
                for (int i = 0; i < out.length; i++) {
                    int p = src[i];
                    out[i] = overWhite(p >>> 24, (p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF);
                }
            }
            case BufferedImage.TYPE_3BYTE_BGR -> {
                byte[] src = byteData(image);
                for (int i = 0, j = 0; i < out.length; i++, j += 3) {
                    out[i] = ((src[j + 2] & 0xFF) << 16) | ((src[j + 1] & 0xFF) << 8) | (src[j] & 0xFF);
                }
            }
            case BufferedImage.TYPE_4BYTE_ABGR -> {
                byte[] src = byteData(image);
                for (int i = 0, j = 0; i < out.length; i++, j += 4) {
                    out[i] = overWhite(src[j] & 0xFF, src[j + 3] & 0xFF, src[j + 2] & 0xFF, src[j + 1] & 0xFF);
                }
            }
            case BufferedImage.TYPE_BYTE_GRAY -> {
                byte[] src = byteData(image);
                for (int i = 0; i < out.length; i++) {
                    int v = src[i] & 0xFF;
                    out[i] = (v << 16) | (v << 8) | v;
                }
            }
            default -> {
                // palette, 16-bit and custom layouts: one drawImage call, then the fast path
                BufferedImage rgb = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
                Graphics2D g = rgb.createGraphics();
                g.setColor(java.awt.Color.WHITE);
                g.fillRect(0, 0, w, h);
                g.drawImage(image, 0, 0, null);
                g.dispose();
                return of(rgb);
            }
        }
        return new RgbImage(w, h, out);
    }

    /** A new TYPE_INT_RGB image with a copy of the pixels (for encoders and drawing). */
    public BufferedImage toBufferedImage() {
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        System.arraycopy(pixels, 0, intData(img), 0, pixels.length);
        return img;
    }

    private static int[] intData(BufferedImage image) {
        return ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
    }

    private static byte[] byteData(BufferedImage image) {
        return ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
    }

    /** A pixel with alpha composited over white paper (PNG transparency shows the page behind it). */
    static int overWhite(int a, int r, int g, int b) {
        if (a == 255) {
            return (r << 16) | (g << 8) | b;
        }
        int inv = 255 - a;
        r = (r * a + 255 * inv + 127) / 255;
        g = (g * a + 255 * inv + 127) / 255;
        b = (b * a + 255 * inv + 127) / 255;
        return (r << 16) | (g << 8) | b;
    }
}
