package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.tasks.magma.AitwActionMatching;
import io.mmgr.stream.tasks.magma.Point;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr eval aitw --steps FILE.jsonl}: AITW action matching with the stream's own code. */
@Command(name = "aitw", mixinStandardHelpOptions = true,
        description = "Score AITW episodes by action matching (google-research android_in_the_wild rules).",
        footer = {"",
                "Each line of FILE is one gold step and the model's prediction for it:",
                "  {\"episode\":\"e1\",\"step\":0,",
                "   \"gold\":{\"op\":\"DUAL_POINT\",\"point\":[x,y],\"liftPoint\":[x,y],",
                "           \"screenBoxes\":[[y,x,height,width],...]},",
                "   \"pred\":{\"op\":\"DUAL_POINT\",\"point\":[x,y],\"liftPoint\":[x,y]}}",
                "Points are [x, y] normalized to [0, 1]; screen boxes are AITW's",
                "(y, x, height, width). op is an AITW action type: DUAL_POINT, TYPE,",
                "PRESS_BACK, PRESS_HOME, PRESS_ENTER, STATUS_TASK_COMPLETE,",
                "STATUS_TASK_IMPOSSIBLE; a typed value is not compared (as the reference).",
                "A missing liftPoint means a tap at point. A missing or null pred fails",
                "the step. Steps of an episode run 0, 1, 2, ... without gaps.",
                "Prints one JSON object: action_match_accuracy (matched steps / steps),",
                "step_success_rate (the same value, Magma's name), task_success_rate",
                "and the counts."})
public final class EvalAitwCommand implements Callable<Integer> {

    @Option(names = "--steps", required = true, paramLabel = "FILE.jsonl", description = "gold and predicted steps, one per line")
    Path steps;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        EpisodeSteps<AitwActionMatching.GoldStep, AitwActionMatching.Action> grouped = new EpisodeSteps<>();
        for (JsonlInput.Line line : JsonlInput.read(steps)) {
            JsonNode n = line.node();
            String episode = JsonlInput.requiredText(line, n, "episode");
            int step = JsonlInput.requiredInt(line, n, "step");
            JsonNode g = JsonlInput.object(line, n, "gold");
            AitwActionMatching.Action goldAction = action(line, g, "gold");
            List<AitwActionMatching.ScreenBox> boxes = new ArrayList<>();
            JsonNode sb = g.get("screenBoxes");
            if (sb != null && !sb.isNull()) {
                if (!sb.isArray()) {
                    throw line.error("gold: 'screenBoxes' must be an array of [y, x, height, width]");
                }
                for (JsonNode b : sb) {
                    List<Double> yxhw = JsonlInput.numberArray(line, b, "screenBoxes");
                    boxes.add(JsonlInput.convert(line, "gold", () -> AitwActionMatching.ScreenBox.of(yxhw)));
                }
            }
            AitwActionMatching.GoldStep gold = JsonlInput.convert(line, "gold",
                    () -> new AitwActionMatching.GoldStep(goldAction, boxes));
            AitwActionMatching.Action prediction = null;
            JsonNode p = n.get("pred");
            if (p != null && !p.isNull()) {
                if (!p.isObject()) {
                    throw line.error("'pred' must be an object");
                }
                prediction = action(line, p, "pred");
            }
            grouped.add(line, episode, step, gold, prediction);
        }

        List<AitwActionMatching.EpisodeResult> results = new ArrayList<>();
        for (EpisodeSteps.Episode<AitwActionMatching.GoldStep, AitwActionMatching.Action> e : grouped.episodes()) {
            results.add(AitwActionMatching.scoreEpisode(e.predictions(), e.gold()));
        }
        AitwActionMatching.Summary s = AitwActionMatching.summarize(results);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("action_match_accuracy", s.actionMatchAccuracy());
        out.put("step_success_rate", s.actionMatchAccuracy());
        out.put("task_success_rate", s.taskSuccessRate());
        out.put("episodes", s.episodes());
        out.put("steps", s.steps());
        out.put("matched_steps", s.matchedSteps());
        spec.commandLine().getOut().println(JsonOutput.line(out));
        spec.commandLine().getOut().flush();
        return 0;
    }

    private static AitwActionMatching.Action action(JsonlInput.Line line, JsonNode obj, String where) {
        List<Double> point = JsonlInput.numbers(line, obj, "point");
        List<Double> lift = JsonlInput.numbers(line, obj, "liftPoint");
        String op = JsonlInput.text(line, obj, "op");
        return JsonlInput.convert(line, where, () -> new AitwActionMatching.Action(op,
                point == null ? null : Point.of(point), lift == null ? null : Point.of(lift)).requireNormalized());
    }
}
