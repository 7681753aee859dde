package io.mmgr.stream.tasks.sudoku;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.vision.RgbImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Rendered answers with known faults, in many looks, scored against their construction truth. */
@Tag("unit")
class SudokuImageScoringTest extends WithDigitOcr {

    /** Every fault at both sizes, each in two looks, so every look meets several faults and both sizes. */
    static Stream<Arguments> faultsInLooks() {
        List<OutputLook> looks = OutputLook.all();
        List<Arguments> cases = new ArrayList<>();
        int i = 0;
        for (Fault fault : Fault.values()) {
            for (int size : new int[] {4, 9}) {
                cases.add(Arguments.of(fault, size, looks.get(i % looks.size())));
                cases.add(Arguments.of(fault, size, looks.get((i + 3) % looks.size())));
                i++;
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}x{1} {2}")
    @MethodSource("faultsInLooks")
    void everyMetricAndTheGateMatchTheConstruction(Fault fault, int size, OutputLook look) throws Exception {
        SudokuPuzzle puzzle = Puzzles.of(size, SudokuBand.values()[(fault.ordinal() + size) % 3], 100 + fault.ordinal());
        Scenario sc = Scenario.of(puzzle, fault, new Random(fault.ordinal() * 31L + size));
        RgbImage image = look.roundTrip(look.render(size, sc.digits(), sc.clue(), null));

        SudokuScore score = SudokuImageScorer.score(puzzle, image, ocr);

        assertThat(score.grid()).as("recognised grid").isEqualTo(SudokuRules.format(sc.digits()));
        assertThat(score.cluesChanged()).isEqualTo(sc.cluesChanged());
        assertThat(score.constraintViolation()).isCloseTo(sc.constraintViolation(), within(1e-12));
        assertThat(score.completionAccuracy()).isCloseTo(sc.completionAccuracy(), within(1e-12));
        assertThat(score.actionReflection()).isNull();
        assertThat(OcrGate.primary("image", score.metrics())).isEqualTo(sc.overall());
    }

    static Stream<Arguments> faces() {
        List<FixtureFonts.Face> faces = FixtureFonts.all();
        List<Arguments> cases = new ArrayList<>();
        for (int i = 0; i < faces.size(); i++) {
            cases.add(Arguments.of(faces.get(i), faces.get((i * 7 + 3) % faces.size()), i));
        }
        return cases.stream();
    }

    private static final int[] INKS = {0x000000, 0x1F4FD0, 0xC02020, 0x1A7F1A, 0x6A1B9A, 0xE07000, 0x006080, 0x444444};

    /** Each fixture face once as the filled digits' font (another face and ink for the clues): the grid reads back exactly. */
    @ParameterizedTest(name = "fill {0}, clues {1}")
    @MethodSource("faces")
    void solvedGridsReadBackInEveryFace(FixtureFonts.Face fill, FixtureFonts.Face clues, int i) throws Exception {
        int size = i % 3 == 0 ? 4 : 9;
        SudokuPuzzle puzzle = Puzzles.of(size, SudokuBand.MEDIUM, 7 + i);
        SudokuStyle style = SudokuStyle.standard(size == 4 ? 320 : 480)
                .withFill(fill.font(), INKS[i % INKS.length])
                .withClues(clues.font(), INKS[(i + 3) % INKS.length]);
        RgbImage image = SudokuRenderer.solution(puzzle, style);

        SudokuScore score = SudokuImageScorer.score(puzzle, image, ocr);

        assertThat(score.grid()).isEqualTo(puzzle.solutionString());
        assertThat(OcrGate.primary("image", score.metrics())).isEqualTo(1.0);
    }
}
