package io.mmgr.stream.tasks.nav;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code geo-align} part of T5 (diagnostic, never gating): {@link GeoAlign} between the event's
 * {@code inputs.trajectory3d} and the item's {@code groundTruth.trajectory3d}. The goal is
 * {@code goal3d} (else the ground truth's last position), the success distance d_th is
 * {@code goalRadius3d} (else 3 m, the R2R / Ilharco et al. default); success is strictly within it
 * ({@link GeoAlign#succeeded}). SPL's shortest path is {@code groundTruth.extra.shortestPathLength},
 * else the start-to-goal distance ({@link GeoAlign#startToGoal}). An item without a ground-truth
 * trajectory, or an event without a predicted one, gets null metrics and a diagnostic: the suite is
 * diagnostic, so its absence never keeps a sample from its gated score.
 */
public final class GeoAlignEvaluator implements DeterministicEvaluator {

    public static final String ID = NavMetrics.GEO_ALIGN_EVALUATOR;

    @Override
    public String id() {
        return ID;
    }

    /** Numbers from the event: no artifact is read. */
    @Override
    public CostClass costClass(GenerationEvent event, BenchmarkItem item) {
        return CostClass.LIGHT;
    }

    @Override
    public String version() {
        return "2"; // 2: success strictly inside d_th; SPL falls back to the start-to-goal distance
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        try {
            NavInputs.eventTrack(event, true);
        } catch (EvaluationException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        BenchmarkItem item = context.item();
        Optional<Track> predicted = NavInputs.eventTrack(context.event(), true);
        Optional<Track> truth = NavInputs.truthTrack(item, true);
        Map<String, String> diag = new LinkedHashMap<>();
        diag.put("higher_is_better", String.join(",", GeoAlign.HIGHER_IS_BETTER));
        diag.put("lower_is_better", String.join(",", GeoAlign.LOWER_IS_BETTER));
        if (predicted.isEmpty() || truth.isEmpty()) {
            Map<String, Double> none = new LinkedHashMap<>();
            for (String k : GeoAlign.HIGHER_IS_BETTER) {
                none.put(k, null);
            }
            for (String k : GeoAlign.LOWER_IS_BETTER) {
                none.put(k, null);
            }
            none.put(GeoAlign.PATH_LENGTH_PRED, null);
            none.put(GeoAlign.PATH_LENGTH_GT, null);
            diag.put("not_computed", predicted.isEmpty() ? "the event has no inputs.trajectory3d"
                    : "the benchmark item has no groundTruth.trajectory3d");
            return new EvaluationOutcome(none, diag);
        }
        Optional<Vec> given = NavInputs.goal3d(item);
        Vec goal = given.orElse(truth.get().last());
        double dth = NavInputs.goalRadius(item).orElse(NavThresholds.DEFAULT_SUCCESS_DISTANCE);
        diag.put("goal", given.isPresent() ? "groundTruth.goal3d" : "the ground truth's last position (no groundTruth.goal3d)");
        String spl = NavInputs.extra(item).get("shortestPathLength");
        Double shortest = spl == null ? null : NavInputs.number(item, "shortestPathLength", 0);
        diag.put("success_distance", Double.toString(dth));
        diag.put("spl_shortest_path", shortest != null ? "groundTruth.extra.shortestPathLength"
                : "straight line from the ground truth's start to the goal");
        diag.put("association", predicted.get().frames().equals(truth.get().frames()) ? "by frame" : "by normalized time");
        return new EvaluationOutcome(GeoAlign.compute(predicted.get(), truth.get(), goal, dth, shortest), diag);
    }
}
