package io.mmgr.stream.tasks.nav;

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
    public List<TaskSpec> tasks() {
        return List.of(
                spec(NavMetrics.LAST_MILE, GEO_ALIGN_EVALUATOR, NavGate.threeD()),
                spec(NavMetrics.TOP_DOWN, VIEW_SYN_EVALUATOR, NavGate.topDown()),
                spec(NavMetrics.REAL_WORLD_3D, VIEW_SYN_EVALUATOR, NavGate.threeD()),
                spec(NavMetrics.SLAG, VIEW_SYN_EVALUATOR, NavGate.slag()));
    }

    private static TaskSpec spec(String task, String diagnosticEvaluator, NavGate gate) {
        // rubric id = task id
        return new TaskSpec(task, "nav", "mmgr", MODALITIES, List.of(GEOMETRY_EVALUATOR, diagnosticEvaluator),
                Optional.of(task), gate);
    }
}
