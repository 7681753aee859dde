package io.mmgr.stream.tasks.arc;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Seed T3: the primary is Valid Solution (exact match), defined independently of the cascade. */
@Tag("unit")
class ArcGateTest {

    private static final String TASK = "arc";

    // The seed's gate table: one required check, read from the grid evaluator or the judge.
    private static final String GRID_VALID = "arc-grid.valid_solution=1";
    private static final String JUDGE_VALID = "judge.valid_solution=1";
    // Cascade / diagnostic metrics: "not a stated gate".
    private static final List<String> CASCADE = List.of(
            "judge.pattern_recognition=1", "judge.grid_integrity=1", "judge.color_accuracy=1",
            "arc-grid.grid_integrity=1", "arc-grid.cell_accuracy=1");

    private static Map<String, Double> allPass() {
        return passing(List.of(GRID_VALID, JUDGE_VALID), CASCADE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"image", "video"})
    void anExactMatchScoresOne(String modality) {
        GateResult result = evaluate(TASK, modality, allPass());

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.primarySource()).isEqualTo("grid");
        assertThat(result.gates()).containsOnly(Map.entry("overall_grid", 1.0), Map.entry("overall_vlm", 1.0));
        assertThat(result.failedChecks()).isEmpty();
        assertThat(result.missingChecks()).isEmpty();
    }

    @Test
    void aGridMismatchScoresZero() {
        GateResult result = evaluate(TASK, "video", flipped(allPass(), GRID_VALID));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.primarySource()).isEqualTo("grid");
        assertThat(result.failedChecks()).containsExactly(GRID_VALID);
        assertThat(result.gates()).containsEntry("overall_grid", 0.0).containsEntry("overall_vlm", 1.0);
    }

    @Test
    void aJudgedMismatchScoresZeroWhenNoGridArrived() {
        Map<String, Double> judgeOnly = passing(List.of(JUDGE_VALID), CASCADE.subList(0, 3));

        GateResult result = evaluate(TASK, "image", flipped(judgeOnly, JUDGE_VALID));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.primarySource()).isEqualTo("vlm");
        assertThat(result.failedChecks()).containsExactly(JUDGE_VALID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"judge.pattern_recognition=1", "judge.grid_integrity=1", "judge.color_accuracy=1",
            "arc-grid.grid_integrity=1", "arc-grid.cell_accuracy=1"})
    void aCascadeMetricDoesNotGate(String cascade) {
        GateResult result = evaluate(TASK, "video", flipped(allPass(), cascade));

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.gates()).containsOnly(Map.entry("overall_grid", 1.0), Map.entry("overall_vlm", 1.0));
    }

    @Test
    void theCascadeIsNotAnAnd() {
        Map<String, Double> metrics = allPass();
        CASCADE.forEach(c -> metrics.put(c.substring(0, c.indexOf('=')), 0.0));

        assertThat(evaluate(TASK, "video", metrics).primary()).isEqualTo(1.0);
    }

    @Test
    void aPerfectCascadeWithoutAValidSolutionScoresZero() {
        Map<String, Double> metrics = with(with(allPass(), "arc-grid.valid_solution", 0.0), "judge.valid_solution", 0.0);

        assertThat(evaluate(TASK, "video", metrics).primary()).isEqualTo(0.0);
    }

    @Test
    void aMissingValidSolutionLeavesThePrimaryOpen() {
        GateResult result = evaluate(TASK, "video", without(allPass(), GRID_VALID));

        assertThat(result.primary()).isNull();
        assertThat(result.primarySource()).isEqualTo("grid");
        assertThat(result.missingChecks()).containsExactly(GRID_VALID);
        assertThat(result.gates()).containsEntry("overall_grid", null).containsEntry("overall_vlm", 1.0);
    }

    @Test
    void theDecodedGridOutranksTheJudgeBothWays() {
        GateResult gridSaysYes = evaluate(TASK, "video", flipped(allPass(), JUDGE_VALID));
        GateResult gridSaysNo = evaluate(TASK, "video", flipped(allPass(), GRID_VALID));

        assertThat(gridSaysYes.primary()).isEqualTo(1.0);
        assertThat(gridSaysYes.primarySource()).isEqualTo("grid");
        assertThat(gridSaysYes.gates()).containsEntry("overall_vlm", 0.0);
        assertThat(gridSaysNo.primary()).isEqualTo(0.0);
        assertThat(gridSaysNo.primarySource()).isEqualTo("grid");
    }

    @Test
    void aGridScoredSampleListsTheJudgesCheckWhenNoVerdictArrived() {
        GateResult result = evaluate(TASK, "image", without(allPass(), JUDGE_VALID), Set.of("arc-grid"));

        assertThat(result.primarySource()).isEqualTo("grid");
        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.missingChecks()).containsExactly(JUDGE_VALID);
    }

    @Test
    void theJudgeIsThePrimaryWhenNoGridArrived() {
        GateResult result = evaluate(TASK, "video", allPass(), Set.of("judge"));

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.primarySource()).isEqualTo("vlm");
    }

    @Test
    void withNothingArrivedTheJudgeVariantReportsWhatIsMissing() {
        GateResult result = evaluate(TASK, "video", Map.of());

        assertThat(result.primary()).isNull();
        assertThat(result.primarySource()).isEqualTo("vlm");
        assertThat(result.missingChecks()).containsExactly(JUDGE_VALID, GRID_VALID);
        assertThat(result.gates()).containsEntry("overall_grid", null).containsEntry("overall_vlm", null);
    }
}
