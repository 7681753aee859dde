package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.RgbImage;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.List;

/**
 * How a model's answer looks in a fixture: a {@link SudokuStyle} (canvas, grid placement and size,
 * lines, fonts and colours of clues and fills), an optional caption drawn above the grid, blur and the
 * file encoding (PNG, or JPEG at a quality).
 */
record OutputLook(String name, SudokuStyle style, String caption, double blur, int jpegQuality) {

    @Override
    public String toString() {
        return name;
    }

    static Font face(String name) {
        return FixtureFonts.named(name).font();
    }

    /** A spread of looks: positions, sizes, line weights, fonts, ink colours, shading, blur, JPEG. */
    static List<OutputLook> all() {
        return List.of(
                new OutputLook("standard-png", SudokuStyle.standard(512), null, 0, 0),
                new OutputLook("offset-serif-green-jpeg85", new SudokuStyle(640, 480, 0xFFFFFF, 250, 110, 330, 330,
                        1, 3, 0x555555, face("LiberationSerif-Regular"), 0x000000,
                        face("LiberationMono-Regular"), 0x1A7F1A, 0.55, -1), null, 0.6, 85),
                new OutputLook("large-bold-red-shaded", new SudokuStyle(1024, 1024, 0xFFFFFF, 70, 50, 900, 900,
                        2, 7, 0x000000, face(Font.SANS_SERIF + " Bold"), 0x222222,
                        face("LiberationSans-Italic"), 0xD02020, 0.6, 0xE8E8E8), null, 0, 0),
                new OutputLook("captioned-portrait-blur-jpeg70", new SudokuStyle(480, 600, 0xFAFAF5, 30, 120, 420, 420,
                        1.2, 3.5, 0x202020, face(Font.SERIF), 0x000000,
                        face("LiberationSans-Bold"), 0x6A1B9A, 0.5, -1), "Solve the Sudoku", 1.0, 70),
                new OutputLook("small-mono-orange-jpeg50", new SudokuStyle(360, 360, 0xFFFFFF, 14, 20, 330, 330,
                        1, 2.5, 0x000000, face(Font.MONOSPACED + " Bold"), 0x000000,
                        face("LiberationSerif-BoldItalic"), 0xE07000, 0.55, -1), null, 0, 50),
                new OutputLook("thin-grey-lines-blue-blur", new SudokuStyle(700, 560, 0xFFFFFF, 180, 40, 480, 480,
                        1, 2, 0x707070, face(Font.DIALOG), 0x111111,
                        face(Font.MONOSPACED), 0x1F4FD0, 0.45, -1), null, 1.2, 0));
    }

    RgbImage render(int n, int[] digits, boolean[] clue, double[] opacity) {
        RgbImage img = SudokuRenderer.render(style, n, digits, clue, opacity);
        if (caption != null) {
            BufferedImage b = img.toBufferedImage();
            Graphics2D g = b.createGraphics();
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.BLACK);
            g.setFont(face("LiberationSans-Bold").deriveFont(style.gridY() * 0.4f));
            g.drawString(caption, style.gridX(), style.gridY() * 0.6f);
            g.dispose();
            img = RgbImage.of(b);
        }
        return io.mmgr.stream.vision.Degradation.blur(img, blur);
    }

    /** The file bytes a model would hand in. */
    byte[] encode(RgbImage img) {
        return jpegQuality > 0 ? ImageEncoder.jpeg(img, jpegQuality) : ImageEncoder.png(img);
    }

    String extension() {
        return jpegQuality > 0 ? "jpg" : "png";
    }

    /** The image as the evaluator sees it after encoding and decoding. */
    RgbImage roundTrip(RgbImage img) throws MediaException {
        return ImageDecoder.decode(encode(img), ImageDecoder.Limits.DEFAULT);
    }
}
