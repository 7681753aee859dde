package io.mmgr.stream.tasks.arc;

/**
 * How a grid is drawn: square cells of {@code cellSize} pixels, grid lines of {@code lineWidth}
 * pixels (0 for none) in {@code lineColor}, with or without an outer border of the same lines,
 * {@code margin} pixels of {@code background} around it, colours from {@code palette}.
 */
public record ArcStyle(int cellSize, int lineWidth, int lineColor, boolean outerBorder, int margin, int background,
                       int[] palette) {

    /** The generator's style: the ARC-AGI viewer's colours, 1 px grey lines with a border, on white. */
    public static final ArcStyle STANDARD = new ArcStyle(16, 1, 0x555555, true, 0, 0xFFFFFF, ArcPalette.CLASSIC);

    public ArcStyle {
        if (cellSize < 1 || lineWidth < 0 || margin < 0) {
            throw new IllegalArgumentException("cell size must be positive, line width and margin non-negative");
        }
        if (palette == null || palette.length != 10) {
            throw new IllegalArgumentException("a palette has ten colours");
        }
        palette = palette.clone();
    }

    public ArcStyle withCellSize(int size) {
        return new ArcStyle(size, lineWidth, lineColor, outerBorder, margin, background, palette);
    }

    public ArcStyle withMargin(int m) {
        return new ArcStyle(cellSize, lineWidth, lineColor, outerBorder, m, background, palette);
    }

    /** Pixels a grid of {@code n} cells spans along one axis, margins excluded. */
    public int span(int n) {
        int lines = lineWidth == 0 ? 0 : (outerBorder ? n + 1 : n - 1);
        return n * cellSize + lines * lineWidth;
    }
}
