package io.mmgr.stream.tasks.sudoku;

import static io.mmgr.stream.tasks.sudoku.FixtureFonts.named;
import static io.mmgr.stream.tasks.sudoku.FixtureFonts.system;

import io.mmgr.stream.tasks.sudoku.SudokuLook.Decor;
import io.mmgr.stream.vision.Degradation;
import java.awt.Font;
import java.util.List;

/**
 * The Sudoku style corpus: looks spanning canvases from 128 to 2,048 px, lines from 1 px to thick and
 * uniform, anti-aliased or not, JPEG from quality 60, blur, colour shifts, margins from none to wide,
 * frames, axis labels and titles, paper tints and box shading, and digits in many families and weights
 * (DejaVu, Liberation, URW's Nimbus/C059/P052/Bookman/Gothic, FreeFont, Roboto Thin to Black, Open Sans,
 * Noto), clues and filled digits in different faces and inks.
 */
final class SudokuStyleCorpus {

    private static final Degradation PNG = Degradation.NONE;
    private static final int BLUE = 0x1F4FD0;
    private static final int RED = 0xC02020;
    private static final int GREEN = 0x1A7F1A;

    private SudokuStyleCorpus() {
    }

    private static Font f(FixtureFonts.Face face) {
        return face.font();
    }

    /** A square board at (x, y) of side {@code side} on a w x h canvas. */
    private static SudokuStyle board(int w, int h, int x, int y, int side, double thin, double thick, int line,
                                     FixtureFonts.Face clue, int clueInk, FixtureFonts.Face fill, int fillInk,
                                     double digit, int shade, boolean aa) {
        return new SudokuStyle(w, h, 0xFFFFFF, x, y, side, side, thin, thick, line, f(clue), clueInk, f(fill), fillInk,
                digit, shade, aa);
    }

