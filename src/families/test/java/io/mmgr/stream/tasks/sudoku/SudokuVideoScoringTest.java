package io.mmgr.stream.tasks.sudoku;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.vision.VideoDecoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * H.264 videos written from scripted grid states (gradual filling, all at once, a wrong ending, a clue
 * briefly altered, a corrected entry, nothing done) and scored against the script.
 */
@Tag("unit")
class SudokuVideoScoringTest extends WithDigitOcr {

    static final OutputLook SMALL = new OutputLook("standard-320", SudokuStyle.standard(320), null, 0, 0);
    static final OutputLook NINE = new OutputLook("standard-480", SudokuStyle.standard(480), null, 0, 0);

    /** Script, look, and the final frame's expected Constraint Violation and Completion Accuracy. */
    static Stream<Arguments> scripts() {
        SudokuPuzzle four = Puzzles.of(4, SudokuBand.EASY, 41);
        SudokuPuzzle fourHard = Puzzles.of(4, SudokuBand.HARD, 42);
        SudokuPuzzle nine = Puzzles.of(9, SudokuBand.MEDIUM, 43);
        OutputLook green = OutputLook.all().get(1); // offset grid, serif clues, green mono fills, blur
        OutputLook grey = OutputLook.all().get(5); // faint grey lines, blurred

        VideoScript gradual = VideoScript.gradual("gradual-4x4", four, 2, 1, 2, 2, new Random(1));
        VideoScript gradualHard = VideoScript.gradual("gradual-4x4-hard", fourHard, 3, 1, 3, 3, new Random(2));
        VideoScript atOnce = VideoScript.allAtOnce("all-at-once-4x4", four, 4, 8);
        VideoScript nineGradual = VideoScript.gradual("gradual-9x9", nine, 2, 3, 2, 4, new Random(3));
        int wrongCell = VideoScript.blanks(nine, new Random(4)).get(0);
        int wrongDigit = Scenario.otherDigit(nine.solution()[wrongCell], 9, new Random(5));
        VideoScript endsWrong = nineGradual.withCell("ends-wrong-9x9", wrongCell, wrongDigit,
                nineGradual.frames().size() - 4, nineGradual.frames().size());
        int clueCell = firstGiven(four);
        VideoScript flicker = gradual.withCell("clue-briefly-changed-4x4", clueCell,
                Scenario.otherDigit(four.solution()[clueCell], 4, new Random(6)), 5, 7);
        int fixed = VideoScript.blanks(four, new Random(1)).get(1); // the second cell the gradual script fills
        int firstShown = firstFrameShowing(gradual, fixed);
        VideoScript corrected = gradual.withCell("corrected-entry-4x4", fixed,
                Scenario.otherDigit(four.solution()[fixed], 4, new Random(7)), firstShown, firstShown + 4);
        VideoScript idle = VideoScript.allAtOnce("nothing-done-4x4", four, 12, 0);
        VideoScript cut = gradual.withCut("cut-to-white-4x4", 6, 9);

        int b9 = nine.blankCount();
        return Stream.of(
                Arguments.of(gradual, SMALL, 0.0, 1.0),
                Arguments.of(gradualHard, green, 0.0, 1.0),
                Arguments.of(atOnce, SMALL, 0.0, 1.0),
                Arguments.of(nineGradual, NINE, 0.0, 1.0),
                Arguments.of(endsWrong, NINE, 1.0 / 9, (b9 - 1) / (double) b9),
                Arguments.of(flicker, grey, 0.0, 1.0),
                Arguments.of(corrected, SMALL, 0.0, 1.0),
                Arguments.of(idle, SMALL, 0.0, 0.0),
                Arguments.of(cut, SMALL, 0.0, 1.0));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scripts")
    void metricsMatchTheScript(VideoScript script, OutputLook look, double cv, double ca) throws Exception {
        Path dir = Files.createDirectories(Path.of("target/fixtures/sudoku-video"));
        Path file = dir.resolve(script.name() + "-" + look.name() + ".mp4");
        script.write(look, file);
        SudokuVideoScorer scorer = new SudokuVideoScorer(script.puzzle(), ocr);

        int delivered = VideoDecoder.sample(file, 360, VideoDecoder.Limits.DEFAULT, scorer::accept);
        SudokuScore score = scorer.finish();

        assertThat(delivered).isEqualTo(script.frames().size());
        assertThat(score.diagnostics()).containsEntry("frames_analyzed", Integer.toString(delivered - script.blankFrames()))
                .containsEntry("frames_without_grid", Integer.toString(script.blankFrames()));
        assertThat(score.grid()).as("final grid").isEqualTo(SudokuRules.format(script.last()));
        assertThat(score.cluesChanged()).isEqualTo(script.clueEverChanged() ? 1.0 : 0.0);
        assertThat(score.constraintViolation()).isCloseTo(cv, within(1e-12));
        assertThat(score.completionAccuracy()).isCloseTo(ca, within(1e-12));
        assertThat(score.actionReflection()).isEqualTo(script.actionReflection());
        double overall = !script.clueEverChanged() && cv == 0 && ca == 1 ? 1.0 : 0.0;
        assertThat(OcrGate.primary("video", score.metrics())).isEqualTo(overall);
        // only cells whose pixels changed are read again: one OCR per digit that appeared, not per frame
        int ocrCalls = Integer.parseInt(score.diagnostics().get("cells_ocr"));
        assertThat(ocrCalls).isLessThanOrEqualTo(script.contentChanges());
    }

    @org.junit.jupiter.api.Test
    void aGridThatMovesMidVideoIsFoundAgain() throws Exception {
        SudokuPuzzle p = Puzzles.of(4, SudokuBand.MEDIUM, 44);
        VideoScript script = VideoScript.gradual("moving-grid-4x4", p, 2, 1, 2, 2, new Random(8));
        SudokuStyle base = SudokuStyle.standard(320);
        OutputLook left = new OutputLook("left", base, null, 0, 0);
        OutputLook shifted = new OutputLook("shifted", new SudokuStyle(320, 320, 0xFFFFFF, 52, 34, 250, 250,
                1.5, 4, 0x000000, base.clueFont(), 0x000000, base.fillFont(), 0x1F4FD0, 0.5, -1), null, 0, 0);
        int half = script.frames().size() / 2;
        Path file = Files.createDirectories(Path.of("target/fixtures/sudoku-video")).resolve("moving-grid.mp4");
        script.write(i -> i < half ? left : shifted, file);
        SudokuVideoScorer scorer = new SudokuVideoScorer(p, ocr);

        VideoDecoder.sample(file, 360, VideoDecoder.Limits.DEFAULT, scorer::accept);
        SudokuScore score = scorer.finish();

        assertThat(score.diagnostics()).containsEntry("grid_searches", "2");
        assertThat(score.grid()).isEqualTo(p.solutionString());
        assertThat(score.cluesChanged()).isZero();
        assertThat(score.completionAccuracy()).isEqualTo(1.0);
        assertThat(score.actionReflection()).isEqualTo(script.actionReflection());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scripts")
    void theNamedScriptsHaveTheReflectionTheSeedDescribes(VideoScript script, OutputLook look, double cv, double ca) {
        // guards the oracle itself: a few cells every second or third frame is gradual; everything at once,
        // or nothing at all, is not
        boolean gradual = !script.name().startsWith("all-at-once") && !script.name().startsWith("nothing-done");
        assertThat(script.actionReflection()).isEqualTo(gradual ? 1.0 : 0.0);
    }

    private static int firstGiven(SudokuPuzzle p) {
        for (int i = 0; i < p.cells(); i++) {
            if (p.isGiven(i)) {
                return i;
            }
        }
        throw new IllegalStateException();
    }

    private static int firstFrameShowing(VideoScript s, int cell) {
        List<int[]> frames = s.frames();
        for (int f = 0; f < frames.size(); f++) {
            if (frames.get(f)[cell] != 0) {
                return f;
            }
        }
        throw new IllegalStateException();
    }
}
