package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Mazes given as structure in maze-dataset's names: read back as the lattice and solution they were
 * written from, placed as the picture shows them (any of the eight orientations of a square maze),
 * and refused, with the fits tried, when the picture shows another maze.
 */
@Tag("unit")
class MazeStructureTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The problem as maze-dataset's {@code SolvedMaze} fields would give it. */
    static ObjectNode json(MazeProblem p) {
        return MazeStructure.of(p).toJson();
    }

    static MazeProblem problem(int rows, int cols, long seed) {
        return MazeProblem.generate(rows, cols, MazeAlgorithm.values()[0], Placement.values()[0], new Random(seed));
    }

    @Test
    void readsTheLatticeAndSolutionItWasWrittenFrom() {
        MazeProblem p = problem(5, 7, 3);
        MazeStructure s = MazeStructure.parse(json(p));
        assertThat(s.lattice()).isEqualTo(p.lattice());
        assertThat(s.solution()).isEqualTo(p.solution());
        assertThat(s.solutionPath()).isEqualTo(p.solutionAsLists());
    }

    @Test
    void badStructureIsRefusedNamingTheField() {
        MazeProblem p = problem(4, 4, 5);
        ObjectNode noShape = json(p);
        noShape.remove("grid_shape");
        assertThatThrownBy(() -> MazeStructure.parse(noShape)).hasMessageContaining("'grid_shape'");
        ObjectNode shortPlane = json(p);
        ((ArrayNode) shortPlane.get("connection_list").get(1)).remove(0);
        assertThatThrownBy(() -> MazeStructure.parse(shortPlane)).hasMessageContaining("'connection_list'[1] must have 4 rows");
        ObjectNode outward = json(p);
        ((ArrayNode) outward.get("connection_list").get(1).get(0)).set(3, JSON.getNodeFactory().booleanNode(true));
        assertThatThrownBy(() -> MazeStructure.parse(outward)).hasMessageContaining("outside the grid");
        ObjectNode otherStart = json(p);
        otherStart.putArray("start_pos").add(p.target().row()).add(p.target().col());
        assertThatThrownBy(() -> MazeStructure.parse(otherStart)).hasMessageContaining("'start_pos'")
                .hasMessageContaining("first cell");
        ObjectNode notBool = json(p);
        ((ArrayNode) notBool.get("connection_list").get(0).get(0)).set(0, JSON.getNodeFactory().textNode("yes"));
        assertThatThrownBy(() -> MazeStructure.parse(notBool)).hasMessageContaining("must be a boolean");
    }

    @ParameterizedTest
    @EnumSource(MazeOrientation.class)
    void aSquareMazeIsPlacedAsTheImageShowsIt(MazeOrientation shown) throws Exception {
        MazeProblem p = problem(6, 6, 11 + shown.ordinal());
        MazeProblem drawn = drawnAs(p, shown);
        MazeReference ref = reference(p);
        assertThat(ref.unplaced()).isTrue();
        MazeCanvas picture = MazeCanvas.of(OutputRenderer.solution(drawn, OutputStyle.CLEAN), 6, 6);
        MazeReference placed = ref.orientedTo(picture, picture.start(), picture.target(), "output image");
        assertThat(placed.lattice()).isEqualTo(drawn.lattice());
        assertThat(placed.solution()).isEqualTo(drawn.solution());
        // a perfect answer in that orientation passes the gate
        MazeMetrics m = MazeImageScorer.score(ref, picture);
        assertThat(MazeEvaluatorItems.gate("image", m.asMap()).primary()).isEqualTo(1.0);
    }

    @Test
    void aNonSquareMazeWithRowZeroAtTheBottomScoresAsDrawn() throws Exception {
        MazeProblem p = problem(4, 7, 21);
        MazeProblem drawn = drawnAs(p, MazeOrientation.ROW_ZERO_AT_BOTTOM);
        MazeCanvas picture = MazeCanvas.of(OutputRenderer.solution(drawn, OutputStyle.THIN), 4, 7);
        MazeReference placed = reference(p).orientedTo(picture, picture.start(), picture.target(), "output image");
        assertThat(placed.orientation()).isEqualTo(MazeOrientation.ROW_ZERO_AT_BOTTOM);
        assertThat(MazeEvaluatorItems.gate("image", MazeImageScorer.score(reference(p), picture).asMap()).primary()).isEqualTo(1.0);
    }

    @Test
    void anotherMazeFitsNoOrientationAndIsRefused() throws Exception {
        MazeProblem given = problem(7, 7, 31);
        MazeProblem other = problem(7, 7, 32);
        MazeCanvas picture = MazeCanvas.of(OutputRenderer.solution(other, OutputStyle.CLEAN), 7, 7);
        assertThatThrownBy(() -> MazeImageScorer.score(reference(given), picture))
                .isInstanceOf(MazeReferenceException.class)
                .hasMessageContaining("does not show the given maze in any orientation")
                .hasMessageContaining("row_zero_at_bottom");
    }

    @Test
    void aMazeWithWallsErasedStillFitsAndIsScoredAsChanged() throws Exception {
        Scenario altered = MazeFixtures.scenario(MazeBand.MEDIUM, Fault.MAZE_ALTERED, 3);
        MazeProblem p = altered.problem();
        MazeCanvas picture = MazeCanvas.of(OutputRenderer.image(altered, OutputStyle.CLEAN), p.rows(), p.cols());
        MazeMetrics m = MazeImageScorer.score(reference(p), picture);
        assertThat(m.mazeChanged()).isTrue();
        assertThat(MazeEvaluatorItems.gate("image", m.asMap()).primary()).isEqualTo(0.0);
    }

    private static boolean[][] openInside(int rows, int cols) {
        boolean[][] open = new boolean[2 * rows + 1][2 * cols + 1];
        for (int r = 1; r < 2 * rows; r++) {
            for (int c = 1; c < 2 * cols; c++) {
                open[r][c] = true;
            }
        }
        return open;
    }

    static MazeReference reference(MazeProblem p) throws MazeReferenceException {
        MazeStructure s = MazeStructure.parse((JsonNode) json(p));
        return MazeReference.build(s.lattice(), s.solution(), null, null, s.rows(), s.cols());
    }

    static MazeProblem drawnAs(MazeProblem p, MazeOrientation o) {
        List<Cell> sol = o.apply(p.solution(), p.rows(), p.cols());
        return new MazeProblem(o.apply(p.lattice()), sol.get(0), sol.get(sol.size() - 1), sol, p.algorithm(), p.placement());
    }
}
