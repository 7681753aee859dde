package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.RgbImage;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Tag;

/**
 * Every band x every fault x every drawing style: the image pipeline's metrics and gated overall
 * against the truth known from how the answer was drawn (Scenario), never from the evaluator.
 */
@Tag("unit")
class MazeImageScoringTest {

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (MazeBand band : MazeBand.values()) {
            for (Fault fault : Fault.values()) {
                Scenario sc = MazeFixtures.scenario(band, fault, 11);
                for (OutputStyle style : OutputStyle.ALL) {
                    out.add(Arguments.of(band, fault, style, sc));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void metricsMatchTheKnownTruth(MazeBand band, Fault fault, OutputStyle style, Scenario sc) throws Exception {
        MazeProblem p = sc.problem();
        assertThat(band.contains(p.rows(), p.cols())).isTrue();
        MazeReference ref = referenceFromImages(p);
        RgbImage drawn = ImageDecoder.decode(OutputRenderer.encode(OutputRenderer.image(sc, style), style),
                ImageDecoder.Limits.DEFAULT);
        MazeMetrics m = MazeImageScorer.score(ref, MazeCanvas.of(drawn, p.rows(), p.cols()));

        // layout: untouched mazes match; erased walls (block IoU known from the drawing) do not
        if (fault == Fault.MAZE_ALTERED) {
            assertThat(sc.blockLayoutIou()).isLessThan(0.75);
            assertThat(m.layoutIou()).isLessThanOrEqualTo(0.8).isCloseTo(sc.blockLayoutIou(), within(0.08));
            assertThat(m.mazeChanged()).isTrue();
        } else {
            assertThat(m.layoutIou()).isGreaterThan(0.9);
            assertThat(m.mazeChanged()).isEqualTo(fault == Fault.TARGET_MOVED || fault == Fault.TARGET_MOVED_PAST);
        }
        // markers: a moved target is at least two cells away (moved past: at least one), a moved start one
        assertThat(m.startOffsetPx()).isNotNull();
        assertThat(m.startMoved()).isEqualTo(fault == Fault.START_MOVED);
        assertThat(m.targetMoved()).isEqualTo(fault == Fault.TARGET_MOVED || fault == Fault.TARGET_MOVED_PAST);
        if (fault == Fault.START_MOVED) {
            assertThat(m.startOffsetPx()).isGreaterThan(blockPx(style, p) * 1.5);
        } else {
            assertThat(m.startOffsetPx()).isLessThan(blockPx(style, p) * 0.5);
        }
        if (fault == Fault.TARGET_MOVED) {
            assertThat(m.targetOffsetPx()).isGreaterThan(blockPx(style, p) * 3);
        } else if (fault == Fault.TARGET_MOVED_PAST) {
            assertThat(m.targetOffsetPx()).isGreaterThan(blockPx(style, p) * 1.5);
        } else {
            assertThat(m.targetOffsetPx()).isLessThan(blockPx(style, p) * 0.5);
        }
        // wall crossing exactly where the drawn route steps through walls
        assertThat(m.crossWall()).isEqualTo(sc.wallsCrossed() > 0);
        if (sc.wallsCrossed() == 0) {
            assertThat(m.crossingRatio()).isLessThan(0.002);
        }
        // cell-level target achievement: the share of solution cells the route visits
        assertThat(m.targetAchievement()).isCloseTo(sc.solutionCoverage(), within(1.5 / p.solution().size() + 1e-9));
        if (fault == Fault.NO_PATH) {
            assertThat(m.targetAchievement()).isZero();
            assertThat(m.pathRecall()).isZero();
        }
        // length in blocks and reflection (a stroke ending at a cell centre may half-cover its last block)
        assertThat(m.pathLengthRatio()).isCloseTo(sc.blockRatio(), within(1.5 / (2 * p.solution().size() - 3) + 0.02));
        assertThat(m.pathHasLoop()).isFalse();
        assertThat(m.excessiveReflection()).isEqualTo(sc.blockRatio() > MazeThresholds.REFLECTION_LENGTH_RATIO);
        assertThat(m.actionReflection()).isNull();
        assertThat(m.framesAnalyzed()).isNull();
        // path overlap: the correct answer overlaps well, answers that wander do not
        if (fault == Fault.CORRECT || fault == Fault.MAZE_ALTERED) {
            assertThat(m.pathPrecision()).isGreaterThan(0.9);
            assertThat(m.pathRecall()).isGreaterThan(0.7);
        }
        if (fault == Fault.DETOUR) {
            assertThat(m.pathPrecision()).isLessThan(0.6);
        }
        // the gate: only the correct answer passes
        Double overall = MazeEvaluatorItems.gate("image", m.asMap()).primary();
        assertThat(overall).isEqualTo(fault == Fault.CORRECT ? 1.0 : 0.0);
    }

    static MazeReference referenceFromImages(MazeProblem p) throws MazeReferenceException {
        return MazeReference.build(null, null,
                MazeCanvas.of(MazeRenderer.problem(p, 512, 512), p.rows(), p.cols()),
                MazeCanvas.of(MazeRenderer.solution(p, 512, 512), p.rows(), p.cols()), p.rows(), p.cols());
    }

    static double blockPx(OutputStyle s, MazeProblem p) {
        return OutputRenderer.geometry(s, p.rows(), p.cols()).block();
    }
}
