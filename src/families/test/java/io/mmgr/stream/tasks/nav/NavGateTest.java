package io.mmgr.stream.tasks.nav;

import static io.mmgr.stream.tasks.MmgrGateFixture.evaluate;
import static io.mmgr.stream.tasks.MmgrGateFixture.flipped;
import static io.mmgr.stream.tasks.MmgrGateFixture.minus;
import static io.mmgr.stream.tasks.MmgrGateFixture.passing;
import static io.mmgr.stream.tasks.MmgrGateFixture.without;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.GateResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Tag;

/** Seed G.3.4: per-task Overall Success (7 or 10 checks) and the gate composites. */
@Tag("unit")
class NavGateTest {

    // Task Completeness (geometry evaluator)
    private static final String SS_2D = "nav-geometry.success_2d=1";
    private static final String OS_2D = "nav-geometry.oracle_success_2d=1";
    private static final String SS_3D = "nav-geometry.success_3d=1";
    private static final String OS_3D = "nav-geometry.oracle_success_3d=1";
    private static final String TRAJ_ALI = "nav-geometry.trajectory_alignment=1";
    // Physical Understanding and Instruction Following (judge)
    private static final String OBJ_SEM = "judge.object_semantic=1";
    private static final String AGENT_CON = "judge.agent_consistency=1";
    private static final String SPA_ALI = "judge.spatial_alignment=1";
    private static final String DES_INTE = "judge.destination_integrity=1";
    private static final String SCENE_CON = "judge.scene_consistency=1";

    private static final List<String> ALL_TEN =
            List.of(SS_2D, OS_2D, SS_3D, OS_3D, TRAJ_ALI, OBJ_SEM, AGENT_CON, SPA_ALI, DES_INTE, SCENE_CON);

    /** The seed's "Gated primary (Overall Success) — verbatim per task". */
    private static final Map<String, List<String>> PRIMARY = Map.of(
            "nav-last-mile", List.of(SS_3D, OS_3D, OBJ_SEM, AGENT_CON, SPA_ALI, DES_INTE, SCENE_CON),
            "nav-top-down", List.of(SS_2D, OS_2D, OBJ_SEM, AGENT_CON, SPA_ALI, DES_INTE, SCENE_CON),
            "nav-3d-real-world", List.of(SS_3D, OS_3D, OBJ_SEM, AGENT_CON, SPA_ALI, DES_INTE, SCENE_CON),
            "nav-slag", ALL_TEN);

    /** The seed's "Gate (composite) metrics" table, per task. */
    private static final Map<String, List<String>> SUCCESS_3D_ORIGINAL_DESTINATION =
            Map.of("success_3d_original_destination", List.of(SS_3D, DES_INTE, SCENE_CON));
    private static final Map<String, List<String>> SUCCESS_2D_ORIGINAL_DESTINATION =
            Map.of("success_2d_original_destination", List.of(SS_2D, DES_INTE, SCENE_CON));
    private static final List<String> PHYSICS_VALIDNESS = List.of(OBJ_SEM, AGENT_CON, SPA_ALI);
    private static final Map<String, Map<String, List<String>>> COMPOSITES = Map.of(
            "nav-last-mile", withPhysicsValidness(SUCCESS_3D_ORIGINAL_DESTINATION),
            "nav-top-down", withPhysicsValidness(SUCCESS_2D_ORIGINAL_DESTINATION),
            "nav-3d-real-world", withPhysicsValidness(SUCCESS_3D_ORIGINAL_DESTINATION),
            "nav-slag", withPhysicsValidness(SUCCESS_3D_ORIGINAL_DESTINATION));

    private static Map<String, List<String>> withPhysicsValidness(Map<String, List<String>> destination) {
        var composites = new java.util.HashMap<>(destination);
        composites.put("physics_validness", PHYSICS_VALIDNESS);
        return composites;
    }

    /** All ten checks pass; the diagnostic suites report poor values, which must not matter. */
    private static Map<String, Double> allPass() {
        Map<String, Double> metrics = passing(ALL_TEN);
        metrics.put("geo-align.spl", 0.05);
        metrics.put("geo-align.ate", 9.0);
        metrics.put("view-syn.ssim", 0.1);
        metrics.put("view-syn.fvd_normalized", 0.0);
        return metrics;
    }

    static Stream<Arguments> taskAndModality() {
        return PRIMARY.keySet().stream().flatMap(t -> Stream.of(Arguments.of(t, "image"), Arguments.of(t, "video")));
    }

