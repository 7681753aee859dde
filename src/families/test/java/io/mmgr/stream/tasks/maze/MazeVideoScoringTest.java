package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.tasks.FrameBudget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.vision.VideoDecoder;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Tag;

/**
 * Videos of every band and fault (H.264 MP4), and a subset as WebM VP9 with shifted hues and blur and
 * as MPEG-4 Part 2: the green square walks the route; tracked metrics against the construction truth.
 */
@Tag("unit")
class MazeVideoScoringTest {

    static final OutputStyle MP4_STYLE = OutputStyle.blocks("mp4-clean", 320, 320, 0.03, 0.3, 0.8);
    static final OutputStyle WEBM_STYLE = OutputStyle.blocks("webm-shifted-blur", 384, 256, 0.05, 0.3, 0.6).shifted(10, 0.85, 0.93).blurred(0.8);
    static final OutputStyle MPEG4_STYLE = OutputStyle.blocks("mpeg4-512", 512, 512, 0.02, 0.3, 0.9);

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (MazeBand band : MazeBand.values()) {
            for (Fault fault : Fault.values()) {
                out.add(Arguments.of(band, fault, MP4_STYLE, VideoEncoder.Container.MP4, null));
            }
            for (Fault fault : new Fault[] {Fault.CORRECT, Fault.DETOUR, Fault.WALL_CROSSING, Fault.TARGET_MOVED}) {
                out.add(Arguments.of(band, fault, WEBM_STYLE, VideoEncoder.Container.WEBM, null));
            }
        }
        out.add(Arguments.of(MazeBand.MEDIUM, Fault.CORRECT, MPEG4_STYLE, VideoEncoder.Container.MP4, "mpeg4"));
        out.add(Arguments.of(MazeBand.HARD, Fault.INCOMPLETE, MPEG4_STYLE, VideoEncoder.Container.MP4, "mpeg4"));
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void trackedMetricsMatchTheKnownTruth(MazeBand band, Fault fault, OutputStyle style,
                                          VideoEncoder.Container container, String codec) throws Exception {
        // wall-crossing videos cross often enough to be flagged under the 5 % rule (two walls in five steps)
        Scenario sc = MazeFixtures.scenario(band, fault, 5,
                s -> fault != Fault.WALL_CROSSING || s.wallsCrossed() * 5 >= 2 * (s.route().size() - 1));
        MazeProblem p = sc.problem();
        MazeReference ref = MazeImageScoringTest.referenceFromImages(p);
        Path dir = Files.createDirectories(Path.of("target/fixtures/maze-video"));
        Path file = dir.resolve(band + "-" + fault + "-" + style.name() + (container == VideoEncoder.Container.MP4 ? ".mp4" : ".webm"));
        // at least two frames per step, as real videos (120-360 frames) have for these routes
        int frames = Math.max(48, 2 * (sc.route().size() - 1) + 16);
        if (codec == null) {
            OutputRenderer.video(sc, style, frames, container, file);
        } else {
            writeWithCodec(sc, style, frames, file, codec);
        }
        MazeVideoScorer scorer = new MazeVideoScorer(ref);
        int delivered = VideoDecoder.sample(file, FrameBudget.WAN, VideoDecoder.Limits.DEFAULT,
                (i, f) -> scorer.accept(MazeCanvas.of(f, p.rows(), p.cols())));
        MazeMetrics m = scorer.finish();

        assertThat(delivered).isEqualTo(Math.min(frames, FrameBudget.WAN));
        assertThat(m.framesAnalyzed()).isEqualTo(delivered);
        if (fault == Fault.MAZE_ALTERED) {
            assertThat(m.layoutIou()).isLessThanOrEqualTo(0.8);
        } else {
            assertThat(m.layoutIou()).isGreaterThan(0.85);
        }
        boolean targetMoved = fault == Fault.TARGET_MOVED || fault == Fault.TARGET_MOVED_PAST;
        assertThat(m.mazeChanged()).isEqualTo(fault == Fault.MAZE_ALTERED || targetMoved);
        // the target is checked in every frame that shows it, the start in the first frame
        assertThat(m.targetMoved()).isEqualTo(targetMoved);
        assertThat(m.startMoved()).isEqualTo(fault == Fault.START_MOVED);
        if (sc.wallsCrossed() == 0) {
            assertThat(m.crossingRatio()).isLessThan(0.01);
            assertThat(m.crossWall()).isFalse();
        } else {
            assertThat(m.crossWall()).isTrue();
        }
        assertThat(m.targetAchievement()).isCloseTo(sc.solutionCoverage(), within(1.5 / p.solution().size() + 1e-9));
        assertThat(m.pathLengthRatio()).isCloseTo(sc.stepRatio(), within(1.5 / (p.solution().size() - 1) + 0.05));
        assertThat(m.actionReflection()).isEqualTo(sc.backtracks());
        assertThat(m.excessiveReflection()).isEqualTo(sc.stepRatio() > MazeThresholds.REFLECTION_LENGTH_RATIO);
        if (fault == Fault.CORRECT) {
            assertThat(m.pathIou()).isGreaterThan(0.6);
            assertThat(m.pathRecall()).isGreaterThan(0.8);
        }
        Double overall = MazeEvaluatorItems.gate("video", m.asMap()).primary();
        assertThat(overall).isEqualTo(fault == Fault.CORRECT ? 1.0 : 0.0);
    }

