package io.mmgr.stream.tasks.arc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.vision.RgbImage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Real ARC-AGI answers drawn in many styles are read back cell for cell; wrong answers are read as
 * drawn, so the comparison catches them. Each test pair gets a few styles, rotated by its position,
 * so every style meets many tasks without rendering all combinations.
 */
@Tag("unit")
class ArcGridDecoderTest {

    private static final List<OutputStyle> LINES = OutputStyle.ALL.stream()
            .filter(s -> s.grid().lineWidth() > 0 && s.scaleX() >= 1).toList();
    private static final List<OutputStyle> NO_LINES = OutputStyle.ALL.stream()
            .filter(s -> s.grid().lineWidth() == 0).toList();

    private static int[] dims(ArcGrid g) {
        return new int[] {g.rows(), g.cols()};
    }

    @Test
    void readsRealAnswersInEveryStyle() throws Exception {
        List<Object[]> pairs = ArcFixtures.testPairs();
        assertThat(pairs).hasSizeGreaterThan(100);
        List<String> misses = new ArrayList<>();
        for (int p = 0; p < pairs.size(); p++) {
            ArcTask task = (ArcTask) pairs.get(p)[0];
            ArcGrid truth = task.test((int) pairs.get(p)[1]).output();
            for (int k = 0; k < 2; k++) {
                OutputStyle style = OutputStyle.ALL.get((p + 5 * k) % OutputStyle.ALL.size());
                ArcGridDecoder.Decoded d = ArcGridDecoder.decode(style.render(truth.toArray()), null, dims(truth));
                if (!Arrays.deepEquals(d.cells(), truth.toArray())) {
                    misses.add(task.id() + " in " + style + ": read " + d.cellsText());
                }
            }
        }
        assertThat(misses).isEmpty();
    }

    @Test
    void gridLinesNeedNoHintAboutTheSize() throws Exception {
        List<Object[]> pairs = ArcFixtures.testPairs();
        for (int p = 0; p < pairs.size(); p += 3) {
            ArcGrid truth = ((ArcTask) pairs.get(p)[0]).test((int) pairs.get(p)[1]).output();
            OutputStyle style = LINES.get(p % LINES.size());
            ArcGridDecoder.Decoded d = ArcGridDecoder.decode(style.render(truth.toArray()), null, null);
            assertThat(d.cells()).as("%s in %s", pairs.get(p)[0], style).isDeepEqualTo(truth.toArray());
        }
    }

