package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.PartResult;
import io.mmgr.stream.contract.MetricKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One sample scored the way the stream scores it, without Kafka: the intake's checks
 * ({@link EventValidator}, then the evaluators' prechecks in {@link PartPlan}), the task's deterministic
 * evaluators ({@link PartEvaluation}), and the assembly's gate ({@link GatedSample}). The judged part
 * is unavailable ("no judge configured"), as in a stream started without a judge, so a judged task
 * comes out PARTIAL with the judge's checks missing. The {@code eval} commands score with this.
 *
 * <p>Keeps one instance of each evaluator it has used (evaluators may hold engines): use one scorer per thread.
 */
public final class SampleScorer {

    /** The generation id the stream derives from the event's bytes; offline there are none. */
    static final String GENERATION_ID = "eval";

    private final TaskCatalog catalog;
    private final EventValidator validator;
    private final Function<String, Optional<DeterministicEvaluator>> evaluators;

    public SampleScorer(TaskCatalog catalog, EvaluatorRegistry evaluators) {
        this.catalog = catalog;
        this.evaluators = evaluators.instances();
        this.validator = new EventValidator(catalog);
    }

    /** The scorer of every task and evaluator on the class path. */
    public static SampleScorer load() {
        return new SampleScorer(TaskCatalog.load(), EvaluatorRegistry.load());
    }

    public TaskCatalog catalog() {
        return catalog;
    }

    /**
     * What scoring produced: either the reason intake would dead-letter the event, or the sample as
     * assembled.
     *
     * @param rejection   why the event cannot be scored, or null
     * @param sample      the gated sample (null when rejected)
     * @param unavailable parts that cannot arrive, with the reason (empty when rejected)
     * @param evaluations each planned evaluator's result, in plan order (empty when rejected)
     */
    public record Result(String rejection, GatedSample sample, Map<String, String> unavailable,
                         List<PartEvaluation> evaluations) {

        public Result {
            unavailable = Map.copyOf(unavailable);
            evaluations = List.copyOf(evaluations);
        }

        static Result rejected(String reason) {
            return new Result(reason, null, Map.of(), List.of());
        }

        public boolean rejected() {
            return rejection != null;
        }

        /** The metrics of a planned part that it cannot give this sample, by bare name, with the reason. */
        public Map<String, String> unavailableMetrics(String part) {
            Map<String, String> out = new TreeMap<>();
            unavailable.forEach((key, why) -> MetricKey.tryParse(key).filter(k -> k.isOf(part))
                    .ifPresent(k -> out.put(k.name(), why)));
            return out;
        }

        /** The evaluation of this evaluator, if it was planned. */
        public Optional<PartEvaluation> evaluation(String evaluator) {
            return evaluations.stream().filter(e -> e.result().getEvaluator().equals(evaluator)).findFirst();
        }
    }

    /**
     * Scores one generation against its benchmark item (the item intake would join it with: same task
     * and sample id).
     */
    public Result score(GenerationEvent event, BenchmarkItem item, ArtifactResolver artifacts) {
        Optional<String> invalid = validator.problem(event);
        if (invalid.isPresent()) {
            return Result.rejected(invalid.get());
        }
        TaskSpec spec = catalog.find(event.getTask()).orElseThrow();
        PartPlan plan = PartPlan.of(spec, evaluators, event, item, false);
        if (plan.rejected()) {
            return Result.rejected(plan.rejection());
        }
        List<PartEvaluation> evaluations = new ArrayList<>();
        List<PartResult> parts = new ArrayList<>();
        for (String id : plan.planned()) {
            PartEvaluation run = PartEvaluation.run(evaluators.apply(id).orElseThrow(),
                    new EvaluationRequest(GENERATION_ID, id, event, item), artifacts);
            evaluations.add(run);
            parts.add(PartEvaluation.part(run.result()));
        }
        GatedSample sample = GatedSample.of(event.getTask(), Optional.of(spec), event.getModality(), parts,
                plan.unavailable(), false);
        return new Result(null, sample, plan.unavailable(), evaluations);
    }

}
