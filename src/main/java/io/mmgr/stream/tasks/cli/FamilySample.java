package io.mmgr.stream.tasks.cli;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.PartEvaluation;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * What a family's {@code eval} command prints of one sample it built from its flags: the sample went
 * through {@link SampleScorer} like any other, and the command shows one evaluator's own metrics (bare
 * names, in its order) beside the gate's primary.
 *
 * @param outcome the evaluator's metrics and diagnostics
 * @param gate    the task's gate as a judge-less stream computes it
 */
public record FamilySample(EvaluationOutcome outcome, GateResult gate) {

    /**
     * A scorer of every task with only this family's evaluator: the family's task plans nothing else,
     * and the command does not pay for instantiating every evaluator in the build (OCR engines, decoders).
     */
    public static SampleScorer scorer(String evaluator, Supplier<DeterministicEvaluator> factory) {
        return new SampleScorer(TaskCatalog.load(), new EvaluatorRegistry(Map.of(evaluator, factory)));
    }

    /**
     * Scores the sample and returns {@code evaluator}'s part with the gate.
     *
     * @throws EvaluationException with the reason intake would reject the event, the evaluator is
     *                             unavailable, or it failed
     */
    public static FamilySample score(SampleScorer scorer, GenerationEvent event, BenchmarkItem item, ArtifactResolver artifacts,
                              String evaluator) throws EvaluationException {
        SampleScorer.Result r = scorer.score(event, item, artifacts);
        PartEvaluation run = evaluation(r, evaluator);
        if (run.failed()) {
            throw new EvaluationException(run.result().getError());
        }
        return new FamilySample(run.outcome(), r.sample().gate());
    }

    /**
     * The adapter's evaluator's typed result of each group's sample, scored in the groups' order by a
     * scorer of that evaluator alone.
     *
     * @param refused the error for a sample the stream would not score, from its group and the reason: its
     *                cases were read, so the command names the sample (an episode, a task)
     */
    public static <T> List<T> details(EvalAdapter adapter, List<EvalAdapter.Group> groups, Class<T> type,
                               BiFunction<EvalAdapter.Group, String, CliInputException> refused) {
        SampleScorer scorer = scorer(adapter.evaluator(), adapter.evaluatorFactory());
        List<T> out = new ArrayList<>(groups.size());
        for (EvalAdapter.Group g : groups) {
            try {
                out.add(score(scorer, g.sample().event(), g.sample().item(), EvalInputs.none(), adapter.evaluator())
                        .detail(type));
            } catch (EvaluationException e) {
                throw refused.apply(g, e.getMessage());
            }
        }
        return out;
    }

    /** An episode the stream would not score: its lines were checked, so this names the episode. */
    public static CliInputException episodeRefused(EvalAdapter.Group episode, String reason) {
        return new CliInputException("episode '" + episode.key() + "': " + reason);
    }

    /**
     * {@code evaluator}'s run in a scored sample, failed or not (a failure can be a result: a task the
     * official code fails as a whole).
     *
     * @throws EvaluationException with the reason intake would reject the event, or the evaluator is unavailable
     */
    public static PartEvaluation evaluation(SampleScorer.Result r, String evaluator) throws EvaluationException {
        if (r.rejected()) {
            throw new EvaluationException(r.rejection());
        }
        return r.evaluation(evaluator).orElseThrow(() ->
                new EvaluationException(r.unavailable().getOrDefault(evaluator, evaluator + " did not run")));
    }

    /** The evaluator's typed result behind its metrics (what a benchmark's set-level figures are computed from). */
    public <T> T detail(Class<T> type) {
        return outcome.detail(type).orElseThrow(() -> new IllegalStateException(
                "the evaluator attached no " + type.getSimpleName() + " to its outcome"));
    }
}
