package io.mmgr.stream.tasks.nav;

import java.util.Map;
import io.mmgr.stream.tasks.FamilyPayload;
import io.mmgr.stream.tasks.AgreementPrior;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import java.util.function.Supplier;
import static io.mmgr.stream.tasks.nav.NavMetrics.GEOMETRY_EVALUATOR;
import static io.mmgr.stream.tasks.nav.NavMetrics.GEO_ALIGN_EVALUATOR;
import static io.mmgr.stream.tasks.nav.NavMetrics.VIEW_SYN_EVALUATOR;

import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * MMGR T5-T8 Embodied Navigation. Each task is scored by the geometry evaluator and the judge;
 * Geo-Align (T5) and View-Syn (T6-T8) add diagnostic suites that do not gate.
 */
public final class NavTasks implements TaskFamily {

    private static final Set<String> MODALITIES = Set.of("image", "video");

    @Override
    public Optional<FamilyPayload> payload() {
        return Optional.of(NavTruth.PAYLOAD);
    }

    @Override
    public List<TaskSpec> tasks() {
        return List.of(
                spec(NavMetrics.LAST_MILE, GEO_ALIGN_EVALUATOR, NavGate.threeD()),
                spec(NavMetrics.TOP_DOWN, VIEW_SYN_EVALUATOR, NavGate.topDown()),
                spec(NavMetrics.REAL_WORLD_3D, VIEW_SYN_EVALUATOR, NavGate.threeD()),
                spec(NavMetrics.SLAG, VIEW_SYN_EVALUATOR, NavGate.slag()));
    }

    private static TaskSpec spec(String task, String diagnosticEvaluator, NavGate gate) {
        // rubric id = task id
        return new TaskSpec(task, NavMetrics.FAMILY, "mmgr", MODALITIES, List.of(GEOMETRY_EVALUATOR, diagnosticEvaluator),
                Optional.of(task), gate);
    }

    @Override
    public List<Supplier<DeterministicEvaluator>> evaluators() {
        return List.of(NavGeometryEvaluator::new, GeoAlignEvaluator::new, ViewSynEvaluator::new);
    }

    @Override
    public List<JudgeRubric> rubrics() {
        return List.of(new NavRubric(NavMetrics.LAST_MILE), new NavRubric(NavMetrics.TOP_DOWN),
                new NavRubric(NavMetrics.REAL_WORLD_3D), new NavRubric(NavMetrics.SLAG));
    }

    /** Table 5: the judge against human raters, for Veo-3 and Nano-banana Pro. */
    @Override
    public List<AgreementPrior> agreementPriors() {
        return List.of(
                judge(NavMetrics.REAL_WORLD_3D, 0.7533, 0.2167),
                judge(NavMetrics.LAST_MILE, 0.5350, 0.3000),
                judge(NavMetrics.TOP_DOWN, 0.7915, 0.5169),
                judge(NavMetrics.SLAG, 0.8845, 0.6239));
    }

    private static AgreementPrior judge(String task, double veo3, double nanoBananaPro) {
        return new AgreementPrior(task, AgreementPrior.JUDGE, Map.of("Veo-3", veo3, "Nano-banana Pro", nanoBananaPro));
    }

    @Override
    public List<Object> evalCommands() {
        return List.of(new EvalNavCommand());
    }
}
