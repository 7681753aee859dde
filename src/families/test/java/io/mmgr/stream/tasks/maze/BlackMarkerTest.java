package io.mmgr.stream.tasks.maze;

import static io.mmgr.stream.tasks.maze.MazeThresholds.BLOCK;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.vision.Mask;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A black marker is read from the wall-class pixels where the structure has no wall, in every video
 * style (block lattice and thin walls): on its cell, halfway along an open connection, straddling a wall
 * it slides through (then the wall line under it is its own too); a maze with no marker shows none, and
 * a wall drawn into an open connection is not one.
 */
@Tag("unit")
class BlackMarkerTest {

    private static final int WHITE = MazePalette.OPEN_RGB;
    private static final int BLACK = MazePalette.WALL_RGB;

    @Test
    void aBlackAgentIsFoundOnItsCellAndAlongAnOpenConnection() {
        for (OutputStyle style : MazeStyles.VIDEO) {
            MazeProblem p = problem(style);
            List<Cell> sol = p.solution();
            Scenario sc = scenario(p, p.lattice(), sol);
            // on the start, with the structure placed or before it is (cells alone)
            MazeCanvas atStart = canvas(sc, style, 0.0, BLACK);
            double[] start = MazeReference.blockCentre(sol.get(0));
            assertThat(distance(BlackMarker.in(atStart.walls(), p.lattice()), start)).as(style + " on its cell")
                    .isLessThan(MazeThresholds.MARKER_TOLERANCE);
            assertThat(distance(BlackMarker.in(atStart.walls(), null), start)).as(style + " on its cell, unplaced")
                    .isLessThan(MazeThresholds.MARKER_TOLERANCE);
            // halfway to the second cell, over the open connection between them
            MazeCanvas halfway = canvas(sc, style, 0.5 / (sol.size() - 1), BLACK);
            double[] second = MazeReference.blockCentre(sol.get(1));
            double[] middle = {(start[0] + second[0]) / 2, (start[1] + second[1]) / 2};
            assertThat(distance(BlackMarker.in(halfway.walls(), p.lattice()), middle)).as(style + " halfway")
                    .isLessThan(BLOCK / 2.0);
        }
    }

    @Test
    void aMazeWithoutABlackMarkerShowsNoneEvenWithAWallDrawnIntoAPassage() {
        for (OutputStyle style : MazeStyles.VIDEO) {
            MazeProblem p = problem(style);
            Scenario plain = scenario(p, p.lattice(), p.solution());
            assertThat(BlackMarker.in(canvas(plain, style, 0.0, WHITE).walls(), p.lattice()).count())
                    .as(style + ": no marker, none read").isZero();
            // the connection between the solution's first two cells walled up in the drawing
            Cell a = p.solution().get(0);
            Cell b = p.solution().get(1);
            MazeLattice walled = withBlock(p.lattice(), a.latticeRow() + b.row() - a.row(), a.latticeCol() + b.col() - a.col(), false);
            Scenario drawn = scenario(p, walled, p.solution());
            assertThat(BlackMarker.in(canvas(drawn, style, 0.0, WHITE).walls(), p.lattice()).count())
                    .as(style + ": a wall drawn into a passage is no marker").isZero();
        }
    }

    @Test
    void aBlackAgentSlidingThroughAThinWallCoversTheLineBetweenItsHalves() {
        for (OutputStyle style : List.of(MazeStyles.VIDEO.get(1), MazeStyles.VIDEO.get(2))) {
            MazeProblem p = problem(style);
            // two neighbouring cells with a wall between them
            Cell a = null;
            Cell b = null;
            for (int r = 0; r < p.rows() && a == null; r++) {
                for (int c = 0; c + 1 < p.cols() && a == null; c++) {
                    if (!p.lattice().isOpen(2 * r + 1, 2 * c + 2)) {
                        a = new Cell(r, c);
                        b = new Cell(r, c + 1);
                    }
                }
            }
            assertThat(a).as(style + ": a wall between neighbours").isNotNull();
            Scenario sc = scenario(p, p.lattice(), List.of(a, b));
            Mask marker = BlackMarker.in(canvas(sc, style, 0.5, BLACK).walls(), p.lattice()).largestComponent();
            int x0 = (2 * a.col() + 2) * BLOCK;
            int y0 = (2 * a.row() + 1) * BLOCK;
            assertThat(marker.countIn(x0, y0, x0 + BLOCK, y0 + BLOCK)).as(style + ": the wall line under it").isPositive();
            // one blob across the wall, its centre on the wall between the two cells
            double[] onWall = {x0 + BLOCK / 2.0, y0 + BLOCK / 2.0};
            assertThat(distance(marker, onWall)).as(style + " centred on the wall").isLessThan(BLOCK / 2.0);
        }
    }

    private static MazeProblem problem(OutputStyle style) {
        return MazeProblem.generate(5, 5, MazeAlgorithm.values()[0], Placement.values()[0], new Random(style.name().hashCode()));
    }

    private static Scenario scenario(MazeProblem p, MazeLattice drawn, List<Cell> route) {
        return new Scenario(Fault.CORRECT, p, drawn, p.start(), p.target(), route, 0, 0, 1.0);
    }

    private static MazeCanvas canvas(Scenario sc, OutputStyle style, double progress, int agentRgb) {
        return MazeCanvas.of(OutputRenderer.frame(sc, style, progress, agentRgb, MazePalette.TARGET_RGB),
                sc.problem().rows(), sc.problem().cols());
    }

    private static MazeLattice withBlock(MazeLattice l, int latticeRow, int latticeCol, boolean open) {
        boolean[][] blocks = new boolean[l.latticeRows()][l.latticeCols()];
        for (int r = 0; r < blocks.length; r++) {
            for (int c = 0; c < blocks[0].length; c++) {
                blocks[r][c] = l.isOpen(r, c);
            }
        }
        blocks[latticeRow][latticeCol] = open;
        return MazeLattice.unchecked(blocks, l.rows(), l.cols());
    }

    private static double distance(Mask marker, double[] expected) {
        double[] c = marker.largestComponent().centroid();
        assertThat(c).as("a marker read").isNotNull();
        return Math.hypot(c[0] - expected[0], c[1] - expected[1]);
    }
}
