package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.Rect;
import io.mmgr.stream.vision.RgbImage;
import java.util.ArrayList;
import java.util.List;

/**
 * Draws ARC grids and whole puzzles. A puzzle canvas shows each demonstration as input, arrow,
 * output, one pair per row, and the test input with an empty answer panel on the last row; the
 * panel is the item's answer region, where a model that redraws the whole canvas puts its answer.
 */
public final class ArcRenderer {

    /** Side of the square panel each grid of a puzzle is centred in. */
    public static final int PANEL = 240;
    static final int GAP = 16;
    static final int ARROW = 56;
    static final int PUZZLE_BACKGROUND = 0xFFFFFF;
    static final int ARROW_COLOUR = 0x444444;

    /** A puzzle canvas and where its answer goes. */
    public record Puzzle(RgbImage image, Rect answerRegion) {
    }

    private ArcRenderer() {
    }

    /** One grid with the style's margins. Cells are symbols 0..9; any rectangular array is drawn. */
    public static RgbImage grid(int[][] cells, ArcStyle style) {
        int rows = cells.length;
        int cols = cells[0].length;
        int w = style.span(cols) + 2 * style.margin();
        int h = style.span(rows) + 2 * style.margin();
        RgbImage img = RgbImage.filled(w, h, style.background());
        draw(img, cells, style.margin(), style.margin(), style);
        return img;
    }

    /** Draws a grid with its top-left corner (first line or first cell) at (x, y). */
    public static void draw(RgbImage img, int[][] cells, int x, int y, ArcStyle style) {
        int rows = cells.length;
        int cols = cells[0].length;
        int lw = style.lineWidth();
        int border = lw > 0 && style.outerBorder() ? lw : 0;
        if (lw > 0) {
            fill(img, x, y, style.span(cols), style.span(rows), style.lineColor());
        }
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int cx = x + border + c * (style.cellSize() + lw);
                int cy = y + border + r * (style.cellSize() + lw);
                fill(img, cx, cy, style.cellSize(), style.cellSize(), style.palette()[cells[r][c]]);
            }
        }
    }

    /**
     * The puzzle canvas of a task's test pair: demonstrations, then the test input and its answer
     * panel (empty, or holding the ground-truth output when {@code withAnswer}).
     */
    public static Puzzle puzzle(ArcTask task, int testIndex, boolean withAnswer) {
        ArcTask.Pair test = task.test(testIndex);
        List<ArcGrid[]> rows = new ArrayList<>();
        int maxSide = 1;
        for (ArcTask.Pair p : task.train()) {
            rows.add(new ArcGrid[] {p.input(), p.output()});
            maxSide = Math.max(maxSide, Math.max(side(p.input()), side(p.output())));
        }
        rows.add(new ArcGrid[] {test.input(), withAnswer ? test.output() : null});
        maxSide = Math.max(maxSide, side(test.input()));
        if (test.output() != null) {
            maxSide = Math.max(maxSide, side(test.output()));
        }
        // one cell size for the whole puzzle, so that sizes compare across grids
        ArcStyle style = ArcStyle.STANDARD.withCellSize(Math.max(4, (PANEL - maxSide - 1) / maxSide));
        int width = GAP + PANEL + ARROW + PANEL + GAP;
        int height = GAP + rows.size() * (PANEL + GAP);
        RgbImage img = RgbImage.filled(width, height, PUZZLE_BACKGROUND);
        Rect answer = null;
        for (int i = 0; i < rows.size(); i++) {
            int top = GAP + i * (PANEL + GAP);
            centred(img, rows.get(i)[0], GAP, top, style);
            arrow(img, GAP + PANEL + ARROW / 4, top + PANEL / 2, ARROW / 2);
            int panelX = GAP + PANEL + ARROW;
            if (rows.get(i)[1] != null) {
                centred(img, rows.get(i)[1], panelX, top, style);
            }
            if (i == rows.size() - 1) {
                answer = new Rect(panelX - GAP / 2, top - GAP / 2, PANEL + GAP, PANEL + GAP);
            }
        }
        return new Puzzle(img, answer);
    }

    private static int side(ArcGrid g) {
        return Math.max(g.rows(), g.cols());
    }

    private static void centred(RgbImage img, ArcGrid g, int panelX, int panelY, ArcStyle style) {
        int w = style.span(g.cols());
        int h = style.span(g.rows());
        draw(img, g.toArray(), panelX + (PANEL - w) / 2, panelY + (PANEL - h) / 2, style);
    }

    /** A right-pointing arrow: a shaft and a triangular head. */
    private static void arrow(RgbImage img, int x, int cy, int length) {
        int head = length / 3;
        fill(img, x, cy - 2, length - head, 5, ARROW_COLOUR);
        for (int i = 0; i < head; i++) {
            int half = head - i;
            fill(img, x + length - head + i, cy - half, 1, 2 * half + 1, ARROW_COLOUR);
        }
    }

    static void fill(RgbImage img, int x, int y, int w, int h, int rgb) {
        int x0 = Math.max(0, x);
        int y0 = Math.max(0, y);
        int x1 = Math.min(img.width(), x + w);
        int y1 = Math.min(img.height(), y + h);
        int[] px = img.pixels();
        for (int yy = y0; yy < y1; yy++) {
            java.util.Arrays.fill(px, yy * img.width() + x0, yy * img.width() + x1, rgb & 0xFFFFFF);
        }
    }
}
