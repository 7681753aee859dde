package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCaseException;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.cli.EvalInputs;
import io.mmgr.stream.tasks.cli.FamilySample;
import io.mmgr.stream.tasks.cli.JsonOutput;
import io.mmgr.stream.tasks.cli.JsonlInput;
import java.io.IOException;
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
 * {@code mmgr eval screenspot --clicks FILE.jsonl}: ScreenSpot click accuracy. Each line is a case of
 * the family's input adapter (tasks/magma/ScreenSpotEvalCase), one sample scored by {@link SampleScorer};
 * the summary counts the scored clicks.
 */
@Command(name = "screenspot", mixinStandardHelpOptions = true,
        description = "Score ScreenSpot clicks: a click is correct inside the target box (edges inclusive).",
        footer = {"",
                "Each line of FILE is one instruction's target and the predicted click:",
                "  {\"id\":\"s1\",\"kind\":\"text\",\"bbox\":[x1,y1,x2,y2],\"point\":[x,y]}",
                "kind is text or icon; bbox and point use the same coordinates.",
                "Prints one JSON object: click_accuracy, click_accuracy_text and",
                "click_accuracy_icon (null without clicks of that kind), and the counts."})
public final class EvalScreenSpotCommand implements Callable<Integer> {

    @Option(names = "--clicks", required = true, paramLabel = "FILE.jsonl", description = "targets and clicks, one per line")
    Path clicks;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        EvalAdapter adapter = TaskFamily.evalAdapter("screenspot");
        SampleScorer scorer = FamilySample.scorer(adapter.evaluator(), adapter.evaluatorFactory());
        List<ClickAccuracy.Click> scored = new ArrayList<>();
        for (JsonlInput.Line line : JsonlInput.read(clicks)) {
            // one line is one sample (tasks/magma/ScreenSpotEvalCase)
            try {
                EvalSample s = adapter.sample(line.asCase());
                scored.add(FamilySample.score(scorer, s.event(), s.item(), EvalInputs.none(), adapter.evaluator())
                        .detail(ClickAccuracy.Click.class));
            } catch (EvalCaseException e) {
                throw JsonlInput.located(clicks, e);
            } catch (EvaluationException e) {
                throw line.error("click: " + e.getMessage());
            }
        }
        ClickAccuracy.Summary s = ClickAccuracy.summarize(scored);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("click_accuracy", s.accuracy());
        out.put("click_accuracy_text", s.textAccuracy());
        out.put("click_accuracy_icon", s.iconAccuracy());
        out.put("clicks", s.clicks());
        out.put("correct", s.correct());
        out.put("text_clicks", s.textClicks());
        out.put("icon_clicks", s.iconClicks());
        spec.commandLine().getOut().println(JsonOutput.line(out));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
