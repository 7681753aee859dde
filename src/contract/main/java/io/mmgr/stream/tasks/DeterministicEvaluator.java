package io.mmgr.stream.tasks;

import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import java.util.Map;
import java.util.Optional;

/**
 * A deterministic (non-judge) evaluator: computer vision, geometry or rule-based metrics.
 * Implementations are plain Java (no Kafka), listed by their {@link TaskFamily}; the stream,
 * the {@code eval} commands and the tests all call the same code. One instance serves one stream
 * thread at a time; keep per-call state on the stack.
 *
 * <p>Each evaluator declares a {@link CostClass} per event ({@link #costClass}). Light evaluations run at
 * intake, on the stream thread that plans the sample, and must read no artifact (they are handed a resolver
 * that refuses every read); image and video evaluations run on the evaluation worker's pools, one per class,
 * never on a stream thread.
 */
public interface DeterministicEvaluator {

    /** Part name in the assembly, e.g. {@code maze-pixel}, {@code magma-ui}. */
    String id();

    /** Bumped whenever a change can alter a metric's value. */
    String version();

    /**
     * Cheap validation done at intake, before anything is queued: a present value is the
     * reason the event cannot be scored (it goes to the dead-letter topic).
     */
    default Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        return Optional.empty();
    }

    /**
     * Metrics this evaluator cannot give this sample while it gives the others, by bare name, each with
     * its reason: what the benchmark item lacks for them alone (a navigation item without a 3D target has
     * no Success Score 3D, but its trajectory errors). Called at intake once {@link #precheck} passed; the
     * part still runs and reports them as null, and the sample names each as unavailable and is PARTIAL,
     * as a judged task's is when no judge is configured. Cheap, like the precheck.
     */
    default Map<String, String> unavailableMetrics(GenerationEvent event, BenchmarkItem item) {
        return Map.of();
    }

    /**
     * What evaluating this event costs: {@link CostClass#LIGHT} runs at once at intake, the others queue
     * with work of their kind. Called at intake: it must be cheap, read only the records and keep no state.
     * Declare IMAGE or VIDEO whenever the evaluation reads an artifact.
     */
    CostClass costClass(GenerationEvent event, BenchmarkItem item);

    /** Scores one generation. Throws {@link EvaluationException} with a user-facing reason on bad input. */
    EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException;

    /** Input parsing that an evaluation starts with, run alone. */
    @FunctionalInterface
    interface InputCheck {
        void run() throws EvaluationException;
    }

    /**
     * A precheck made of the same parsing {@link #evaluate} starts with, so the two can never
     * disagree: the parser's reason when it refuses the input, else empty.
     */
    static Optional<String> problemOf(InputCheck check) {
        try {
            check.run();
            return Optional.empty();
        } catch (EvaluationException e) {
            return Optional.of(e.getMessage());
        }
    }
}
