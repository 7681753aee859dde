package io.mmgr.stream.tasks.physics;

import static io.mmgr.stream.tasks.MmgrGateFixture.evaluate;
import static io.mmgr.stream.tasks.MmgrGateFixture.flipped;
import static io.mmgr.stream.tasks.MmgrGateFixture.passing;
import static io.mmgr.stream.tasks.MmgrGateFixture.without;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.GateResult;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Tag;

/** Seed T9/T10: Physics Accuracy AND Motion Quality AND Visual Realism AND Prompt Adherence. */
@Tag("unit")
class PhysicsGateTest {

    private static final List<String> TASKS = List.of("physical-concepts", "sports");
    private static final List<String> REQUIRED = List.of(
            "judge.physics_accuracy=1", "judge.motion_quality=1", "judge.visual_realism=1", "judge.prompt_adherence=1");

    static Stream<Arguments> taskAndCheck() {
        return TASKS.stream().flatMap(t -> REQUIRED.stream().map(c -> Arguments.of(t, c)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"physical-concepts", "sports"})
    void aVideoPassingAllFourScoresOne(String task) {
        GateResult result = evaluate(task, "video", passing(REQUIRED));

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.primarySource()).isEqualTo("vlm");
        assertThat(result.gates()).containsOnlyKeys("overall_vlm").containsEntry("overall_vlm", 1.0);
        assertThat(result.failedChecks()).isEmpty();
        assertThat(result.missingChecks()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("taskAndCheck")
    void everySingleFailingCheckTurnsThePrimaryToZero(String task, String check) {
        GateResult result = evaluate(task, "video", flipped(passing(REQUIRED), check));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.failedChecks()).containsExactly(check);
        assertThat(result.missingChecks()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("taskAndCheck")
    void aMissingRequiredMetricLeavesThePrimaryOpen(String task, String check) {
        GateResult result = evaluate(task, "video", without(passing(REQUIRED), check));

        assertThat(result.primary()).isNull();
        assertThat(result.missingChecks()).containsExactly(check);
        assertThat(result.failedChecks()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("taskAndCheck")
    void aFailedCheckDecidesTheGateWhileAnotherIsMissing(String task, String missing) {
        String failing = REQUIRED.stream().filter(c -> !c.equals(missing)).findFirst().orElseThrow();

        GateResult result = evaluate(task, "video", flipped(without(passing(REQUIRED), missing), failing));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.failedChecks()).containsExactly(failing);
        assertThat(result.missingChecks()).containsExactly(missing);
    }
}
