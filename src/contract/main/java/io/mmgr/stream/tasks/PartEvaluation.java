package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.PartResult;
import io.mmgr.stream.contract.PartKind;
import io.mmgr.stream.contract.PartStatus;
import io.mmgr.stream.contract.Reasons;
import java.time.Instant;
import java.util.HashMap;

/**
 * One deterministic evaluator on one generation, as its result record: the metrics, or a FAILED result
 * with the reason (never an exception, so a sample fails instead of the queue). The evaluation worker
 * wraps this with its dead letters; {@link SampleScorer} uses it as it is.
 *
 * @param result  what the evaluation produced
 * @param outcome the evaluator's own metrics and diagnostics, in its order (null when it failed)
 * @param error   why it failed (null when it succeeded): an {@link EvaluationException} for bad input,
 *               anything else for an evaluator that broke
 */
public record PartEvaluation(DeterministicResult result, EvaluationOutcome outcome, Throwable error) {

    public boolean failed() {
        return error != null;
    }

    /** Runs {@code evaluator} on the request's generation and item. */
    public static PartEvaluation run(DeterministicEvaluator evaluator, EvaluationRequest request, ArtifactResolver artifacts) {
        long start = System.nanoTime();
        try {
            EvaluationOutcome outcome = evaluator.evaluate(new EvaluationContext(request.getEvent(), request.getItem(), artifacts));
            return new PartEvaluation(DeterministicResult.newBuilder()
                    .setGenerationId(request.getGenerationId())
                    .setEvaluator(request.getEvaluator())
                    .setEvaluatorVersion(evaluator.version())
                    .setMetrics(new HashMap<>(outcome.metrics()))
                    .setDiagnostics(new HashMap<>(outcome.diagnostics()))
                    .setDurationMicros(micros(start))
                    .setEvaluatedAt(Instant.now())
                    .build(), outcome, null);
        } catch (EvaluationException e) {
            return new PartEvaluation(failed(request, e.getMessage(), evaluator.version(), micros(start)), null, e);
        } catch (RuntimeException | Error e) {
            // an Error too (a native library that will not load, the heap): the sample fails, the queue goes on
            return new PartEvaluation(failed(request, "evaluator failed unexpectedly: " + Reasons.describe(e),
                    evaluator.version(), micros(start)), null, e);
        }
    }

    /** A FAILED result with the reason. */
    public static DeterministicResult failed(EvaluationRequest request, String reason, String version, long micros) {
        return DeterministicResult.newBuilder()
                .setGenerationId(request.getGenerationId())
                .setEvaluator(request.getEvaluator())
                .setEvaluatorVersion(version)
                .setError(reason)
                .setDurationMicros(micros)
                .setEvaluatedAt(Instant.now())
                .build();
    }

    /** The part a result is in a sample's assembly: OK with its metrics, or ERROR with the reason. */
    public static PartResult part(DeterministicResult r) {
        return PartResult.newBuilder()
                .setPart(r.getEvaluator())
                .setKind(PartKind.DETERMINISTIC.wire())
                .setSource(r.getEvaluator() + "@" + r.getEvaluatorVersion())
                .setGenerationId(r.getGenerationId())
                .setStatus((r.getError() == null ? PartStatus.OK : PartStatus.ERROR).name())
                .setMetrics(new HashMap<>(r.getMetrics()))
                .setDetail(new HashMap<>(r.getDiagnostics()))
                .setError(r.getError())
                .setArrivedAt(Instant.now())
                .build();
    }

    private static long micros(long startNanos) {
        return (System.nanoTime() - startNanos) / 1000;
    }
}
