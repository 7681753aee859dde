package io.mmgr.stream.tasks.sudoku;

import java.awt.Font;

/**
 * How a Sudoku is drawn: canvas, where the grid sits, line widths and colours, and the fonts and
 * colours of the clues and of the filled-in digits. Colours are {@code 0xRRGGBB}.
 *
 * @param digitHeight cap height of the digits as a fraction of the cell height
 * @param boxShade    background of every other box, or -1 for none
 * @param antialias   smooth edges of lines and digits; off, everything snaps to whole pixels
 */
public record SudokuStyle(int canvasWidth, int canvasHeight, int background,
                          int gridX, int gridY, int gridWidth, int gridHeight,
                          double thinLine, double thickLine, int lineColor,
                          Font clueFont, int clueColor, Font fillFont, int fillColor,
                          double digitHeight, int boxShade, boolean antialias) {

    /** An anti-aliased style. */
    public SudokuStyle(int canvasWidth, int canvasHeight, int background, int gridX, int gridY, int gridWidth,
                       int gridHeight, double thinLine, double thickLine, int lineColor, Font clueFont, int clueColor,
                       Font fillFont, int fillColor, double digitHeight, int boxShade) {
        this(canvasWidth, canvasHeight, background, gridX, gridY, gridWidth, gridHeight, thinLine, thickLine,
                lineColor, clueFont, clueColor, fillFont, fillColor, digitHeight, boxShade, true);
    }

    public SudokuStyle {
        if (canvasWidth <= 0 || canvasHeight <= 0 || gridWidth <= 0 || gridHeight <= 0) {
            throw new IllegalArgumentException("canvas and grid must be non-empty");
        }
        if (gridX < 0 || gridY < 0 || gridX + gridWidth > canvasWidth || gridY + gridHeight > canvasHeight) {
            throw new IllegalArgumentException("grid must lie on the canvas");
        }
    }

    /** The benchmark's own look: a square grid with a margin, black clues, blue filled digits. */
    public static SudokuStyle standard(int canvas) {
        int margin = canvas / 16;
        return new SudokuStyle(canvas, canvas, 0xFFFFFF, margin, margin, canvas - 2 * margin, canvas - 2 * margin,
                Math.max(1.0, canvas / 384.0), Math.max(3.0, canvas / 128.0), 0x000000,
                new Font(Font.SANS_SERIF, Font.PLAIN, 12), 0x000000,
                new Font(Font.SANS_SERIF, Font.PLAIN, 12), 0x1F4FD0, 0.5, -1);
    }

    public SudokuStyle withFill(Font font, int color) {
        return new SudokuStyle(canvasWidth, canvasHeight, background, gridX, gridY, gridWidth, gridHeight,
                thinLine, thickLine, lineColor, clueFont, clueColor, font, color, digitHeight, boxShade, antialias);
    }

    public SudokuStyle withClues(Font font, int color) {
        return new SudokuStyle(canvasWidth, canvasHeight, background, gridX, gridY, gridWidth, gridHeight,
                thinLine, thickLine, lineColor, font, color, fillFont, fillColor, digitHeight, boxShade, antialias);
    }
}
