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
 * {@code magma-aitw}: one AITW episode scored by action matching (see {@link AitwActionMatching}).
 * The gold steps carry their screen's annotation boxes ({@code screenBoxes}); predicted steps need
 * an op, and a {@code DUAL_POINT} needs its normalized touch point. Missing steps are not matched;
 * extra steps are not scored; an empty predicted step (no field set) is one the model did not produce,
 * and is not matched. The episode's result is the outcome's detail, for {@code eval aitw}'s counts.
 */
public final class AitwEvaluator extends EventRecordEvaluator {

    public static final String ID = "magma-aitw";

    public AitwEvaluator() {
        super(ID, "1");
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        return DeterministicEvaluator.problemOf(() -> {
            MagmaRecords.aitwGold(item);
            MagmaRecords.aitwPredictions(event);
        });
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        List<AitwActionMatching.GoldStep> gold = MagmaRecords.aitwGold(context.item());
        List<AitwActionMatching.Action> predicted = MagmaRecords.aitwPredictions(context.event());
        AitwActionMatching.EpisodeResult r = AitwActionMatching.scoreEpisode(predicted, gold);

        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put(MagmaMetrics.ACTION_MATCH_ACCURACY, r.accuracy());
        // Magma's name for the same fraction of matched steps
        metrics.put(MagmaMetrics.STEP_SUCCESS_RATE, r.accuracy());
        metrics.put(MagmaMetrics.TASK_SUCCESS, r.taskSuccess() ? 1.0 : 0.0);
        metrics.put(MagmaMetrics.STEPS, (double) r.matched().size());

        Map<String, String> diagnostics = new LinkedHashMap<>();
        diagnostics.put("predicted_steps", Integer.toString(r.predictedSteps()));
        diagnostics.put("missing_steps", Integer.toString(Math.max(0, gold.size() - predicted.size())));
        diagnostics.put("extra_predicted_steps", Integer.toString(Math.max(0, predicted.size() - gold.size())));
        diagnostics.put("unmatched_steps", failedIndices(r.matched(), matched -> matched));
        return new EvaluationOutcome(metrics, diagnostics, r);
    }
}
