package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code magma-ui}: one Mind2Web episode (predicted steps in {@code inputs.uiActions}, gold steps in
 * {@code groundTruth.uiSteps}). A prediction with fewer steps than gold fails the missing ones;
 * steps beyond the gold count are not scored and are reported in the diagnostics. An empty predicted
 * step (no field set) is a step the model did not produce: it fails, as Mind2Web's {@code metric.py}
 * scores a step without a prediction. The step results are the outcome's detail, for
 * {@code eval mind2web}'s pooled (micro) figures.
 */
public final class MagmaUiEvaluator extends EventRecordEvaluator {

    public static final String ID = "magma-ui";

    public MagmaUiEvaluator() {
        super(ID, "1");
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        return DeterministicEvaluator.problemOf(() -> {
            MagmaRecords.mind2webGold(item);
            MagmaRecords.mind2webPredictions(event);
        });
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        List<UiStepMetrics.Gold> gold = MagmaRecords.mind2webGold(context.item());
        List<UiStepMetrics.Prediction> predicted = MagmaRecords.mind2webPredictions(context.event());
        UiStepMetrics.EpisodeResult r = UiStepMetrics.scoreEpisode(predicted, gold);

        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put(MagmaMetrics.ELEMENT_SELECTION_ACCURACY, r.elementSelectionAccuracy());
        metrics.put(MagmaMetrics.OPERATION_F1, r.operationF1());
        metrics.put(MagmaMetrics.STEP_SUCCESS_RATE, r.stepSuccessRate());
        metrics.put(MagmaMetrics.TASK_SUCCESS, r.taskSuccess() ? 1.0 : 0.0);
        metrics.put(MagmaMetrics.STEPS, (double) r.steps().size());

        Map<String, String> diagnostics = new LinkedHashMap<>();
        diagnostics.put("predicted_steps", Integer.toString(r.predictedSteps()));
        diagnostics.put("missing_steps", Integer.toString(r.missingSteps()));
        diagnostics.put("extra_predicted_steps", Integer.toString(r.extraPredictedSteps()));
        diagnostics.put("failed_steps", failedIndices(r.steps(), step -> step.success()));
        return new EvaluationOutcome(metrics, diagnostics, r);
    }
}
