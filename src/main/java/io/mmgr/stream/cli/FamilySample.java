package io.mmgr.stream.cli;

import io.mmgr.stream.artifacts.ArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.PartEvaluation;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskCatalog;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a family's {@code eval} command prints of one sample it built from its flags: the sample went
 * through {@link SampleScorer} like any other, and the command shows one evaluator's own metrics (bare
 * names, in its order) beside the gate's primary, or the one reason it could not be scored.
 *
 * @param outcome the evaluator's metrics and diagnostics (null with an error)
 * @param gate    the task's gate as a judge-less stream computes it (null with an error)
 * @param error   the precheck's or the evaluator's reason, or null
 */
record FamilySample(EvaluationOutcome outcome, GateResult gate, String error) {

    /** Identifiers of the event and item an adapter builds: intake refuses blank ones and any '/'. */
    static final String CLI = "cli";

    /**
     * A scorer of every task with only this family's evaluator: the family's task plans nothing else,
     * and the command does not pay for instantiating every evaluator in the build (OCR engines, decoders).
     */
    static SampleScorer scorer(String evaluator, Supplier<DeterministicEvaluator> factory) {
        return new SampleScorer(TaskCatalog.load(), new EvaluatorRegistry(Map.of(evaluator, factory)));
    }

    static FamilySample score(SampleScorer scorer, GenerationEvent event, BenchmarkItem item, ArtifactResolver artifacts,
                              String evaluator) {
        SampleScorer.Result r = scorer.score(event, item, artifacts);
        if (r.rejected()) {
            return new FamilySample(null, null, r.rejection());
        }
        PartEvaluation run = r.evaluation(evaluator).orElse(null);
        if (run == null) {
            return new FamilySample(null, null, r.unavailable().getOrDefault(evaluator, evaluator + " did not run"));
        }
        if (run.failed()) {
            return new FamilySample(null, null, run.result().getError());
        }
        return new FamilySample(run.outcome(), r.sample().gate(), null);
    }
}
