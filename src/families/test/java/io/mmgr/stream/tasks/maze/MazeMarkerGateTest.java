package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Tag;

/**
 * Issue 13's moved target: an answer that moves the red square and draws (or walks) its path to the
 * new place used to score 1 on the pixel gate. The seed's Layout Matching also holds the start and
 * target centroids to a marker tolerance, so through the evaluator and the task gate, as the stream
 * scores a sample, such answers fail on {@code target_moved} (or {@code start_moved}) while the right
 * answer in the same style passes. Videos: the target is checked in every frame that shows it (one
 * moved half way fails, one hidden under the agent at the end does not) and the start in the first.
 */
@Tag("unit")
class MazeMarkerGateTest {

    /** Markers moved while the route still runs through the whole solution (TARGET_MOVED leads the route away from it). */
    static final List<Fault> MOVED_ALONG = List.of(Fault.TARGET_MOVED_PAST, Fault.START_MOVED);
    static final OutputStyle STILL = OutputStyle.blocks("markers-still", 512, 512, 0.03, 0.4, 0.8);
    static final OutputStyle VIDEO = OutputStyle.blocks("markers-video", 320, 320, 0.03, 0.3, 0.8);

    @TempDir
    static Path dir;
    static MazeProblem problem;
    static BenchmarkItem item;

    @BeforeAll
    static void item() throws Exception {
        // a maze where each moved marker leaves the rest of the answer right: the whole solution covered,
        // within the 1.3x length rule, so only the marker checks can fail it
        problem = MazeFixtures.scenario(MazeBand.MEDIUM, Fault.TARGET_MOVED, 3, sc -> MOVED_ALONG.stream().allMatch(f ->
                Scenario.of(f, sc.problem(), new Random(1)).filter(m -> m.solutionCoverage() == 1.0
                        && m.blockRatio() <= 1.25 && m.stepRatio() <= 1.25).isPresent())).problem();
        item = MazeEvaluatorItems.imagesOnly(dir, "markers", problem, STILL);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Fault.class, names = {"CORRECT", "TARGET_MOVED", "TARGET_MOVED_PAST", "START_MOVED"})
    void stillAnswerWithAMovedMarkerFailsTheGate(Fault fault) throws Exception {
        Scenario sc = Scenario.of(fault, problem, new Random(1)).orElseThrow();
        // the moved answers are otherwise complete: the route is unbroken, crosses no wall and covers the solution
        assertThat(sc.wallsCrossed()).isZero();
        Path out = Files.write(dir.resolve("still-" + fault + ".png"), OutputRenderer.encode(OutputRenderer.image(sc, STILL), STILL));
        EvaluationOutcome outcome = MazeEvaluatorItems.evaluate(new MazePixelEvaluator(), item, out, "nano-banana");
        GateResult gate = MazeEvaluatorItems.gate("image", outcome);
        expect(fault, outcome, gate);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Fault.class, names = {"CORRECT", "TARGET_MOVED", "TARGET_MOVED_PAST", "START_MOVED"})
    void videoWithAMovedMarkerFailsTheGate(Fault fault) throws Exception {
        Scenario sc = Scenario.of(fault, problem, new Random(1)).orElseThrow();
        Path out = dir.resolve("video-" + fault + ".mp4");
        OutputRenderer.video(sc, VIDEO, frames(sc), VideoEncoder.Container.MP4, out);
        EvaluationOutcome outcome = MazeEvaluatorItems.evaluate(new MazePixelEvaluator(), item, out, "wan-2.2");
        expect(fault, outcome, MazeEvaluatorItems.gate("video", outcome));
    }

    /**
     * The agent walks the right route to the right cell, but half way through the video the red
     * square jumps two or more cells away: only the every-frame target check can catch it.
     */
    @Test
    void targetMovedHalfWayThroughAVideoFailsTheGate() throws Exception {
        Scenario right = Scenario.of(Fault.CORRECT, problem, new Random(1)).orElseThrow();
        Cell elsewhere = Scenario.of(Fault.TARGET_MOVED, problem, new Random(1)).orElseThrow().drawnTarget();
        assertThat(elsewhere.manhattan(problem.target())).isGreaterThanOrEqualTo(2);
        Scenario dragged = new Scenario(right.fault(), problem, right.drawnLattice(), right.drawnStart(), elsewhere,
                right.route(), right.wallsCrossed(), right.solutionCellsVisited(), right.blockLayoutIou());
        int frames = frames(right);
        Path out = dir.resolve("video-target-dragged.mp4");
        Path control = dir.resolve("video-target-kept.mp4");
        try (VideoEncoder moved = VideoEncoder.open(out, VIDEO.width(), VIDEO.height(), 24, VideoEncoder.Container.MP4);
             VideoEncoder kept = VideoEncoder.open(control, VIDEO.width(), VIDEO.height(), 24, VideoEncoder.Container.MP4)) {
            for (int f = 0; f < frames; f++) {
                double progress = OutputRenderer.progress(f, frames);
                moved.write(OutputRenderer.frame(f < frames / 2 ? right : dragged, VIDEO, progress));
                kept.write(OutputRenderer.frame(right, VIDEO, progress));
            }
        }
        MazePixelEvaluator evaluator = new MazePixelEvaluator();
        EvaluationOutcome keptOutcome = MazeEvaluatorItems.evaluate(evaluator, item, control, "wan-2.2");
        assertThat(MazeEvaluatorItems.gate("video", keptOutcome).primary()).isEqualTo(1.0);

        EvaluationOutcome outcome = MazeEvaluatorItems.evaluate(evaluator, item, out, "wan-2.2");
        assertThat(outcome.metrics()).containsEntry("target_achievement", 1.0).containsEntry("cross_wall", 0.0)
                .containsEntry("start_moved", 0.0).containsEntry("target_moved", 1.0);
        GateResult gate = MazeEvaluatorItems.gate("video", outcome);
        assertThat(gate.primary()).isEqualTo(0.0);
        assertThat(gate.failedChecks()).singleElement().asString().startsWith("maze-pixel.target_moved");
    }

    private static void expect(Fault fault, EvaluationOutcome outcome, GateResult gate) {
        var m = outcome.metrics();
        if (fault == Fault.CORRECT) {
            assertThat(gate.primary()).as("failing %s", gate.failedChecks()).isEqualTo(1.0);
            return;
        }
        String moved = fault == Fault.START_MOVED ? "start_moved" : "target_moved";
        assertThat(m).containsEntry(moved, 1.0).containsEntry("cross_wall", 0.0);
        assertThat(m.get("layout_iou")).isGreaterThan(0.8);
        assertThat(gate.primary()).isEqualTo(0.0);
        if (!MOVED_ALONG.contains(fault)) {
            assertThat(gate.failedChecks()).anyMatch(c -> c.startsWith("maze-pixel." + moved));
            return;
        }
        // everything else about the answer is right: it covers the whole solution without crossing a wall
        assertThat(m).containsEntry("target_achievement", 1.0);
        // without the marker check the gate would pass it: the answer fails on the moved marker alone
        assertThat(gate.failedChecks()).singleElement().asString().startsWith("maze-pixel." + moved);
    }

    private static int frames(Scenario sc) {
        return Math.max(48, 2 * (sc.route().size() - 1) + 16);
    }
}
