package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.contract.SampleKeys;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One evaluation request in; its result and, when the generation could not be evaluated, a dead letter
 * out. A failed evaluation yields both, so that the sample's score shows the failure instead of waiting
 * forever. The worker's pools, intake's light evaluations ({@code topology.intake.LightEvaluations}) and the
 * topology tests call this same code.
 */
public final class Evaluations {

    private static final Logger LOG = LoggerFactory.getLogger(Evaluations.class);

    private Evaluations() {
    }

    /**
     * What an evaluation produced: the result (null when the request itself was unreadable) and a dead
     * letter (null when it succeeded, or is {@link #pending()}).
     */
    public record Outcome(DeterministicResult result, DeadLetter letter) {

        /** The evaluation could not run yet (an artifact store out of reach): its result says why, and it is tried again. */
        public boolean pending() {
            return result != null && result.getPending() != null;
        }
    }

    /** Where a request was read: topic, partition and offset, as dead letters record them. */
    public record Source(String topic, int partition, long offset) implements RecordMetadata {
    }

    /** A request that could not be read at all: a dead letter only (there is no sample to fail). */
    public static Outcome unreadable(Source source, byte[] key, byte[] value, Throwable error) {
        return new Outcome(null, DeadLetters.of(Optional.<RecordMetadata>of(source), "evaluate",
                "unreadable evaluation request: " + DeadLetters.describe(error), error, key, value, null));
    }

    /**
     * Runs the evaluator (empty: not installed in this build) on the request.
     *
     * @param key    the sample
     * @param rawKey the request's bytes, for the dead letter
     */
    public static Outcome run(Optional<DeterministicEvaluator> evaluator, SampleKey key, EvaluationRequest request,
                              ArtifactResolver artifacts, Source source, byte[] rawKey, byte[] rawValue) {
        String id = request.getEvaluator();
        if (evaluator.isEmpty()) {
            return failed(key, request, "evaluator '" + id + "' is not installed in this build", "?", null,
                    source, rawKey, rawValue, 0);
        }
        PartEvaluation run = PartEvaluation.run(evaluator.get(), request, artifacts);
        if (!run.failed() || run.pending()) {
            // done, or waiting for an artifact's store (nothing is lost, so no dead letter)
            return new Outcome(run.result(), null);
        }
        if (!(run.error() instanceof EvaluationException)) {
            LOG.warn("evaluator {} failed on {}", id, SampleKeys.ref(key), run.error());
        }
        return new Outcome(run.result(), letter(key, request, run.result().getError(), run.error(), source, rawKey, rawValue));
    }

    /** A FAILED result with the reason, and its dead letter. */
    public static Outcome failed(SampleKey key, EvaluationRequest request, String reason, String version, Throwable error,
                                 Source source, byte[] rawKey, byte[] rawValue, long micros) {
        return new Outcome(PartEvaluation.failed(request, reason, version, micros),
                letter(key, request, reason, error, source, rawKey, rawValue));
    }

    private static DeadLetter letter(SampleKey key, EvaluationRequest request, String reason, Throwable error,
                                     Source source, byte[] rawKey, byte[] rawValue) {
        return DeadLetters.of(Optional.<RecordMetadata>ofNullable(source), "evaluate:" + request.getEvaluator(), reason, error,
                rawKey, rawValue, SampleKeys.ref(key));
    }
}
