package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.Degradation;
import io.mmgr.stream.vision.RgbImage;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.function.Supplier;

/**
 * A way some other program might draw a Sudoku answer: a {@link SudokuStyle} for a 9x9 board (a 4x4
 * one keeps the canvas, placement, lines and fonts), something around the board ({@link Decor}) and a
 * {@link Degradation}. The style is made on first use, since its fonts may be system fonts that a
 * machine lacks (then the look is skipped, or fails in CI).
 */
final class SudokuLook {

    /** What else is on the canvas. */
    enum Decor {
        NONE,
        /** Column letters above and row numbers left of the board, as on a chess-like diagram. */
        AXES,
        /** A frame round the canvas, clear of the board. */
        FRAME,
        /** A title above the board. */
        CAPTION
    }

    private final String name;
    private final String covers;
    private final Supplier<SudokuStyle> styleMaker;
    private final Decor decor;
    private final Degradation degradation;
    private final int[] sizes;
    private SudokuStyle style;

    SudokuLook(String name, String covers, Supplier<SudokuStyle> style, Decor decor, Degradation degradation) {
        this(name, covers, style, decor, degradation, new int[] {4, 9});
    }

    /** A look drawn only at the given board sizes (4, 9). */
    SudokuLook(String name, String covers, Supplier<SudokuStyle> style, Decor decor, Degradation degradation,
               int[] sizes) {
        this.name = name;
        this.covers = covers;
        this.styleMaker = style;
        this.decor = decor;
        this.degradation = degradation;
        this.sizes = sizes.clone();
    }

    int[] sizes() {
        return sizes.clone();
    }

    String name() {
        return name;
    }

    String covers() {
        return covers;
    }

    synchronized SudokuStyle style() {
        if (style == null) {
            style = styleMaker.get();
        }
        return style;
    }

    @Override
    public String toString() {
        return name;
    }

    /** The answer as the evaluator reads it: drawn, decorated, degraded, round-tripped through its file format. */
    RgbImage render(int n, int[] digits, boolean[] clue) {
        SudokuStyle s = style();
        RgbImage img = SudokuRenderer.render(s, n, digits, clue, null);
        if (decor != Decor.NONE) {
            BufferedImage b = img.toBufferedImage();
            Graphics2D g = b.createGraphics();
            try {
                g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, s.antialias()
                        ? RenderingHints.VALUE_ANTIALIAS_ON : RenderingHints.VALUE_ANTIALIAS_OFF);
                g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, s.antialias()
                        ? RenderingHints.VALUE_TEXT_ANTIALIAS_ON : RenderingHints.VALUE_TEXT_ANTIALIAS_OFF);
                g.setColor(new Color(s.lineColor()));
                decorate(g, s, n);
            } finally {
                g.dispose();
            }
            img = RgbImage.of(b);
        }
        return degradation.apply(img);
    }

    private void decorate(Graphics2D g, SudokuStyle s, int n) {
        double cell = s.gridWidth() / (double) n;
        switch (decor) {
            case AXES -> {
                float size = (float) Math.min(cell * 0.45, Math.min(s.gridX(), s.gridY()) * 0.7);
                g.setFont(s.clueFont().deriveFont(size));
                for (int k = 0; k < n; k++) {
                    String col = String.valueOf((char) ('A' + k));
                    String row = Integer.toString(k + 1);
                    float cw = g.getFontMetrics().stringWidth(col);
                    g.drawString(col, (float) (s.gridX() + (k + 0.5) * cell - cw / 2), (float) (s.gridY() - size * 0.4));
                    float rw = g.getFontMetrics().stringWidth(row);
                    g.drawString(row, (float) (s.gridX() - size * 0.5 - rw), (float) (s.gridY() + (k + 0.5) * cell + size * 0.36));
                }
            }
            case FRAME -> {
                double unit = Math.max(1, Math.min(s.canvasWidth(), s.canvasHeight()) / 300.0);
                g.setStroke(new BasicStroke((float) (2 * unit)));
                g.draw(new Rectangle2D.Double(3 * unit, 3 * unit, s.canvasWidth() - 6 * unit, s.canvasHeight() - 6 * unit));
            }
            case CAPTION -> {
                float size = (float) (s.gridY() * 0.4);
                g.setFont(s.clueFont().deriveFont(Font.BOLD, size));
                g.drawString("Solve the Sudoku: every row, column and box holds 1-" + n, s.gridX(), s.gridY() * 0.6f);
            }
            default -> throw new IllegalStateException();
        }
    }
}
