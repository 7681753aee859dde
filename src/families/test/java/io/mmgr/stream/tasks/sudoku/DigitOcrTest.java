package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.InkImage;
import io.mmgr.stream.vision.Rect;
import io.mmgr.stream.vision.OcrException;
import io.mmgr.stream.vision.RgbImage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The digit reader on single glyphs cut by {@link GlyphExtractor} from drawn cells. */
@Tag("unit")
class DigitOcrTest extends WithDigitOcr {

    /** A white cell of {@code side} px with the digit drawn at {@code capHeight}-ish px in the given ink. */
    static Glyph cell(String text, Font base, float size, int ink, int side) {
        BufferedImage img = new BufferedImage(side, side, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, side, side);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(new Color(ink));
        g.setFont(base.deriveFont(size));
        var bounds = g.getFontMetrics().getStringBounds(text, g);
        g.drawString(text, (float) (side - bounds.getWidth()) / 2, side * 0.5f + size * 0.36f);
        g.dispose();
        return GlyphExtractor.extract(InkImage.of(RgbImage.of(img)), new Rect(0, 0, side, side));
    }

    @ParameterizedTest
    @ValueSource(strings = {Font.SANS_SERIF, Font.SERIF, Font.MONOSPACED})
    void everyDigitIsReadAtSmallAndLargeSizes(String family) {
        for (int d = 1; d <= 9; d++) {
            for (float size : new float[] {16f, 28f, 60f}) {
                Glyph g = cell(Integer.toString(d), new Font(family, Font.PLAIN, 12), size, 0x000000, (int) (size * 2));
                DigitOcr.Reading r = ocr.read(g);
                assertThat(r.digit()).as("%s %d at %.0f px", family, d, size).isEqualTo(d);
                assertThat(r.confidence()).isBetween(1, 100);
            }
        }
    }

    @Test
    void colouredAndPaleInkIsReadLikeBlack() {
        for (int ink : new int[] {0xD02020, 0x1F4FD0, 0x1A7F1A, 0xE0A000, 0x909090}) {
            Glyph g = cell("7", new Font(Font.SANS_SERIF, Font.BOLD, 12), 30f, ink, 60);
            assertThat(ocr.read(g).digit()).as("ink %06x", ink).isEqualTo(7);
        }
    }

    @Test
    void aBlankCellHasNoGlyphAndAnEmptyGlyphNoDigit() {
        assertThat(cell(" ", new Font(Font.SANS_SERIF, Font.PLAIN, 12), 30f, 0, 60)).isNull();
        Glyph empty = new Glyph(20, 30, new byte[600]);
        DigitOcr.Reading r = ocr.read(empty);
        assertThat(r.found()).isFalse();
        assertThat(r.digit()).isZero();
    }

    @Test
    void aDotOrADashIsNoCharacter() {
        assertThat(cell(".", new Font(Font.SANS_SERIF, Font.BOLD, 12), 40f, 0, 60)).isNull();
        assertThat(cell("-", new Font(Font.SANS_SERIF, Font.BOLD, 12), 40f, 0, 60)).isNull();
    }

    @Test
    void aClosedEngineRefusesWork() {
        DigitOcr own = DigitOcr.open();
        own.close();
        own.close(); // idempotent
        assertThatThrownBy(() -> own.read(new Glyph(1, 1, new byte[1]))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aMisdirectedModelOverrideSaysWhatIsWrong(@TempDir Path dir) {
        String old = System.getProperty(DigitOcr.MODEL_PROPERTY);
        System.setProperty(DigitOcr.MODEL_PROPERTY, dir.resolve("missing.traineddata").toString());
        try {
            assertThatThrownBy(DigitOcr::loadModel).isInstanceOf(OcrException.class)
                    .hasMessageContaining("missing.traineddata").hasMessageContaining("not a file");
        } finally {
            if (old == null) {
                System.clearProperty(DigitOcr.MODEL_PROPERTY);
            } else {
                System.setProperty(DigitOcr.MODEL_PROPERTY, old);
            }
        }
    }

    @Test
    void theBuildPutTheEnglishModelOnTheClassPath() {
        byte[] model = DigitOcr.loadModel();
        assertThat(model.length).isGreaterThan(1_000_000); // eng.traineddata (fast LSTM) is ~4 MB
    }
}
