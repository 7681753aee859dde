package io.mmgr.stream.topology.intake;

import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.Evaluations;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Light evaluations ({@link CostClass#LIGHT}: numbers and text from the event and its item) run at intake,
 * on the stream thread that plans the sample, with the evaluation worker's own code ({@link Evaluations#run}):
 * the result travels on the sample's plan, a failure is a FAILED part and a dead letter, as in the worker.
 * Their cost is bounded by the input limits (steps, points, text) and is microseconds; sending them through
 * the worker cost two serializations of the whole event and item, a produce, a consume, a worker transaction
 * and the result's own round trip, many times the evaluation itself.
 *
 * <p>A light evaluation reads no artifact: that is the cost class's contract, and what keeps a stream thread
 * off the network and the disk. It is handed {@link #NO_ARTIFACTS}, so an evaluator that declares LIGHT for an
 * event whose artifacts it then reads fails that sample with a reason saying so instead of blocking the thread.
 */
final class LightEvaluations {

    /** The artifact store a light evaluation is handed: every read is refused. */
    static final ArtifactResolver NO_ARTIFACTS = new ArtifactResolver() {
        @Override
        public byte[] read(ArtifactRef ref) throws ArtifactException {
            throw refused(ref);
        }

        @Override
        public Path file(ArtifactRef ref) throws ArtifactException {
            throw refused(ref);
        }
    };

    private LightEvaluations() {
    }

    static ArtifactException refused(ArtifactRef ref) {
        return new ArtifactException("a light evaluation runs at intake, on a stream thread, and reads no artifact, yet it asked "
                + "for the artifact of role '" + ref.getRole() + "' (an evaluator that reads an event's artifacts declares the "
                + "image or video cost class for it)");
    }

    /**
     * Runs the evaluator on the accepted event and its item: the result, and, when it failed, a dead letter
     * quoting the generation event as it arrived (stage {@code evaluate:<evaluator>}, as the worker's).
     */
    static Evaluations.Outcome run(String id, DeterministicEvaluator evaluator, SampleKey key, IntakeResult.Accepted a) {
        EvaluationRequest request = new EvaluationRequest(a.generationId(), id, a.event(), a.item());
        RawRecord raw = a.raw();
        Evaluations.Source source = raw.source()
                .map(m -> new Evaluations.Source(m.topic(), m.partition(), m.offset())).orElse(null);
        Evaluations.Outcome outcome = Evaluations.run(Optional.of(evaluator), key, request, NO_ARTIFACTS, source,
                raw.key(), raw.value());
        return outcome.letter() == null ? outcome : new Evaluations.Outcome(outcome.result(), raw.fill(outcome.letter()));
    }
}
