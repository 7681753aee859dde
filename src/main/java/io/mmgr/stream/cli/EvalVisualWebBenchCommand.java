package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.PartEvaluation;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.magma.VisualWebBench;
import io.mmgr.stream.tasks.magma.VisualWebBenchEvaluator;
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
 * official {@code utils/eval_utils.py} does. Each line is an input adapter for one sample, scored by
 * {@link SampleScorer}; the columns aggregate the samples' results as the official code does ({@link VisualWebBench}).
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
        SampleScorer scorer = FamilySample.scorer(VisualWebBenchEvaluator.ID, VisualWebBenchEvaluator::new);
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
            GroundTruth gold = gold(line, n, task);
            VisualWebBench.SampleResult r = score(scorer, line, id, task, prediction, gold);
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

    /**
     * One line as the sample the stream would get, through {@link SampleScorer}. A prediction the rouge package
     * refuses fails the sample there; here it is a result too, since it fails the official task as a whole.
     */
    private static VisualWebBench.SampleResult score(SampleScorer scorer, JsonlInput.Line line, String id,
                                                     Subtask task, String prediction, GroundTruth gold) {
        String taskId = VisualWebBenchEvaluator.taskId(task);
        SampleScorer.Result scored = scorer.score(
                FamilySample.event(taskId, "text", GenerationInputs.newBuilder().setText(prediction).build()),
                FamilySample.item(taskId, gold), EvalInputs.none());
        PartEvaluation run;
        try {
            run = FamilySample.evaluation(scored, VisualWebBenchEvaluator.ID);
        } catch (EvaluationException e) {
            throw line.error("sample '" + id + "': " + e.getMessage());
        }
        if (run.failed()) {
            return new VisualWebBench.SampleResult(Map.of(), Map.of(), null, run.result().getError());
        }
        return run.outcome().detail(VisualWebBench.SampleResult.class).orElseThrow();
    }

    private static String prediction(JsonlInput.Line line, JsonNode n) {
        JsonNode v = JsonlInput.required(line, n, "prediction");
        if (!v.isTextual()) {
            throw line.error("'prediction' must be a string (the model's raw output, \"\" for none)");
        }
        return v.textValue();
    }

    private static GroundTruth gold(JsonlInput.Line line, JsonNode n, Subtask task) {
        JsonNode v = JsonlInput.required(line, n, "answer");
        switch (task.answerKind()) {
            case TEXT -> {
                if (!v.isTextual()) {
                    throw line.error("'answer' of " + task.id() + " must be a string");
                }
                return GroundTruth.newBuilder().setAnswer(v.textValue()).build();
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
                return GroundTruth.newBuilder().setAnswers(golds).build();
            }
            default -> {
                if (!v.isIntegralNumber() || !v.canConvertToInt()) {
                    throw line.error("'answer' of " + task.id() + " must be an option index 0-7");
                }
                return GroundTruth.newBuilder().setChoiceIndex(v.intValue()).build();
            }
        }
    }
}
