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
 * {@code mmgr eval aitw --steps FILE.jsonl}: AITW action matching. The file's lines are cases of the
 * family's input adapter (tasks/magma/AitwEvalCase): each episode becomes the event and item the stream
 * would get, scored by {@link SampleScorer}.
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
        // the family's adapter checks each line with the stream's own step rules, so a bad one is named by its number
        EvalAdapter adapter = TaskFamily.evalAdapter("aitw");
        List<AitwActionMatching.EpisodeResult> results = FamilySample.details(adapter,
                JsonlInput.samples(adapter, steps), AitwActionMatching.EpisodeResult.class, FamilySample::episodeRefused);
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
}
