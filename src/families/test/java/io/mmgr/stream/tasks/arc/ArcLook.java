package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.Degradation;
import io.mmgr.stream.vision.RgbImage;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;

/**
 * A way some other program might draw an ARC answer, independent of {@link ArcRenderer}: a canvas of
 * any size the grid is fitted into (cells of fractional size, square or stretched), grid lines from
 * none through 1 px to a share of the cell, with or without an outer border, anti-aliased or snapped
 * to whole pixels, a margin, something around the board ({@link Decor}), and a {@link Degradation}.
 *
 * @param lineWidth   grid line width in pixels; below 0, minus the share of the cell pitch; 0 for none
 * @param margin      share of the canvas kept free on every side
 * @param cellAspect  cell width over cell height (1 square; a square puzzle stretched into 16:9 is ~1.78)
 */
record ArcLook(String name, int width, int height, double lineWidth, int lineColour, boolean border, double margin,
               int background, int[] palette, boolean antialias, double cellAspect, Decor decor,
               Degradation degradation) {

    /** What else is on the canvas. */
    enum Decor {
        NONE,
        /** A frame round the canvas, clear of the board. */
        FRAME,
        /** Plot axes as matplotlib's imshow draws them: spines on the board's edge, ticks and numbers outside. */
        AXES,
        /** A title above the board. */
        CAPTION
    }

    @Override
    public String toString() {
        return name;
    }

    boolean hasLines() {
        return lineWidth != 0;
    }

    /** The drawn canvas, before degradation. */
    RgbImage raster(int[][] cells) {
        int rows = cells.length;
        int cols = cells[0].length;
        double availW = width * (1 - 2 * margin);
        double availH = height * (1 - 2 * margin);
        // pitch (cell + one line) across and down; the line count depends on the border
        double f = lineWidth < 0 ? -lineWidth : 0;
        double fixed = lineWidth > 0 ? lineWidth : 0;
        int extraLines = hasLines() ? (border ? 1 : -1) : 0;
        double px = (availW - extraLines * fixed) / (cols + extraLines * f);
        double py = (availH - extraLines * fixed) / (rows + extraLines * f);
        // one pitch pair with the requested aspect that fits both ways
        double pitchY = Math.min(py, px / cellAspect);
        double pitchX = pitchY * cellAspect;
        double lw = fixed > 0 ? fixed : f * Math.min(pitchX, pitchY);
        double gridW = cols * pitchX + extraLines * lw;
        double gridH = rows * pitchY + extraLines * lw;
        double x0 = (width - gridW) / 2;
        double y0 = (height - gridH) / 2;
        if (!antialias) {
            x0 = Math.round(x0);
            y0 = Math.round(y0);
        }
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            Object aa = antialias ? RenderingHints.VALUE_ANTIALIAS_ON : RenderingHints.VALUE_ANTIALIAS_OFF;
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, aa);
            g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, antialias
                    ? RenderingHints.VALUE_TEXT_ANTIALIAS_ON : RenderingHints.VALUE_TEXT_ANTIALIAS_OFF);
            g.setColor(new Color(background));
            g.fillRect(0, 0, width, height);
            if (hasLines()) {
                g.setColor(new Color(lineColour));
                g.fill(rect(x0, y0, gridW, gridH));
            }
            double inset = hasLines() && border ? lw : 0;
            double cw = hasLines() ? pitchX - lw : pitchX;
            double ch = hasLines() ? pitchY - lw : pitchY;
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    double x = x0 + inset + c * pitchX;
                    double y = y0 + inset + r * pitchY;
                    // without lines each cell reaches under its right and lower neighbours, which are
                    // drawn later: shared edges blend the two colours, not the canvas between them
                    double w = !hasLines() && c < cols - 1 ? cw + 1 : cw;
                    double h = !hasLines() && r < rows - 1 ? ch + 1 : ch;
                    g.setColor(new Color(palette[cells[r][c]]));
                    g.fill(rect(x, y, w, h));
                }
            }
            decorate(g, x0, y0, gridW, gridH, rows, cols, pitchX, pitchY, inset);
        } finally {
            g.dispose();
        }
        return RgbImage.of(img);
    }

    /** The picture an evaluator reads: drawn, then degraded and round-tripped through the file format. */
    RgbImage render(int[][] cells) {
        return degradation.apply(raster(cells));
    }

    private Rectangle2D rect(double x, double y, double w, double h) {
        if (antialias) {
            return new Rectangle2D.Double(x, y, w, h);
        }
        long x1 = Math.round(x);
        long y1 = Math.round(y);
        return new Rectangle2D.Double(x1, y1, Math.max(1, Math.round(x + w) - x1), Math.max(1, Math.round(y + h) - y1));
    }

    private void decorate(Graphics2D g, double x0, double y0, double gw, double gh, int rows, int cols,
                          double pitchX, double pitchY, double inset) {
        int ink = isDark(background) ? 0xDDDDDD : 0x222222;
        double unit = Math.max(1, Math.min(width, height) / 400.0);
        switch (decor) {
            case NONE -> {
            }
            case FRAME -> {
                g.setColor(new Color(ink));
                g.setStroke(new BasicStroke((float) (2 * unit)));
                double m = 3 * unit;
                g.draw(new Rectangle2D.Double(m, m, width - 2 * m, height - 2 * m));
            }
            case AXES -> {
                g.setColor(new Color(ink));
                g.setStroke(new BasicStroke((float) unit));
                // the spines enclose the board, as an imshow's axes do
                g.draw(new Rectangle2D.Double(x0 - unit / 2, y0 - unit / 2, gw + unit, gh + unit));
                int stepX = cols <= 10 ? 1 : 5;
                int stepY = rows <= 10 ? 1 : 5;
                float size = (float) Math.max(7, 9 * unit);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12).deriveFont(size));
                double tick = 3.5 * unit;
                for (int c = 0; c < cols; c += stepX) {
                    double x = x0 + inset + (c + 0.5) * pitchX;
                    g.draw(new Line2D.Double(x, y0 + gh, x, y0 + gh + tick));
                    String label = Integer.toString(c);
                    float tw = g.getFontMetrics().stringWidth(label);
                    g.drawString(label, (float) (x - tw / 2), (float) (y0 + gh + tick + size * 1.1));
                }
                for (int r = 0; r < rows; r += stepY) {
                    double y = y0 + inset + (r + 0.5) * pitchY;
                    g.draw(new Line2D.Double(x0 - tick, y, x0, y));
                    String label = Integer.toString(r);
                    float tw = g.getFontMetrics().stringWidth(label);
                    g.drawString(label, (float) (x0 - tick - unit - tw), (float) (y + size * 0.35));
                }
            }
            case CAPTION -> {
                g.setColor(new Color(ink));
                float size = (float) Math.max(8, Math.min(height * margin * 0.5, 14 * unit));
                g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12).deriveFont(size));
                g.drawString("Test output", (float) x0, (float) (y0 - size * 0.6));
            }
            default -> throw new IllegalStateException();
        }
    }

    private static boolean isDark(int rgb) {
        int r = (rgb >> 16) & 0xFF;
        int gg = (rgb >> 8) & 0xFF;
        int b = rgb & 0xFF;
        return r + gg + b < 3 * 128;
    }
}
