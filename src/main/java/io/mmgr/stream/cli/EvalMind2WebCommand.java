package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.tasks.magma.Box;
import io.mmgr.stream.tasks.magma.Point;
import io.mmgr.stream.tasks.magma.UiStepMetrics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr eval mind2web --steps FILE.jsonl}: Mind2Web step metrics with the stream's own code. */
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
        EpisodeSteps<UiStepMetrics.Gold, UiStepMetrics.Prediction> grouped = new EpisodeSteps<>();
        for (JsonlInput.Line line : JsonlInput.read(steps)) {
            JsonNode n = line.node();
            String episode = JsonlInput.requiredText(line, n, "episode");
            int step = JsonlInput.requiredInt(line, n, "step");
            JsonNode g = JsonlInput.object(line, n, "gold");
            List<Double> bbox = JsonlInput.numbers(line, g, "bbox");
            UiStepMetrics.Gold gold = JsonlInput.convert(line, "gold", () -> new UiStepMetrics.Gold(
                    JsonlInput.text(line, g, "element"), bbox == null ? null : Box.of(bbox),
                    JsonlInput.text(line, g, "op"), JsonlInput.text(line, g, "value")));
            UiStepMetrics.Prediction prediction = null;
            JsonNode p = n.get("pred");
            if (p != null && !p.isNull()) {
                if (!p.isObject()) {
                    throw line.error("'pred' must be an object");
                }
                List<Double> point = JsonlInput.numbers(line, p, "point");
                prediction = JsonlInput.convert(line, "pred", () -> new UiStepMetrics.Prediction(
                        JsonlInput.text(line, p, "element"), point == null ? null : Point.of(point),
                        JsonlInput.text(line, p, "op"), JsonlInput.text(line, p, "value")));
            }
            grouped.add(line, episode, step, gold, prediction);
        }

        List<UiStepMetrics.EpisodeResult> results = new ArrayList<>();
        for (EpisodeSteps.Episode<UiStepMetrics.Gold, UiStepMetrics.Prediction> e : grouped.episodes()) {
            results.add(UiStepMetrics.scoreEpisode(e.predictions(), e.gold()));
        }
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
