package io.mmgr.stream.vision;

/** An axis-aligned pixel rectangle {@code [x, x + width) x [y, y + height)}. */
public record Rect(int x, int y, int width, int height) {

    public Rect {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("rectangle must be non-empty: " + width + "x" + height);
        }
    }
}
