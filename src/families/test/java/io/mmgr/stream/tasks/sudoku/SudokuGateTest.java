package io.mmgr.stream.tasks.sudoku;

import static io.mmgr.stream.tasks.MmgrGateFixture.evaluate;
import static io.mmgr.stream.tasks.MmgrGateFixture.flipped;
import static io.mmgr.stream.tasks.MmgrGateFixture.passing;
import static io.mmgr.stream.tasks.MmgrGateFixture.with;
import static io.mmgr.stream.tasks.MmgrGateFixture.without;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.GateResult;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Seed T2: "Clues Changed=0 AND Constraint Violation=0 AND Completion Accuracy=1", both pipelines. */
@Tag("unit")
class SudokuGateTest {

    private static final String TASK = "sudoku";

    // The seed's gate table, once per pipeline.
    private static final List<String> VLM = List.of(
            "judge.clues_changed=0", "judge.constraint_violation=0", "judge.completion_accuracy=1");
    private static final List<String> OCR = List.of(
            "sudoku-ocr.clues_changed=0", "sudoku-ocr.constraint_violation=0", "sudoku-ocr.completion_accuracy=1");
    private static final List<String> ACTION_REFLECTION = List.of(
            "judge.action_reflection", "sudoku-ocr.action_reflection");

    /** Both pipelines pass, video, with reflection shown. */
    private static Map<String, Double> allPass() {
        Map<String, Double> metrics = passing(VLM, OCR);
        ACTION_REFLECTION.forEach(k -> metrics.put(k, 1.0));
        return metrics;
    }

    private static Map<String, Double> ocrOnly() {
        return passing(OCR);
    }

    static Stream<String> vlmChecks() {
        return VLM.stream();
    }

    static Stream<String> ocrChecks() {
        return OCR.stream();
    }

    @Test
    void allChecksPassingScoresOne() {
        GateResult result = evaluate(TASK, "video", allPass());

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.primarySource()).isEqualTo("vlm");
        assertThat(result.gates()).containsOnly(Map.entry("overall_vlm", 1.0), Map.entry("overall_ocr", 1.0));
        assertThat(result.failedChecks()).isEmpty();
        assertThat(result.missingChecks()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("vlmChecks")
    void everySingleFailingJudgeCheckTurnsThePrimaryToZero(String check) {
        GateResult result = evaluate(TASK, "video", flipped(allPass(), check));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.primarySource()).isEqualTo("vlm");
        assertThat(result.failedChecks()).containsExactly(check);
        assertThat(result.missingChecks()).isEmpty();
        assertThat(result.gates()).containsEntry("overall_vlm", 0.0).containsEntry("overall_ocr", 1.0);
    }

