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
 *               anything else for an evaluator that broke; an {@link ArtifactUnavailableException} when it
 *               could not run yet ({@link #pending()})
 */
public record PartEvaluation(DeterministicResult result, EvaluationOutcome outcome, Throwable error) {

    /** No metrics: it failed, or is {@link #pending()}. */
    public boolean failed() {
        return error != null;
    }

    /** No result yet: an artifact's store could not be reached, and the evaluation is to be tried again. */
    public boolean pending() {
        return result.getPending() != null;
    }

    /** Runs {@code evaluator} on the request's generation and item. */
    public static PartEvaluation run(DeterministicEvaluator evaluator, EvaluationRequest request, ArtifactResolver artifacts) {
        long start = System.nanoTime();
        try {
            EvaluationOutcome outcome = evaluator.evaluate(new EvaluationContext(request.getEvent(), request.getItem(), artifacts));
            return new PartEvaluation(empty(request, evaluator.version(), micros(start))
                    .setMetrics(new HashMap<>(outcome.metrics()))
                    .setDiagnostics(new HashMap<>(outcome.diagnostics()))
                    .build(), outcome, null);
        } catch (ArtifactUnavailableException e) {
            return new PartEvaluation(waiting(request, e.getMessage(), evaluator.version(), micros(start)), null, e);
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
        return empty(request, version, micros).setError(reason).build();
    }

    /** A result that is not there yet, with why. */
    static DeterministicResult waiting(EvaluationRequest request, String reason, String version, long micros) {
        return empty(request, version, micros).setPending(reason).build();
    }

    private static DeterministicResult.Builder empty(EvaluationRequest request, String version, long micros) {
        return DeterministicResult.newBuilder()
                .setGenerationId(request.getGenerationId())
                .setEvaluator(request.getEvaluator())
                .setEvaluatorVersion(version)
                .setDurationMicros(micros)
                .setEvaluatedAt(Instant.now());
    }

    /**
     * The part a result is in a sample's assembly: OK with its metrics, ERROR with the reason, or PENDING with
     * why it waits (assembly then shows the sample as waiting, and the next result replaces this one).
     */
    public static PartResult part(DeterministicResult r) {
        PartStatus status = r.getPending() != null ? PartStatus.PENDING : r.getError() == null ? PartStatus.OK : PartStatus.ERROR;
        return PartResult.newBuilder()
                .setPart(r.getEvaluator())
                .setKind(PartKind.DETERMINISTIC.wire())
                .setSource(r.getEvaluator() + "@" + r.getEvaluatorVersion())
                .setGenerationId(r.getGenerationId())
                .setStatus(status.name())
                .setMetrics(new HashMap<>(r.getMetrics()))
                .setDetail(new HashMap<>(r.getDiagnostics()))
                .setError(status == PartStatus.PENDING ? r.getPending() : r.getError())
                .setArrivedAt(Instant.now())
                .build();
    }

    private static long micros(long startNanos) {
        return (System.nanoTime() - startNanos) / 1000;
    }
}
