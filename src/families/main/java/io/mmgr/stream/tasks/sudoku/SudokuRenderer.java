package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.RgbImage;
import java.awt.AlphaComposite;
import java.awt.Color;
import java.awt.Composite;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.font.FontRenderContext;
import java.awt.font.GlyphVector;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;

/** Draws a Sudoku grid with digits in a {@link SudokuStyle}; for the generator and for test fixtures. */
public final class SudokuRenderer {

    private SudokuRenderer() {
    }

    /** The puzzle as posed: its givens in the clue style. */
    public static RgbImage problem(SudokuPuzzle p, SudokuStyle style) {
        return render(style, p.size(), p.givens(), clueMask(p), null);
    }

    /** The solved puzzle: givens in the clue style, the rest in the fill style. */
    public static RgbImage solution(SudokuPuzzle p, SudokuStyle style) {
        return render(style, p.size(), p.solution(), clueMask(p), null);
    }

    public static boolean[] clueMask(SudokuPuzzle p) {
        boolean[] clue = new boolean[p.cells()];
        for (int i = 0; i < clue.length; i++) {
            clue[i] = p.isGiven(i);
        }
        return clue;
    }

    /**
     * @param digits  row-major, 0 for an empty cell
     * @param clue    which cells use the clue font and colour (the others the fill style)
     * @param opacity per-cell opacity of the digit in [0, 1], or null for opaque
     */
    public static RgbImage render(SudokuStyle s, int n, int[] digits, boolean[] clue, double[] opacity) {
        BufferedImage img = new BufferedImage(s.canvasWidth(), s.canvasHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, s.antialias()
                    ? RenderingHints.VALUE_ANTIALIAS_ON : RenderingHints.VALUE_ANTIALIAS_OFF);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, s.antialias()
                    ? RenderingHints.VALUE_TEXT_ANTIALIAS_ON : RenderingHints.VALUE_TEXT_ANTIALIAS_OFF);
            g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
            g.setColor(new Color(s.background()));
            g.fillRect(0, 0, s.canvasWidth(), s.canvasHeight());
            double cw = s.gridWidth() / (double) n;
            double ch = s.gridHeight() / (double) n;
            int box = n == 4 ? 2 : 3;
            if (s.boxShade() >= 0) {
                g.setColor(new Color(s.boxShade()));
                for (int br = 0; br < box; br++) {
                    for (int bc = 0; bc < box; bc++) {
                        if ((br + bc) % 2 == 1) {
                            g.fill(new Rectangle2D.Double(s.gridX() + bc * box * cw, s.gridY() + br * box * ch,
                                    box * cw, box * ch));
                        }
                    }
                }
            }
            g.setColor(new Color(s.lineColor()));
            for (int k = 0; k <= n; k++) {
                double t = k % box == 0 ? s.thickLine() : s.thinLine();
                double x = s.gridX() + k * cw;
                double y = s.gridY() + k * ch;
                // outer lines sit inside the grid box so the grid keeps the size the style says
                double ox = k == 0 ? x : k == n ? x - t : x - t / 2;
                double oy = k == 0 ? y : k == n ? y - t : y - t / 2;
                g.fill(new Rectangle2D.Double(ox, s.gridY(), t, s.gridHeight()));
                g.fill(new Rectangle2D.Double(s.gridX(), oy, s.gridWidth(), t));
            }
            Font clueFont = sized(g, s.clueFont(), s.digitHeight() * ch);
            Font fillFont = sized(g, s.fillFont(), s.digitHeight() * ch);
            Composite opaque = g.getComposite();
            for (int i = 0; i < n * n; i++) {
                if (digits[i] == 0) {
                    continue;
                }
                float a = opacity == null ? 1f : (float) Math.max(0, Math.min(1, opacity[i]));
                if (a <= 0f) {
                    continue;
                }
                g.setComposite(a >= 1f ? opaque : AlphaComposite.getInstance(AlphaComposite.SRC_OVER, a));
                g.setColor(new Color(clue[i] ? s.clueColor() : s.fillColor()));
                drawCentred(g, clue[i] ? clueFont : fillFont, Integer.toString(digits[i]),
                        s.gridX() + (i % n + 0.5) * cw, s.gridY() + (i / n + 0.5) * ch);
            }
            g.setComposite(opaque);
        } finally {
            g.dispose();
        }
        return RgbImage.of(img);
    }

    /** The font scaled so that a digit's cap height (measured on "8") is {@code capHeight} pixels. */
    private static Font sized(Graphics2D g, Font base, double capHeight) {
        Font probe = base.deriveFont(100f);
        FontRenderContext frc = g.getFontRenderContext();
        double h = probe.createGlyphVector(frc, "8").getVisualBounds().getHeight();
        return base.deriveFont((float) (100.0 * capHeight / h));
    }

    private static void drawCentred(Graphics2D g, Font font, String text, double cx, double cy) {
        GlyphVector gv = font.createGlyphVector(g.getFontRenderContext(), text);
        Rectangle2D b = gv.getVisualBounds();
        g.drawGlyphVector(gv, (float) (cx - b.getCenterX()), (float) (cy - b.getCenterY()));
    }
}