    /**
     * A fast agent: about one step (or more) per sampled frame over a long route, so the sampling nearly
     * locks to the walk and many frames in a row catch the square between two cells. Every cell it
     * passes must still count (the tracker used to wait for a centroid near a cell centre and lost a
     * third of a 126-cell route this way).
     */
    @ParameterizedTest(name = "{0} steps per sampled frame")
    @org.junit.jupiter.params.provider.ValueSource(doubles = {0.9, 1.0, 1.1, 1.25, 1.6})
    void aFastAgentStillCoversItsRoute(double stepsPerFrame) throws Exception {
        Scenario sc = MazeFixtures.scenario(MazeBand.HARD, Fault.CORRECT, 11, s -> s.route().size() >= 80 && s.route().size() <= 90);
        MazeProblem p = sc.problem();
        MazeReference ref = MazeImageScoringTest.referenceFromImages(p);
        Path file = Files.createDirectories(Path.of("target/fixtures/maze-video")).resolve("fast-" + stepsPerFrame + ".mp4");
        int steps = sc.route().size() - 1;
        // walking frames at the rate asked, inside the 120 decoded, then still frames (progress() walks 85 %)
        int frames = (int) Math.round(steps / stepsPerFrame / 0.85);
        assertThat(frames).isLessThanOrEqualTo(FrameBudget.WAN);
        OutputRenderer.video(sc, MP4_STYLE, frames, VideoEncoder.Container.MP4, file);
        MazeVideoScorer scorer = new MazeVideoScorer(ref);
        VideoDecoder.sample(file, FrameBudget.WAN, VideoDecoder.Limits.DEFAULT,
                (i, f) -> scorer.accept(MazeCanvas.of(f, p.rows(), p.cols())));
        MazeMetrics m = scorer.finish();

        assertThat(scorer.route()).as("tracked cells").containsExactlyElementsOf(sc.route());
        assertThat(m.targetAchievement()).isEqualTo(1.0);
        assertThat(m.actionReflection()).isFalse();
        assertThat(MazeEvaluatorItems.gate("video", m.asMap()).primary()).isEqualTo(1.0);
    }

    private static void writeWithCodec(Scenario sc, OutputStyle s, int frames, Path file, String codec) throws Exception {
        try (VideoEncoder enc = VideoEncoder.open(file, s.width(), s.height(), 24, VideoEncoder.Container.MP4, codec)) {
            assertThat(enc.codec()).isEqualTo(codec);
            for (int f = 0; f < frames; f++) {
                enc.write(OutputRenderer.frame(sc, s, Math.min(1.0, f / (0.85 * (frames - 1)))));
            }
        }
    }
}