    @ParameterizedTest
    @MethodSource("ocrChecks")
    void everySingleFailingOcrCheckTurnsTheOcrPrimaryToZero(String check) {
        GateResult result = evaluate(TASK, "image", flipped(ocrOnly(), check));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.primarySource()).isEqualTo("ocr");
        assertThat(result.failedChecks()).containsExactly(check);
        assertThat(result.gates()).containsEntry("overall_ocr", 0.0);
    }

    @ParameterizedTest
    @MethodSource("ocrChecks")
    void aFailingOcrCheckShowsInItsVariantButDoesNotOverrideTheJudge(String check) {
        GateResult result = evaluate(TASK, "video", flipped(allPass(), check));

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.gates()).containsEntry("overall_vlm", 1.0).containsEntry("overall_ocr", 0.0);
    }

    @Test
    void actionReflectionDoesNotGate() {
        Map<String, Double> noReflection = allPass();
        ACTION_REFLECTION.forEach(k -> noReflection.put(k, 0.0));

        GateResult result = evaluate(TASK, "video", noReflection);

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.gates()).containsOnly(Map.entry("overall_vlm", 1.0), Map.entry("overall_ocr", 1.0));
    }

    @Test
    void imagesWithoutActionReflectionScoreOne() {
        Map<String, Double> image = passing(VLM, OCR);
        ACTION_REFLECTION.forEach(k -> image.put(k, null));

        assertThat(evaluate(TASK, "image", image).primary()).isEqualTo(1.0);
    }

    @ParameterizedTest
    @MethodSource("vlmChecks")
    void aMissingRequiredMetricLeavesThePrimaryOpen(String check) {
        GateResult result = evaluate(TASK, "video", without(allPass(), check));

        assertThat(result.primary()).isNull();
        assertThat(result.missingChecks()).containsExactly(check);
        assertThat(result.failedChecks()).isEmpty();
        assertThat(result.gates()).containsEntry("overall_vlm", null);
    }

    @ParameterizedTest
    @MethodSource("vlmChecks")
    void aFailedCheckDecidesTheGateEvenWithAnotherMissing(String missing) {
        String failing = VLM.stream().filter(c -> !c.equals(missing)).findFirst().orElseThrow();

        GateResult result = evaluate(TASK, "video", flipped(without(allPass(), missing), failing));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.failedChecks()).containsExactly(failing);
        assertThat(result.missingChecks()).containsExactly(missing);
    }

    @ParameterizedTest
    @ValueSource(strings = {"judge", "sudoku-ocr"})
    void constraintViolationMustBeExactlyZero(String part) {
        Map<String, Double> metrics = with(allPass(), part + ".constraint_violation", 0.0001);

        GateResult result = evaluate(TASK, "video", metrics,
                Set.of(part)); // only this pipeline arrived, so it is the primary

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.failedChecks()).containsExactly(part + ".constraint_violation=0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"judge", "sudoku-ocr"})
    void completionAccuracyMustBeExactlyOne(String part) {
        Map<String, Double> metrics = with(allPass(), part + ".completion_accuracy", 0.9999);

        GateResult result = evaluate(TASK, "video", metrics, Set.of(part));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.failedChecks()).containsExactly(part + ".completion_accuracy=1");
    }

    @Test
    void theJudgeIsThePrimaryWheneverItArrived() {
        // OCR read a wrong digit, the judge saw a perfect solution: Table 4 follows the judge (D.4.1).
        Map<String, Double> metrics = with(allPass(), "sudoku-ocr.completion_accuracy", 0.75);

        GateResult result = evaluate(TASK, "video", metrics);

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.primarySource()).isEqualTo("vlm");
        assertThat(result.gates()).containsEntry("overall_ocr", 0.0);
    }

    @Test
    void theJudgeFailingIsNotRescuedByOcr() {
        GateResult result = evaluate(TASK, "video", with(allPass(), "judge.clues_changed", 1.0));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.primarySource()).isEqualTo("vlm");
    }

    @Test
    void ocrIsThePrimaryWhenOnlyOcrArrived() {
        GateResult result = evaluate(TASK, "video", ocrOnly());

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.primarySource()).isEqualTo("ocr");
        assertThat(result.gates()).containsEntry("overall_ocr", 1.0).containsEntry("overall_vlm", null);
        assertThat(result.missingChecks()).as("the judge's checks, its part not arrived").containsExactlyElementsOf(VLM);
    }

    @Test
    void withNothingArrivedTheJudgeVariantReportsWhatIsMissing() {
        GateResult result = evaluate(TASK, "video", Map.of());

        assertThat(result.primary()).isNull();
        assertThat(result.primarySource()).isEqualTo("vlm");
        assertThat(result.missingChecks()).containsExactlyElementsOf(concat(VLM, OCR));
        assertThat(result.gates()).containsEntry("overall_vlm", null).containsEntry("overall_ocr", null);
    }

    @Test
    void aJudgePartThatArrivedWithoutMetricsStillOutranksOcr() {
        Map<String, Double> metrics = ocrOnly();

        GateResult result = evaluate(TASK, "video", metrics, Set.of("judge", "sudoku-ocr"));

        assertThat(result.primarySource()).isEqualTo("vlm");
        assertThat(result.primary()).isNull();
        assertThat(result.missingChecks()).containsExactlyInAnyOrderElementsOf(VLM);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}
