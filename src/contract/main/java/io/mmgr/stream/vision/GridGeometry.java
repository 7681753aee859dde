package io.mmgr.stream.vision;

/**
 * A ruled grid found in an image: the centres and half-widths of its {@code cols + 1} vertical and
 * {@code rows + 1} horizontal lines, in pixels; which of them were seen (the others were placed on the
 * lattice), and the ink level the lines were seen at.
 */
public record GridGeometry(double[] xs, double[] xHalf, double[] ys, double[] yHalf,
                           boolean[] xSeen, boolean[] ySeen, int threshold) {

    public int rows() {
        return ys.length - 1;
    }

    public int cols() {
        return xs.length - 1;
    }

    /**
     * The cell's area between the inner edges of its lines (never empty). A line centred at {@code c}
     * with half-width {@code h} covers the pixels whose centres lie in [c - h + 0.5, c + h - 0.5], so the
     * cell runs from pixel ceil(c + h) of the line before it up to, not including, pixel ceil(c - h) of
     * the line after it (flooring the end dropped the cell's last row and column of pixels, which on a
     * 128 px board is an eighth of a digit).
     */
    public Rect cell(int row, int col) {
        int x0 = (int) Math.ceil(xs[col] + xHalf[col]);
        int x1 = (int) Math.ceil(xs[col + 1] - xHalf[col + 1]);
        int y0 = (int) Math.ceil(ys[row] + yHalf[row]);
        int y1 = (int) Math.ceil(ys[row + 1] - yHalf[row + 1]);
        return new Rect(x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0));
    }

    /** Mean cell pitch (line centre to line centre), for scale-relative thresholds. */
    public double pitch() {
        return ((xs[xs.length - 1] - xs[0]) / cols() + (ys[ys.length - 1] - ys[0]) / rows()) / 2;
    }
}
