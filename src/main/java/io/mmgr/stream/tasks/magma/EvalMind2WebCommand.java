package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.cli.FamilySample;
import io.mmgr.stream.tasks.cli.JsonOutput;
import io.mmgr.stream.tasks.cli.JsonlInput;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval mind2web --steps FILE.jsonl}: Mind2Web step metrics. The file's lines are cases of
 * the family's input adapter (tasks/magma/Mind2WebEvalCase): each episode becomes the event and item the
 * stream would get, scored by {@link SampleScorer}; the summary aggregates the episodes' results as
 * Mind2Web reports them.
 */
@Command(name = "mind2web", mixinStandardHelpOptions = true,
        description = "Score Mind2Web episodes: element selection accuracy, operation F1, step and task success.",
        footer = {"",
                "Each line of FILE is one gold step and the model's prediction for it:",
                "  {\"episode\":\"e1\",\"step\":0,",
                "   \"gold\":{\"element\":\"a\",\"bbox\":[x1,y1,x2,y2],",
                "           \"op\":\"TYPE\",\"value\":\"new york\"},",
                "   \"pred\":{\"element\":\"a\",\"op\":\"TYPE\",\"value\":\"New York\"}}",
                "gold needs element and/or bbox, and op; pred needs element and/or",
                "point:[x,y]. A missing or null pred is a step the model did not predict",
                "(it fails). Steps of an episode run 0, 1, 2, ... without gaps.",
                "Prints one JSON object: the macro averages over episodes (as Mind2Web",
                "reports them), task_success_rate, the counts, and the pooled per-step",
                "figures under 'micro'."})
public final class EvalMind2WebCommand implements Callable<Integer> {

    @Option(names = "--steps", required = true, paramLabel = "FILE.jsonl", description = "gold and predicted steps, one per line")
    Path steps;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        // the family's adapter checks each line with the stream's own step rules, so a bad one is named by its number
        EvalAdapter adapter = TaskFamily.evalAdapter("mind2web");
        List<UiStepMetrics.EpisodeResult> results = FamilySample.details(adapter, JsonlInput.samples(adapter, steps),
                UiStepMetrics.EpisodeResult.class, FamilySample::episodeRefused);
        UiStepMetrics.Summary s = UiStepMetrics.summarize(results);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("element_selection_accuracy", s.elementSelectionAccuracy());
        out.put("operation_f1", s.operationF1());
        out.put("step_success_rate", s.stepSuccessRate());
        out.put("task_success_rate", s.taskSuccessRate());
        out.put("episodes", s.episodes());
        out.put("steps", s.steps());
        out.put("aggregation", "macro over episodes");
        Map<String, Object> micro = new LinkedHashMap<>();
        micro.put("element_selection_accuracy", s.microElementSelectionAccuracy());
        micro.put("operation_f1", s.microOperationF1());
        micro.put("step_success_rate", s.microStepSuccessRate());
        out.put("micro", micro);
        spec.commandLine().getOut().println(JsonOutput.line(out));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