    @Test
    void wrongAnswersWithGridLinesAreReadAsDrawn() throws Exception {
        List<Object[]> pairs = ArcFixtures.testPairs();
        int checked = 0;
        for (int p = 0; p < pairs.size(); p++) {
            ArcGrid truth = ((ArcTask) pairs.get(p)[0]).test((int) pairs.get(p)[1]).output();
            for (int k = 0; k < 2; k++) {
                ArcFault fault = ArcFault.values()[(p + k * 2) % ArcFault.values().length];
                var drawn = fault.apply(truth.toArray());
                if (drawn.isEmpty()) {
                    continue;
                }
                OutputStyle style = LINES.get((p + k) % LINES.size());
                ArcGridDecoder.Decoded d = ArcGridDecoder.decode(style.render(drawn.get()), null, dims(truth));
                assertThat(d.cells()).as("%s %s in %s", pairs.get(p)[0], fault, style).isDeepEqualTo(drawn.get());
                ArcComparison cmp = ArcComparison.of(d.cells(), truth);
                assertThat(cmp.metrics().get(ArcMetrics.VALID_SOLUTION)).isZero();
                boolean sameSize = drawn.get().length == truth.rows() && drawn.get()[0].length == truth.cols();
                assertThat(cmp.metrics().get(ArcMetrics.GRID_INTEGRITY)).isEqualTo(sameSize ? 1.0 : 0.0);
                if (sameSize) {
                    assertThat(cmp.cellAccuracy()).isCloseTo(1.0 - differing(drawn.get(), truth) / (double) (truth.rows() * truth.cols()),
                            org.assertj.core.data.Offset.offset(1e-12));
                } else {
                    assertThat(cmp.cellAccuracy()).isNull();
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(180);
    }

    /**
     * Without grid lines an all-one-colour grid one column short is the same picture as the full grid
     * with wider cells; such readings are inherently ambiguous. Every other wrong answer is caught, and
     * faults that keep the size are read exactly.
     */
    @Test
    void wrongAnswersWithoutGridLinesAreCaught() throws Exception {
        List<Object[]> pairs = ArcFixtures.testPairs();
        int faults = 0;
        List<String> uncaught = new ArrayList<>();
        for (int p = 0; p < pairs.size(); p++) {
            ArcGrid truth = ((ArcTask) pairs.get(p)[0]).test((int) pairs.get(p)[1]).output();
            OutputStyle style = NO_LINES.get(p % NO_LINES.size());
            for (ArcFault fault : ArcFault.values()) {
                var drawn = fault.apply(truth.toArray());
                if (drawn.isEmpty()) {
                    continue;
                }
                faults++;
                ArcGridDecoder.Decoded d = ArcGridDecoder.decode(style.render(drawn.get()), null, dims(truth));
                if (Set.of(ArcFault.WRONG_CELL, ArcFault.SWAPPED_COLOUR, ArcFault.SHIFTED).contains(fault)) {
                    assertThat(d.cells()).as("%s %s in %s", pairs.get(p)[0], fault, style).isDeepEqualTo(drawn.get());
                }
                if (ArcComparison.of(d.cells(), truth).exact()) {
                    uncaught.add(((ArcTask) pairs.get(p)[0]).id() + " " + fault);
                }
            }
        }
        assertThat(faults).isGreaterThan(400);
        assertThat(uncaught.size()).as("uncaught: %s", uncaught).isLessThanOrEqualTo(faults / 50);
        assertThat(uncaught).allMatch(u -> u.endsWith(ArcFault.MISSING_COLUMN.name()) || u.endsWith(ArcFault.EXTRA_ROW.name()));
    }

    @Test
    void theExpectedSizeOnlyBreaksTiesThatThePixelsLeaveOpen() throws Exception {
        int[][] small = {{1, 2, 0}, {0, 3, 4}, {5, 0, 6}};
        int[][] upscaled = new int[6][6];
        for (int r = 0; r < 6; r++) {
            for (int c = 0; c < 6; c++) {
                upscaled[r][c] = small[r / 2][c / 2];
            }
        }
        OutputStyle noLines = NO_LINES.get(0);
        OutputStyle lines = LINES.get(0);
        // without lines a 6x6 of 2x2 blocks is the 3x3 picture: the expected size decides, both ways
        assertThat(ArcGridDecoder.decode(noLines.render(upscaled), null, new int[] {6, 6}).cells()).isDeepEqualTo(upscaled);
        assertThat(ArcGridDecoder.decode(noLines.render(upscaled), null, new int[] {3, 3}).cells()).isDeepEqualTo(small);
        assertThat(ArcGridDecoder.decode(noLines.render(upscaled), null, null).cells()).isDeepEqualTo(small);
        // with lines the drawn grid is what counts, whatever size is expected
        assertThat(ArcGridDecoder.decode(lines.render(small), null, new int[] {6, 6}).cells()).isDeepEqualTo(small);
        assertThat(ArcGridDecoder.decode(lines.render(upscaled), null, new int[] {3, 3}).cells()).isDeepEqualTo(upscaled);
    }

    /** Black lines a fifth of the pitch with a border, JPEG 80: in a 1- or 2-cell strip each line is ~3 px. */
    private static final ArcLook THICK_JPEG = new ArcLook("thick-jpeg80", 512, 512, -0.2, 0x000000, true, 0.05,
            0xFFFFFF, ArcPalette.CLASSIC, true, 1, ArcLook.Decor.NONE, io.mmgr.stream.vision.Degradation.jpeg(80));

    @Test
    void thickLinedStripsReadAsSquareCellsWithoutASizeHint() throws Exception {
        java.util.Random random = new java.util.Random(13);
        int[][] sizes = {{28, 2}, {2, 28}, {1, 30}, {30, 1}, {26, 1}, {2, 26}};
        List<String> misses = new ArrayList<>();
        for (int[] size : sizes) {
            for (int k = 0; k < 3; k++) {
                int[][] cells = new int[size[0]][size[1]];
                for (int[] row : cells) {
                    // no black cells: they would merge with the lines and widen them
                    Arrays.setAll(row, c -> 1 + random.nextInt(9));
                }
                String what = size[0] + "x" + size[1] + " #" + k;
                try {
                    ArcGridDecoder.Decoded d = ArcGridDecoder.decode(THICK_JPEG.render(cells), null, null);
                    if (!Arrays.deepEquals(d.cells(), cells)) {
                        misses.add(what + " read " + d.rows() + "x" + d.cols() + " " + d.cellsText());
                    }
                } catch (ArcDecodeException e) {
                    misses.add(what + ": " + e.getMessage());
                }
            }
        }
        assertThat(misses).isEmpty();
    }

    @Test
    void thickLinesMergedWithCellsOfTheirColourAllRoundStillFixTheLattice() throws Exception {
        // mostly black cells under black lines: the narrowest black band is a line, a cell and a line
        int[][] five = new int[5][5];
        five[1][1] = five[1][3] = five[3][1] = five[3][3] = 1;
        int[][] seven = new int[7][7];
        seven[2][4] = 3;
        seven[5][1] = 6;
        seven[0][6] = 2;
        for (int[][] cells : List.of(five, seven)) {
            RgbImage img = THICK_JPEG.render(cells);
            assertThat(ArcGridDecoder.decode(img, null, null).cells()).isDeepEqualTo(cells);
            assertThat(ArcGridDecoder.decode(img, null, new int[] {cells.length, cells.length}).cells())
                    .isDeepEqualTo(cells);
        }
        // without lines, one 2x1 block of colour on black cells would fit lines 15 px wide across and
        // 10 px down (11x3 cells): lines are one width both ways, so the drawn 15x8 stands
        ArcLook noLines = new ArcLook("no-lines", 450, 450, 0, 0, false, 0, 0xFFFFFF, ArcPalette.ARC_PRIZE, true, 1,
                ArcLook.Decor.NONE, io.mmgr.stream.vision.Degradation.NONE);
        int[][] block = new int[15][8];
        block[11][3] = block[11][4] = 6;
        assertThat(ArcGridDecoder.decode(noLines.render(block), null, new int[] {15, 8}).cells()).isDeepEqualTo(block);
    }

    /**
     * The answer of the report: 23x23, mostly black, square cells split by white gaps on a white page, as a
     * small thumbnail whose 2-3 px gaps are over a quarter of a cell. It read as 1x1 (the board cut at its
     * first gap); with and without the size hint it reads as drawn, and a wrong cell and a missing row show.
     */
    @Test
    void aMostlyBlackBoardWithWhiteGapsOnWhiteReadsWhole() throws Exception {
        java.util.Random random = new java.util.Random(23);
        int[][] truth = new int[23][23];
        for (int[] row : truth) {
            for (int c = 0; c < row.length; c++) {
                row[c] = random.nextDouble() < 0.08 ? 1 + random.nextInt(9) : 0;
            }
        }
        int[][] wrongCell = ArcFault.WRONG_CELL.apply(truth).orElseThrow();
        int[][] shortOne = Arrays.copyOf(truth, 22);
        for (double gap : new double[] {2, 3}) {
            ArcLook look = new ArcLook("thumbnail", 260, 260, gap, 0xFFFFFF, false, 0.03, 0xFFFFFF, ArcPalette.CLASSIC,
                    false, 1, ArcLook.Decor.NONE, io.mmgr.stream.vision.Degradation.NONE);
            for (int[][] drawn : List.of(truth, wrongCell, shortOne)) {
                for (int[] hint : new int[][] {null, {23, 23}}) {
                    ArcGridDecoder.Decoded d = ArcGridDecoder.decode(look.render(drawn), null, hint);
                    assertThat(d.cells()).as("gap %s, %d rows, hint %s", gap, drawn.length, Arrays.toString(hint))
                            .isDeepEqualTo(drawn);
                }
            }
        }
        // the lattice test itself: three runs of one cell and two gaps of one width join, a title apart does not
        assertThat(ArcGridDecoder.latticeGaps(List.of(new int[] {0, 7}, new int[] {10, 17}, new int[] {20, 28})))
                .containsExactly(true, true);
        assertThat(ArcGridDecoder.latticeGaps(List.of(new int[] {0, 12}, new int[] {22, 29}, new int[] {32, 39})))
                .containsExactly(false, false);
        assertThat(ArcGridDecoder.latticeGaps(List.of(new int[] {0, 7}, new int[] {10, 17}))).containsExactly(false);
    }

    @Test
    void aColourOutsideThePaletteIsUnreadable() throws Exception {
        int[][] cells = {{1, 1, 2}, {3, 4, 5}};
        RgbImage img = ArcRenderer.grid(cells, new ArcStyle(20, 1, 0x555555, true, 12, 0xEEEEEE, ArcPalette.CLASSIC));
        ArcRenderer.fill(img, 12 + 1 + 21, 12 + 1, 20, 20, 0xFFFFFF); // cell (0, 1) painted white
        ArcGridDecoder.Decoded d = ArcGridDecoder.decode(img, null, new int[] {2, 3});
        assertThat(d.cells()).isDeepEqualTo(new int[][] {{1, ArcGridDecoder.UNREADABLE, 2}, {3, 4, 5}});
    }

    @Test
    void readsOnlyTheAnswerRegionOfAPuzzleCanvas() throws Exception {
        ArcTask task = ArcFixtures.tasks().get(7);
        ArcRenderer.Puzzle solved = ArcRenderer.puzzle(task, 0, true);
        ArcGridDecoder.Decoded d = ArcGridDecoder.decode(solved.image(), solved.answerRegion(), null);
        assertThat(d.cells()).isDeepEqualTo(task.test(0).output().toArray());
        assertThat(d.bounds().x()).isGreaterThanOrEqualTo(solved.answerRegion().x());

        ArcRenderer.Puzzle unsolved = ArcRenderer.puzzle(task, 0, false);
        assertThatThrownBy(() -> ArcGridDecoder.decode(unsolved.image(), unsolved.answerRegion(), null))
                .isInstanceOf(ArcDecodeException.class).hasMessageContaining("background");
    }

    @Test
    void blankOrTinyImagesAreRefusedWithAReason() {
        assertThatThrownBy(() -> ArcGridDecoder.decode(RgbImage.filled(200, 120, 0xFFFFFF), null, null))
                .isInstanceOf(ArcDecodeException.class).hasMessageContaining("no grid found");
        assertThatThrownBy(() -> ArcGridDecoder.decode(RgbImage.filled(2, 2, 0), null, null))
                .isInstanceOf(ArcDecodeException.class).hasMessageContaining("2x2");
    }

    private static int differing(int[][] a, ArcGrid b) {
        int n = 0;
        for (int r = 0; r < b.rows(); r++) {
            for (int c = 0; c < b.cols(); c++) {
                n += a[r][c] != b.get(r, c) ? 1 : 0;
            }
        }
        return n;
    }
}
