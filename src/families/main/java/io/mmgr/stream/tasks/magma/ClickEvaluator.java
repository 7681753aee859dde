package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code magma-click}: one ScreenSpot instruction. The prediction is {@code inputs.uiActions[0].point};
 * the gold is {@code groundTruth.targetBox} and {@code elementKind}. The per-kind metric of the other
 * kind is null (not applicable), so leaderboard means per kind count only samples of that kind. The
 * scored click is the outcome's detail, for {@code eval screenspot}'s counts.
 */
public final class ClickEvaluator extends EventRecordEvaluator {

    public static final String ID = "magma-click";

    public ClickEvaluator() {
        super(ID, "1");
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        return DeterministicEvaluator.problemOf(() -> {
            MagmaRecords.screenSpotTarget(item);
            MagmaRecords.screenSpotKind(item);
            MagmaRecords.screenSpotClick(event);
        });
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        Box target = MagmaRecords.screenSpotTarget(context.item());
        ClickAccuracy.Kind kind = MagmaRecords.screenSpotKind(context.item());
        Point click = MagmaRecords.screenSpotClick(context.event());
        ClickAccuracy.Click scored = ClickAccuracy.score(click, target, kind);
        double correct = scored.correct() ? 1.0 : 0.0;

        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put(MagmaMetrics.CLICK_CORRECT, correct);
        metrics.put(MagmaMetrics.CLICK_CORRECT_TEXT, kind == ClickAccuracy.Kind.TEXT ? correct : null);
        metrics.put(MagmaMetrics.CLICK_CORRECT_ICON, kind == ClickAccuracy.Kind.ICON ? correct : null);
        Map<String, String> diagnostics = new LinkedHashMap<>();
        diagnostics.put("element_kind", kind.label());
        int actions = context.event().getInputs().getUiActions().size();
        if (actions > 1) {
            diagnostics.put("ignored_actions", Integer.toString(actions - 1));
        }
        return new EvaluationOutcome(metrics, diagnostics, scored);
    }
}
