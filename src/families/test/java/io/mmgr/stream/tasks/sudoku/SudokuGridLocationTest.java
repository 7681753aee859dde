package io.mmgr.stream.tasks.sudoku;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.vision.GridException;
import io.mmgr.stream.vision.GridGeometry;
import io.mmgr.stream.vision.InkImage;
import io.mmgr.stream.vision.RgbImage;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The grid locator against the drawn geometry, and its refusals. */
@Tag("unit")
class SudokuGridLocationTest {

    static Stream<Arguments> looks() {
        List<Arguments> out = new ArrayList<>();
        for (OutputLook look : OutputLook.all()) {
            out.add(Arguments.of(look, 4));
            out.add(Arguments.of(look, 9));
        }
        return out.stream();
    }

    /** Where the renderer put line k's centre: outer lines lie inside the grid box, inner ones on the division. */
    static double expectedCentre(double origin, double span, int k, int n, double thickness) {
        double pos = origin + k * span / n;
        return k == 0 ? pos + thickness / 2 : k == n ? pos - thickness / 2 : pos;
    }

    @ParameterizedTest(name = "{0} {1}x{1}")
    @MethodSource("looks")
    void linesAreFoundWhereTheyWereDrawn(OutputLook look, int n) throws Exception {
        SudokuPuzzle p = Puzzles.of(n, SudokuBand.MEDIUM, 5);
        RgbImage img = look.roundTrip(look.render(n, p.solution(), SudokuRenderer.clueMask(p), null));

        GridGeometry g = GridLocator.locate(InkImage.of(img), n);

        SudokuStyle s = look.style();
        int box = n == 4 ? 2 : 3;
        assertThat(g.cols()).isEqualTo(n);
        assertThat(g.rows()).isEqualTo(n);
        for (int k = 0; k <= n; k++) {
            double t = k % box == 0 ? s.thickLine() : s.thinLine();
            // within 1.5 px: lines are anti-aliased at fractional positions, then blurred and compressed
            assertThat(g.xs()[k]).isCloseTo(expectedCentre(s.gridX(), s.gridWidth(), k, n, t), org.assertj.core.api.Assertions.within(1.5));
            assertThat(g.ys()[k]).isCloseTo(expectedCentre(s.gridY(), s.gridHeight(), k, n, t), org.assertj.core.api.Assertions.within(1.5));
        }
    }

    /**
     * On a 128 px board ruled in whole pixels (thin lines 1 px, box lines 2 px, cells 11-13 px) every
     * cell is exactly the paper between its lines: none of its pixels lost to the line after it, where
     * a small digit's last row of ink lies.
     */
    @Test
    void cellsAreThePaperBetweenTheirLines() throws Exception {
        int n = 9;
        int[] starts = new int[n + 1];
        int[] widths = new int[n + 1];
        for (int k = 0; k <= n; k++) {
            widths[k] = k % 3 == 0 ? 2 : 1;
            starts[k] = 2 + (int) Math.round(k * 122 / 9.0) - (k == n ? widths[k] : 0);
        }
        RgbImage img = drawn(128, 128, g -> {
            for (int k = 0; k <= n; k++) {
                g.fillRect(starts[k], 2, widths[k], 124);
                g.fillRect(2, starts[k], 124, widths[k]);
            }
        });

        GridGeometry grid = GridLocator.locate(InkImage.of(img), n);

        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                int x0 = starts[c] + widths[c];
                int y0 = starts[r] + widths[r];
                assertThat(grid.cell(r, c)).as("cell %d,%d", r, c)
                        .isEqualTo(new io.mmgr.stream.vision.Rect(x0, y0, starts[c + 1] - x0, starts[r + 1] - y0));
            }
        }
    }

    @Test
    void aGridOfAnotherSizeIsReportedAsSuch() {
        SudokuPuzzle nine = Puzzles.of(9, SudokuBand.EASY, 1);
        SudokuPuzzle four = Puzzles.of(4, SudokuBand.EASY, 1);
        InkImage nineImg = InkImage.of(SudokuRenderer.problem(nine, SudokuStyle.standard(512)));
        InkImage fourImg = InkImage.of(SudokuRenderer.problem(four, SudokuStyle.standard(512)));

        assertThatThrownBy(() -> GridLocator.locate(nineImg, 4))
                .isInstanceOfSatisfying(GridException.class, e -> assertThat(e.kind()).isEqualTo(GridException.Kind.WRONG_SIZE))
                .hasMessage("the grid has 9 columns, expected 4");
        assertThatThrownBy(() -> GridLocator.locate(fourImg, 9))
                .isInstanceOfSatisfying(GridException.class, e -> assertThat(e.kind()).isEqualTo(GridException.Kind.WRONG_SIZE))
                .hasMessage("the grid has 4 columns, expected 9");
    }

    @Test
    void pagesWithoutAGridAreRefused() {
        assertNotFound(RgbImage.filled(400, 300, 0xFFFFFF));
        assertNotFound(drawn(g -> {
            g.setFont(OutputLook.face("LiberationSans-Bold").deriveFont(40f));
            g.drawString("8 3 5 1 9", 40, 150); // digits, but no ruling
        }));
        assertNotFound(drawn(g -> g.fillRect(50, 50, 300, 200))); // a solid block
        assertNotFound(drawn(g -> {
            g.drawRect(40, 40, 300, 200); // a bare frame
            g.drawRect(41, 41, 298, 198);
        }));
        assertNotFound(drawn(g -> {
            for (int x : new int[] {40, 60, 130, 150, 290, 340}) { // ruled, but unevenly: no lattice
                g.fillRect(x, 40, 2, 220);
            }
            g.fillRect(40, 40, 302, 2);
            g.fillRect(40, 258, 302, 2);
        }));
    }

    private static void assertNotFound(RgbImage img) {
        assertThatThrownBy(() -> GridLocator.locate(InkImage.of(img), 4))
                .isInstanceOfSatisfying(GridException.class, e -> assertThat(e.kind()).isEqualTo(GridException.Kind.NOT_FOUND))
                .hasMessageStartingWith("no grid found");
    }

    private static RgbImage drawn(java.util.function.Consumer<Graphics2D> painter) {
        return drawn(400, 300, painter);
    }

    private static RgbImage drawn(int w, int h, java.util.function.Consumer<Graphics2D> painter) {
        BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = b.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        g.setColor(Color.BLACK);
        painter.accept(g);
        g.dispose();
        return RgbImage.of(b);
    }
}
