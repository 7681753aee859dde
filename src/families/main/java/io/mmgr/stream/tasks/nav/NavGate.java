package io.mmgr.stream.tasks.nav;

import static io.mmgr.stream.tasks.nav.NavMetrics.AGENT_CONSISTENCY;
import static io.mmgr.stream.tasks.nav.NavMetrics.DESTINATION_INTEGRITY;
import static io.mmgr.stream.tasks.nav.NavMetrics.GEOMETRY_EVALUATOR;
import static io.mmgr.stream.tasks.nav.NavMetrics.OBJECT_SEMANTIC;
import static io.mmgr.stream.tasks.nav.NavMetrics.ORACLE_SUCCESS_2D;
import static io.mmgr.stream.tasks.nav.NavMetrics.ORACLE_SUCCESS_3D;
import static io.mmgr.stream.tasks.nav.NavMetrics.SCENE_CONSISTENCY;
import static io.mmgr.stream.tasks.nav.NavMetrics.SPATIAL_ALIGNMENT;
import static io.mmgr.stream.tasks.nav.NavMetrics.SUCCESS_2D;
import static io.mmgr.stream.tasks.nav.NavMetrics.SUCCESS_2D_ORIGINAL_DESTINATION;
import static io.mmgr.stream.tasks.nav.NavMetrics.SUCCESS_3D;
import static io.mmgr.stream.tasks.nav.NavMetrics.SUCCESS_3D_ORIGINAL_DESTINATION;
import static io.mmgr.stream.tasks.nav.NavMetrics.TRAJECTORY_ALIGNMENT;

import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.tasks.Check;
import io.mmgr.stream.tasks.GateInput;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.GateVariant;
import io.mmgr.stream.tasks.TaskGate;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Navigation gates (seed G.3.4): "a sample passes only when all seven (SLAG: ten) binary checks are 1".
 * The primary ANDs geometry checks with judge checks, hence one variant, {@value #COMBINED}.
 * The seed's gate composites (Success with Original Destination, Physics Validness) are reported
 * alongside; they are subsets of the primary's checks and never change it.
 */
public final class NavGate implements TaskGate {

    /** The primary's variant: geometry and judge checks together. */
    public static final String COMBINED = "combined";
    public static final String OVERALL_COMBINED = "overall_combined";

    private static final Check SS_2D = geometry(SUCCESS_2D);
    private static final Check OS_2D = geometry(ORACLE_SUCCESS_2D);
    private static final Check SS_3D = geometry(SUCCESS_3D);
    private static final Check OS_3D = geometry(ORACLE_SUCCESS_3D);
    private static final Check TRAJ_ALI = geometry(TRAJECTORY_ALIGNMENT);
    private static final Check OBJ_SEM = judge(OBJECT_SEMANTIC);
    private static final Check AGENT_CON = judge(AGENT_CONSISTENCY);
    private static final Check SPA_ALI = judge(SPATIAL_ALIGNMENT);
    private static final Check DES_INTE = judge(DESTINATION_INTEGRITY);
    private static final Check SCENE_CON = judge(SCENE_CONSISTENCY);

    /** Obj. Sem. AND Agent Con. AND Spa. Ali. - all four nav tasks. */
    private static final GateVariant PHYSICS_VALIDNESS =
            GateVariant.of(NavMetrics.PHYSICS_VALIDNESS, OBJ_SEM, AGENT_CON, SPA_ALI);
    /** The judge checks every nav primary ends with, in the seed's order. */
    private static final List<Check> JUDGE_CHECKS = List.of(OBJ_SEM, AGENT_CON, SPA_ALI, DES_INTE, SCENE_CON);

    private final GateVariant primary;
    private final GateVariant originalDestination;

    private NavGate(List<Check> geometryChecks, GateVariant originalDestination) {
        List<Check> checks = new ArrayList<>(geometryChecks);
        checks.addAll(JUDGE_CHECKS);
        this.primary = new GateVariant(COMBINED, checks);
        this.originalDestination = originalDestination;
    }

    /** T5 Last-Mile and T7 3D Real-World: S.S.3D, O.S.3D + the five judge checks (7). */
    public static NavGate threeD() {
        return new NavGate(List.of(SS_3D, OS_3D), destination3d());
    }

    /** T6 Top-down: S.S.2D, O.S.2D + the five judge checks (7). */
    public static NavGate topDown() {
        return new NavGate(List.of(SS_2D, OS_2D),
                GateVariant.of(SUCCESS_2D_ORIGINAL_DESTINATION, SS_2D, DES_INTE, SCENE_CON));
    }

    /**
     * T8 SLAG: all ten checks. Only the 3D destination composite applies: SLAG's 2D map is generated,
     * not given (seed).
     */
    public static NavGate slag() {
        return new NavGate(List.of(SS_2D, OS_2D, SS_3D, OS_3D, TRAJ_ALI), destination3d());
    }

    private static GateVariant destination3d() {
        return GateVariant.of(SUCCESS_3D_ORIGINAL_DESTINATION, SS_3D, DES_INTE, SCENE_CON);
    }

    private static Check geometry(String metric) {
        return Check.isOne(MetricKey.of(GEOMETRY_EVALUATOR, metric));
    }

    private static Check judge(String metric) {
        return Check.isOne(MetricKey.of(TaskSpec.JUDGE_PART, metric));
    }

    @Override
    public GateResult evaluate(GateInput input) {
        GateVariant.Outcome overall = primary.evaluate(input);
        Map<String, Double> gates = new LinkedHashMap<>();
        gates.put(OVERALL_COMBINED, overall.value());
        gates.put(originalDestination.name(), originalDestination.evaluate(input).value());
        gates.put(PHYSICS_VALIDNESS.name(), PHYSICS_VALIDNESS.evaluate(input).value());
        return new GateResult(overall.value(), overall.name(), gates, overall.failed(), overall.missing());
    }
}
