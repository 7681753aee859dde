package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.tasks.magma.VisualWebBench;
import io.mmgr.stream.tasks.magma.VisualWebBench.Subtask;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval visualwebbench --predictions FILE.jsonl}: the seven VisualWebBench tasks scored as the
 * official {@code utils/eval_utils.py} does, with the stream's own code ({@link VisualWebBench}).
 */
@Command(name = "visualwebbench", mixinStandardHelpOptions = true,
        description = "Score VisualWebBench predictions exactly as its official eval_utils.py (rouge 1.0.1), 0-100.",
        footer = {"",
                "Each line of FILE (UTF-8) is one sample:",
                "  {\"id\":\"q1\",\"subtask\":\"webqa\",\"prediction\":\"raw model output\",\"answer\":[\"gold\",\"other gold\"]}",
                "subtask: web_caption, webqa, heading_ocr, element_ocr, element_ground, action_prediction, action_ground.",
                "prediction: the model's raw output text, unchanged (\"\" when it produced nothing).",
                "answer: a string (web_caption, heading_ocr, element_ocr), a list of strings (webqa),",
                "an option index 0-7 for A-H (element_ground, action_prediction, action_ground).",
                "The last line printed is one JSON object with every task's metrics and overall.average",
                "(the mean of the seven columns, rouge_l for the text tasks; null unless all seven are there).",
                "Notes (samples the official code drops, or predictions it cannot score) go to stderr; the",
                "exit status is 1 when the official evaluation of a task present in FILE would raise."})
public final class EvalVisualWebBenchCommand implements Callable<Integer> {

    @Option(names = "--predictions", required = true, paramLabel = "FILE.jsonl", description = "one sample per line")
    Path predictions;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Map<Subtask, List<VisualWebBench.SampleResult>> results = new EnumMap<>(Subtask.class);
        Map<Subtask, Map<String, Integer>> seen = new EnumMap<>(Subtask.class);
        for (JsonlInput.Line line : JsonlInput.read(predictions)) {
            JsonNode n = line.node();
            String id = JsonlInput.requiredText(line, n, "id");
            String name = JsonlInput.requiredText(line, n, "subtask");
            Subtask task = Subtask.find(name).orElseThrow(() -> line.error(
                    "unknown subtask '" + name + "' (one of " + Subtask.names() + ")"));
            Integer earlier = seen.computeIfAbsent(task, t -> new HashMap<>()).putIfAbsent(id, line.number());
            if (earlier != null) {
                throw line.error(task.id() + " sample '" + id + "' already appears on line " + earlier);
            }
            String prediction = prediction(line, n);
            VisualWebBench.Gold gold = gold(line, n, task);
            VisualWebBench.SampleResult r = JsonlInput.convert(line, "sample '" + id + "'",
                    () -> VisualWebBench.score(task, prediction, gold));
            if (r.failure() != null) {
                err.println(task.id() + ": line " + line.number() + " (id '" + id + "'): " + r.failure());
            }
            results.computeIfAbsent(task, t -> new ArrayList<>()).add(r);
        }

        Map<Subtask, VisualWebBench.Column> columns = new EnumMap<>(Subtask.class);
        Map<String, Object> out = new LinkedHashMap<>();
        boolean raises = false;
        for (Subtask task : Subtask.values()) {
            List<VisualWebBench.SampleResult> samples = results.get(task);
            Map<String, Object> metrics = new LinkedHashMap<>();
            if (samples == null) {
                task.metrics().forEach(m -> metrics.put(m, null));
            } else {
                VisualWebBench.Column c = VisualWebBench.column(task, samples);
                columns.put(task, c);
                metrics.putAll(c.metrics());
                c.notes().forEach(note -> err.println(task.id() + ": " + note));
                raises |= c.headline() == null;
            }
            out.put(task.id(), metrics);
        }
        Map<String, Object> overall = new LinkedHashMap<>();
        overall.put("average", VisualWebBench.average(columns));
        out.put("overall", overall);
        err.flush();
        spec.commandLine().getOut().println(JsonOutput.line(out));
        spec.commandLine().getOut().flush();
        return raises ? 1 : 0;
    }

    private static String prediction(JsonlInput.Line line, JsonNode n) {
        JsonNode v = JsonlInput.required(line, n, "prediction");
        if (!v.isTextual()) {
            throw line.error("'prediction' must be a string (the model's raw output, \"\" for none)");
        }
        return v.textValue();
    }

    private static VisualWebBench.Gold gold(JsonlInput.Line line, JsonNode n, Subtask task) {
        JsonNode v = JsonlInput.required(line, n, "answer");
        switch (task.answerKind()) {
            case TEXT -> {
                if (!v.isTextual()) {
                    throw line.error("'answer' of " + task.id() + " must be a string");
                }
                return new VisualWebBench.Gold.Text(v.textValue());
            }
            case TEXT_LIST -> {
                if (!v.isArray()) {
                    throw line.error("'answer' of webqa must be a list of strings");
                }
                List<String> golds = new ArrayList<>();
                for (JsonNode g : v) {
                    if (!g.isTextual()) {
                        throw line.error("'answer' of webqa must be a list of strings");
                    }
                    golds.add(g.textValue());
                }
                return new VisualWebBench.Gold.Texts(golds);
            }
            default -> {
                if (!v.isIntegralNumber() || !v.canConvertToInt()) {
                    throw line.error("'answer' of " + task.id() + " must be an option index 0-7");
                }
                return new VisualWebBench.Gold.Choice(v.intValue());
            }
        }
    }
}
