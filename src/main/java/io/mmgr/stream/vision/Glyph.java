package io.mmgr.stream.vision;

/**
 * One isolated character cut from an image: ink strength 0..255 per pixel, contrast-normalised so
 * that 128 separates ink from paper, cropped close to the ink.
 */
public record Glyph(int width, int height, byte[] ink) {

    public Glyph {
        if (width <= 0 || height <= 0 || ink.length != width * height) {
            throw new IllegalArgumentException("glyph array does not match " + width + "x" + height);
        }
    }

    public int get(int x, int y) {
        return ink[y * width + x] & 0xFF;
    }
}