    static final List<SudokuLook> LOOKS = List.of(
            // at 128 px a 9x9 board's cells are 11-13 px and its digits 8 px tall
            new SudokuLook("128-tiny", "128 px canvas (9x9 digits 8 px tall), 2 px margin, DejaVu Sans Bold",
                    () -> board(128, 128, 2, 2, 124, 1, 2, 0x000000, named("DejaVu Sans Bold"), 0x000000,
                            named("DejaVu Sans Bold"), BLUE, 0.6, -1, true), Decor.NONE, PNG),
            new SudokuLook("192-small-bold", "192 px canvas (9x9 digits 12 px tall), DejaVu Sans Bold",
                    () -> board(192, 192, 2, 2, 188, 1, 2, 0x000000, named("DejaVu Sans Bold"), 0x000000,
                            named("DejaVu Sans Bold"), BLUE, 0.6, -1, true), Decor.NONE, PNG),
            new SudokuLook("160-no-aa-liberation", "160 px, no anti-aliasing, Liberation Sans regular/bold",
                    () -> board(160, 160, 4, 4, 152, 1, 2, 0x000000, named("LiberationSans-Regular"), 0x000000,
                            named("LiberationSans-Bold"), RED, 0.6, -1, false), Decor.NONE, PNG),
            new SudokuLook("256-jpeg60-nimbus", "256 px, JPEG 60, Nimbus Sans (Helvetica clone)",
                    () -> board(256, 256, 8, 8, 240, 1, 3, 0x000000, system("Nimbus Sans", Font.PLAIN), 0x000000,
                            system("Nimbus Sans", Font.BOLD), BLUE, 0.55, -1, true), Decor.NONE, Degradation.jpeg(60)),
            new SudokuLook("384-blur-serif", "blur 1.0, Nimbus Roman and C059 (Times, Century Schoolbook clones)",
                    () -> board(384, 384, 20, 20, 344, 1, 3, 0x000000, system("Nimbus Roman", Font.PLAIN), 0x000000,
                            system("C059", Font.PLAIN), GREEN, 0.55, -1, true), Decor.NONE, PNG.withBlur(1.0)),
            new SudokuLook("512-colour-shift-roboto", "hue +8, saturation x0.85, brightness x0.92, JPEG 85; Roboto",
                    () -> board(512, 512, 32, 32, 448, 1.5, 4, 0x000000, system("Roboto", Font.PLAIN), 0x000000,
                            system("Roboto Medium", Font.PLAIN), BLUE, 0.5, -1, true), Decor.NONE,
                    new Degradation(0, 8, 0.85, 0.92, 85)),
            new SudokuLook("768-thick-lines", "thick lines (4 px thin, 12 px box), Open Sans",
                    () -> board(768, 768, 40, 40, 688, 4, 12, 0x000000, system("Open Sans", Font.PLAIN), 0x000000,
                            system("Open Sans Semibold", Font.PLAIN), RED, 0.5, -1, true), Decor.NONE, Degradation.jpeg(90)),
            new SudokuLook("1024-uniform-grey-lines", "1024 px, uniform 6 px grey lines (no box weight), FreeSans",
                    () -> board(1024, 1024, 60, 60, 904, 6, 6, 0x606060, system("FreeSans", Font.PLAIN), 0x000000,
                            system("FreeSans", Font.BOLD), BLUE, 0.5, -1, true), Decor.NONE, PNG),
            new SudokuLook("1536-thin-weights", "1536 px, Roboto Thin clues, Roboto Light digits, 2 px lines",
                    () -> board(1536, 1536, 90, 90, 1356, 2, 6, 0x000000, system("Roboto Thin", Font.PLAIN), 0x000000,
                            system("Roboto Light", Font.PLAIN), BLUE, 0.55, -1, true), Decor.NONE, Degradation.jpeg(90)),
            new SudokuLook("2048-heavy-weights", "2048 px, Roboto Black and Open Sans Extrabold, 1 px thin lines",
                    () -> board(2048, 2048, 100, 100, 1848, 1, 10, 0x000000, system("Roboto Black", Font.PLAIN), 0x000000,
                            system("Open Sans Extrabold", Font.PLAIN), GREEN, 0.55, -1, true), Decor.NONE, Degradation.jpeg(80)),
            new SudokuLook("axes-labels", "column letters and row numbers round the board, DejaVu Sans",
                    () -> board(600, 600, 70, 70, 500, 1, 3, 0x000000, named("DejaVu Sans"), 0x000000,
                            named("DejaVu Sans"), BLUE, 0.5, -1, true), Decor.AXES, PNG),
            new SudokuLook("frame-offset", "800x600, a frame, the board off-centre, Noto Sans and Noto Serif",
                    () -> board(800, 600, 320, 90, 430, 1, 3, 0x202020, system("Noto Sans", Font.PLAIN), 0x000000,
                            system("Noto Serif", Font.PLAIN), RED, 0.55, -1, true), Decor.FRAME, Degradation.jpeg(85)),
            new SudokuLook("no-margin-mono", "no margin (the board is the image), Liberation Mono and FreeMono",
                    () -> board(450, 450, 0, 0, 450, 1, 3, 0x000000, named("LiberationMono-Regular"), 0x000000,
                            system("FreeMono", Font.BOLD), BLUE, 0.55, -1, true), Decor.NONE, PNG),
            new SudokuLook("widescreen-caption", "1280x720, a title, URW Gothic and Nimbus Sans Narrow",
                    () -> board(1280, 720, 90, 130, 560, 1.5, 4, 0x000000, system("URW Gothic", Font.PLAIN), 0x000000,
                            system("Nimbus Sans Narrow", Font.BOLD), GREEN, 0.5, -1, true), Decor.CAPTION,
                    Degradation.jpeg(85)),
            new SudokuLook("shaded-boxes-grey-lines", "shaded boxes, grey lines, Open Sans Light and URW Bookman",
                    () -> board(640, 640, 30, 30, 580, 1, 3, 0x707070, system("Open Sans Light", Font.PLAIN), 0x111111,
                            system("URW Bookman", Font.PLAIN), BLUE, 0.5, 0xE4E4E4, true), Decor.NONE, PNG),
            new SudokuLook("condensed-mono", "condensed and monospaced: DejaVu Sans Condensed, Roboto Condensed, Nimbus Mono",
                    () -> board(500, 500, 20, 20, 460, 1, 3, 0x000000, named("DejaVu Sans Condensed"), 0x000000,
                            system("Roboto Condensed", Font.PLAIN), RED, 0.55, -1, true), Decor.NONE,
                    Degradation.jpeg(75)),
            new SudokuLook("italic-serif", "italics: Liberation Serif Italic, P052 Italic (Palatino clone)",
                    () -> board(540, 540, 25, 25, 490, 1, 3, 0x000000, named("LiberationSerif-Italic"), 0x000000,
                            system("P052", Font.ITALIC), BLUE, 0.55, -1, true), Decor.NONE, PNG),
            new SudokuLook("small-digits", "digits a third of the cell, DejaVu Serif, Nimbus Mono PS",
                    () -> board(720, 720, 40, 40, 640, 1, 3, 0x000000, named("DejaVu Serif"), 0x000000,
                            system("Nimbus Mono PS", Font.PLAIN), BLUE, 0.33, -1, true), Decor.NONE, PNG),
            new SudokuLook("large-digits", "digits three quarters of the cell, FreeSerif Bold",
                    () -> board(480, 480, 20, 20, 440, 1, 3, 0x000000, system("FreeSerif", Font.BOLD), 0x000000,
                            system("FreeSerif", Font.PLAIN), RED, 0.75, -1, true), Decor.NONE, PNG),
            new SudokuLook("cream-paper", "cream paper, brown lines, P052 and Noto Sans Display",
                    () -> new SudokuStyle(600, 600, 0xF4ECD8, 30, 30, 540, 540, 1.2, 3.5, 0x5A4A3A,
                            f(system("P052", Font.PLAIN)), 0x2A1A0A, f(system("Noto Sans Display", Font.PLAIN)), BLUE,
                            0.5, -1, true), Decor.NONE, Degradation.jpeg(80)),
            new SudokuLook("mixed-degraded", "blur 0.6, hue -6, saturation x1.1, brightness x0.95, JPEG 65; DejaVu Sans Mono Bold",
                    () -> board(640, 640, 40, 40, 560, 1, 3, 0x000000, named("DejaVu Sans Mono Bold"), 0x000000,
                            system("Roboto", Font.PLAIN), BLUE, 0.55, -1, true), Decor.FRAME,
                    new Degradation(0.6, -6, 1.1, 0.95, 65)));
}
