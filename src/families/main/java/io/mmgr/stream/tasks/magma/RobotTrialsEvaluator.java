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
 * {@code robot-trials}: one robot task's trials (LIBERO, SimplerEnv). The success rate is computed
 * over the trials that arrived; a count that differs from the protocol is flagged, not rejected, so
 * a short run still shows up, marked as not comparable. The result is the outcome's detail, for the
 * per-suite roll-up of {@code eval robot}.
 */
public final class RobotTrialsEvaluator extends EventRecordEvaluator {

    public static final String ID = "robot-trials";

    public RobotTrialsEvaluator() {
        super(ID, "1");
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        return DeterministicEvaluator.problemOf(() -> MagmaRecords.robotResult(event, item));
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        RobotTrialMetrics.Result r = MagmaRecords.robotResult(context.event(), context.item());
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put(MagmaMetrics.SUCCESS_RATE, r.successRate());
        metrics.put(MagmaMetrics.TRIALS, (double) r.trials());
        metrics.put(MagmaMetrics.PROTOCOL_TRIALS, (double) r.protocolTrials());
        metrics.put(MagmaMetrics.TRIAL_COUNT_MISMATCH, r.trialCountMismatch() ? 1.0 : 0.0);
        return new EvaluationOutcome(metrics, Map.of("successes", Integer.toString(r.successes())), r);
    }
}
