package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.magma.ClickAccuracy;
import io.mmgr.stream.tasks.magma.ClickEvaluator;
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
 * {@code mmgr eval screenspot --clicks FILE.jsonl}: ScreenSpot click accuracy. Each line is an input
 * adapter for one sample, scored by {@link SampleScorer}; the summary counts the scored clicks.
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

    private static final String TASK = "screenspot";

    @Option(names = "--clicks", required = true, paramLabel = "FILE.jsonl", description = "targets and clicks, one per line")
    Path clicks;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        SampleScorer scorer = FamilySample.scorer(ClickEvaluator.ID, ClickEvaluator::new);
        List<ClickAccuracy.Click> scored = new ArrayList<>();
        for (JsonlInput.Line line : JsonlInput.read(clicks)) {
            // one line is one sample: the click in inputs.uiActions[0], the target and its kind in the item
            JsonNode n = line.node();
            String kind = JsonlInput.text(line, n, "kind");
            List<Double> bbox = JsonlInput.numbers(line, n, "bbox");
            List<Double> point = JsonlInput.numbers(line, n, "point");
            GenerationEvent event = FamilySample.event(TASK, "ui", GenerationInputs.newBuilder()
                    .setUiActions(List.of(UiAction.newBuilder().setPoint(point).build())).build());
            BenchmarkItem item = FamilySample.item(TASK, GroundTruth.newBuilder()
                    .setTargetBox(bbox).setElementKind(kind).build());
            try {
                scored.add(FamilySample.score(scorer, event, item, EvalInputs.none(), ClickEvaluator.ID)
                        .detail(ClickAccuracy.Click.class));
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
