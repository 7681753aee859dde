package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.magma.AitwActionMatching;
import io.mmgr.stream.tasks.magma.AitwEvaluator;
import io.mmgr.stream.tasks.magma.MagmaRecords;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval aitw --steps FILE.jsonl}: AITW action matching. The file's lines are an input adapter:
 * each episode becomes the event and item the stream would get, scored by {@link SampleScorer}.
 */
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
        // each line is checked with the stream's own step rules, so a bad one is named by its number
        EpisodeSteps<UiAction, UiAction> grouped = new EpisodeSteps<>();
        for (JsonlInput.Line line : JsonlInput.read(steps)) {
            JsonNode n = line.node();
            String episode = JsonlInput.requiredText(line, n, "episode");
            int step = JsonlInput.requiredInt(line, n, "step");
            JsonNode g = JsonlInput.object(line, n, "gold");
            UiAction.Builder goldAction = action(line, g);
            JsonlInput.convert(line, "gold", () -> MagmaRecords.aitwAction(goldAction.build()));
            List<List<Double>> boxes = new ArrayList<>();
            JsonNode sb = g.get("screenBoxes");
            if (sb != null && !sb.isNull()) {
                if (!sb.isArray()) {
                    throw line.error("gold: 'screenBoxes' must be an array of [y, x, height, width]");
                }
                for (JsonNode b : sb) {
                    boxes.add(JsonlInput.numberArray(line, b, "screenBoxes"));
                }
                goldAction.setScreenBoxes(boxes);
            }
            UiAction gold = goldAction.build();
            JsonlInput.convert(line, "gold", () -> MagmaRecords.aitwGoldStep(gold));
            UiAction prediction = UiEpisodes.notPredicted();
            JsonNode p = UiEpisodes.pred(line, n);
            if (p != null) {
                UiAction checked = action(line, p).build();
                JsonlInput.convert(line, "pred", () -> MagmaRecords.aitwAction(checked));
                prediction = checked;
            }
            grouped.add(line, episode, step, gold, prediction);
        }

        SampleScorer scorer = FamilySample.scorer(AitwEvaluator.ID, AitwEvaluator::new);
        List<AitwActionMatching.EpisodeResult> results = new ArrayList<>();
        for (EpisodeSteps.Episode<UiAction, UiAction> e : grouped.episodes()) {
            results.add(UiEpisodes.score(scorer, "aitw", e, AitwEvaluator.ID, AitwActionMatching.EpisodeResult.class));
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

    /** The action fields of a gold or predicted step (a typed value is not compared, as the reference). */
    private static UiAction.Builder action(JsonlInput.Line line, JsonNode obj) {
        return UiAction.newBuilder().setPoint(JsonlInput.numbers(line, obj, "point"))
                .setLiftPoint(JsonlInput.numbers(line, obj, "liftPoint"))
                .setOp(JsonlInput.text(line, obj, "op"));
    }
}
