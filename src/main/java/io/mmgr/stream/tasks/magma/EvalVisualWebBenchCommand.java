package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCaseException;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.PartEvaluation;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.cli.EvalInputs;
import io.mmgr.stream.tasks.cli.FamilySample;
import io.mmgr.stream.tasks.cli.JsonOutput;
import io.mmgr.stream.tasks.cli.JsonlInput;
import io.mmgr.stream.tasks.magma.VisualWebBench.Subtask;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval visualwebbench --predictions FILE.jsonl}: the seven VisualWebBench tasks scored as the
 * official {@code utils/eval_utils.py} does. Each line is a case of the family's input adapter
 * (tasks/magma/VisualWebBenchEvalCase), one sample scored by {@link SampleScorer}; the columns aggregate
 * the samples' results as the official code does ({@link VisualWebBench}).
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
        EvalAdapter adapter = TaskFamily.evalAdapter("visualwebbench");
        SampleScorer scorer = FamilySample.scorer(adapter.evaluator(), adapter.evaluatorFactory());
        Map<Subtask, List<VisualWebBench.SampleResult>> results = new EnumMap<>(Subtask.class);
        // each line is scored, and its note printed, before the next is read
        JsonlInput.samples(adapter, predictions, sample -> {
            Subtask task = VisualWebBenchEvaluator.subtaskOf(sample.sample().event().getTask()).orElseThrow();
            VisualWebBench.SampleResult r = score(scorer, sample);
            if (r.failure() != null) {
                err.println(task.id() + ": line " + sample.line() + " (id '" + sample.key() + "'): " + r.failure());
            }
            results.computeIfAbsent(task, t -> new ArrayList<>()).add(r);
        });

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
     * One line's sample through {@link SampleScorer}. A prediction the rouge package refuses fails the sample
     * there; here it is a result too, since it fails the official task as a whole.
     */
    private VisualWebBench.SampleResult score(SampleScorer scorer, EvalAdapter.Group sample) {
        SampleScorer.Result scored = scorer.score(sample.sample().event(), sample.sample().item(), EvalInputs.none());
        PartEvaluation run;
        try {
            run = FamilySample.evaluation(scored, VisualWebBenchEvaluator.ID);
        } catch (EvaluationException e) {
            throw JsonlInput.located(predictions,
                    new EvalCaseException(sample.line(), "sample '" + sample.key() + "': " + e.getMessage()));
        }
        if (run.failed()) {
            return new VisualWebBench.SampleResult(Map.of(), Map.of(), null, run.result().getError());
        }
        return run.outcome().detail(VisualWebBench.SampleResult.class).orElseThrow();
    }
}