    static Stream<Arguments> taskAndRequiredCheck() {
        return PRIMARY.entrySet().stream().flatMap(e -> e.getValue().stream().map(c -> Arguments.of(e.getKey(), c)));
    }

    static Stream<Arguments> taskAndCheckOutsideItsFormula() {
        return PRIMARY.entrySet().stream()
                .flatMap(e -> minus(ALL_TEN, e.getValue()).stream().map(c -> Arguments.of(e.getKey(), c)));
    }

    static Stream<Arguments> taskCompositeAndMember() {
        return COMPOSITES.entrySet().stream().flatMap(t -> t.getValue().entrySet().stream()
                .flatMap(c -> c.getValue().stream().map(m -> Arguments.of(t.getKey(), c.getKey(), m))));
    }

    static Stream<Arguments> taskCompositeAndNonMember() {
        return COMPOSITES.entrySet().stream().flatMap(t -> t.getValue().entrySet().stream()
                .flatMap(c -> minus(PRIMARY.get(t.getKey()), c.getValue()).stream()
                        .map(m -> Arguments.of(t.getKey(), c.getKey(), m))));
    }

    @ParameterizedTest
    @MethodSource("taskAndModality")
    void exactlyTheRequiredChecksPassingScoresOne(String task, String modality) {
        // Only the task's own checks are present: an extra check in the gate would show as missing.
        GateResult result = evaluate(task, modality, passing(PRIMARY.get(task)));

        assertThat(result.primary()).isEqualTo(1.0);
        assertThat(result.primarySource()).isEqualTo("combined");
        assertThat(result.failedChecks()).isEmpty();
        assertThat(result.missingChecks()).isEmpty();
        assertThat(result.gates().keySet())
                .containsExactlyInAnyOrderElementsOf(expectedGateNames(task));
        assertThat(result.gates().values()).containsOnly(1.0);
    }

    @ParameterizedTest
    @MethodSource("taskAndRequiredCheck")
    void everySingleFailingCheckTurnsThePrimaryToZero(String task, String check) {
        GateResult result = evaluate(task, "video", flipped(allPass(), check));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.failedChecks()).containsExactly(check);
        assertThat(result.missingChecks()).isEmpty();
        assertThat(result.gates()).containsEntry("overall_combined", 0.0);
    }

    @ParameterizedTest
    @MethodSource("taskAndCheckOutsideItsFormula")
    void aCheckOutsideTheTasksFormulaDoesNotGate(String task, String check) {
        GateResult result = evaluate(task, "video", flipped(allPass(), check));

        assertThat(result.primary()).isEqualTo(1.0);
    }

    @ParameterizedTest
    @MethodSource("taskAndRequiredCheck")
    void aMissingRequiredMetricLeavesThePrimaryOpen(String task, String check) {
        GateResult result = evaluate(task, "video", without(allPass(), check));

        assertThat(result.primary()).isNull();
        assertThat(result.missingChecks()).containsExactly(check);
        assertThat(result.failedChecks()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("taskAndRequiredCheck")
    void aFailedCheckDecidesTheGateWhileAnotherIsMissing(String task, String missing) {
        String failing = PRIMARY.get(task).stream().filter(c -> !c.equals(missing)).findFirst().orElseThrow();

        GateResult result = evaluate(task, "video", flipped(without(allPass(), missing), failing));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.failedChecks()).containsExactly(failing);
        assertThat(result.missingChecks()).containsExactly(missing);
    }

    @ParameterizedTest
    @MethodSource("taskCompositeAndMember")
    void aCompositeFailsOnEachOfItsOwnChecks(String task, String composite, String member) {
        GateResult result = evaluate(task, "video", flipped(allPass(), member));

        assertThat(result.gates()).containsEntry(composite, 0.0);
    }

    @ParameterizedTest
    @MethodSource("taskCompositeAndNonMember")
    void aCompositeIgnoresThePrimarysOtherChecks(String task, String composite, String other) {
        GateResult result = evaluate(task, "video", flipped(allPass(), other));

        assertThat(result.primary()).isEqualTo(0.0);
        assertThat(result.gates()).containsEntry(composite, 1.0);
    }

    @ParameterizedTest
    @MethodSource("taskCompositeAndMember")
    void aCompositeIsOpenWhileOneOfItsChecksIsMissing(String task, String composite, String member) {
        GateResult result = evaluate(task, "video", without(allPass(), member));

        assertThat(result.gates()).containsEntry(composite, null);
    }

    private static List<String> expectedGateNames(String task) {
        var names = new java.util.ArrayList<>(COMPOSITES.get(task).keySet());
        names.add("overall_combined");
        return names;
    }
}
