package io.mmgr.stream.tasks.maze;

import java.util.Locale;

/** MMGR's three maze difficulty bands by grid size (rows and columns each in the band). */
public enum MazeBand {
    EASY(3, 5),
    MEDIUM(6, 9),
    HARD(10, 13);

    private final int minSize;
    private final int maxSize;

    MazeBand(int minSize, int maxSize) {
        this.minSize = minSize;
        this.maxSize = maxSize;
    }

    public int minSize() {
        return minSize;
    }

    public int maxSize() {
        return maxSize;
    }

    public boolean contains(int rows, int cols) {
        return rows >= minSize && rows <= maxSize && cols >= minSize && cols <= maxSize;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MazeBand of(int rows, int cols) {
        for (MazeBand b : values()) {
            if (b.contains(rows, cols)) {
                return b;
            }
        }
        throw new IllegalArgumentException("no difficulty band holds a " + rows + "x" + cols + " maze (3..13)");
    }
}
