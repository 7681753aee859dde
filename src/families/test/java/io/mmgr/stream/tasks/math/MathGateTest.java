package io.mmgr.stream.tasks.math;

import static io.mmgr.stream.tasks.MmgrGateFixture.evaluate;
import static io.mmgr.stream.tasks.MmgrGateFixture.flipped;
import static io.mmgr.stream.tasks.MmgrGateFixture.passing;
import static io.mmgr.stream.tasks.MmgrGateFixture.with;
import static io.mmgr.stream.tasks.MmgrGateFixture.without;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.GateResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Seed T4: "1 if and only if both Final Correctness=1 AND Intermediate Correctness=1". */
@Tag("unit")
class MathGateTest {

    private static final String TASK = "math";

    private static final List<String> REQUIRED = List.of(
            "judge.final_correctness=1", "judge.intermediate_correctness=1");

    private static Map<String, Double> allPass() {
        return with(passing(REQUIRED), "judge.action_reflection", 1.0);
    }

    static Stream<String> required() {
        return REQUIRED.stream();
    }

    @ParameterizedTest
    @ValueSource(strings = {"image", "video", "text"})
    void aCorrectSolutionWithSoundStepsScoresOne(String modality) {
        GateResult result = evaluate(TASK, modality, allPass());

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.primarySource()).isEqualTo("vlm");
        assertThat(result.gates()).containsOnly(Map.entry("overall_vlm", 1.0));
        assertThat(result.failedChecks()).isEmpty();
        assertThat(result.missingChecks()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("required")
    void everySingleFailingCheckTurnsThePrimaryToZero(String check) {
        GateResult result = evaluate(TASK, "video", flipped(allPass(), check));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.failedChecks()).containsExactly(check);
        assertThat(result.missingChecks()).isEmpty();
        assertThat(result.gates()).containsOnly(Map.entry("overall_vlm", 0.0));
    }

    @Test
    void actionReflectionDoesNotGate() {
        assertThat(evaluate(TASK, "video", with(allPass(), "judge.action_reflection", 0.0)).primary())
                .isEqualTo(1.0);
        assertThat(evaluate(TASK, "image", with(allPass(), "judge.action_reflection", null)).primary())
                .isEqualTo(1.0);
    }

    @ParameterizedTest
    @MethodSource("required")
    void aMissingRequiredMetricLeavesThePrimaryOpen(String check) {
        GateResult result = evaluate(TASK, "video", without(allPass(), check));

        assertThat(result.primary()).isNull();
        assertThat(result.missingChecks()).containsExactly(check);
        assertThat(result.failedChecks()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("required")
    void aFailedCheckDecidesTheGateEvenWithTheOtherMissing(String missing) {
        String failing = REQUIRED.stream().filter(c -> !c.equals(missing)).findFirst().orElseThrow();

        GateResult result = evaluate(TASK, "video", flipped(without(allPass(), missing), failing));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.failedChecks()).containsExactly(failing);
        assertThat(result.missingChecks()).containsExactly(missing);
    }
}
