package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code visualwebbench}: one VisualWebBench sample ({@link VisualWebBench}). The prediction is the model's
 * raw text, {@code inputs.text}, scored exactly as the official {@code eval_utils} receives it (no
 * extraction); the gold is {@code groundTruth.answer} (text tasks), {@code answers} (webqa) or
 * {@code choiceIndex} (choice tasks). Metrics are on the official 0-100 scale, so a leaderboard row's mean
 * is the official number. A WebQA sample the official code drops has a null {@code f1}; a prediction the
 * rouge package refuses (one that makes the official evaluation of the task raise) fails the sample.
 * The sample's result is the outcome's detail: the official column sums the fractions, not the 0-100 metrics.
 */
public final class VisualWebBenchEvaluator extends EventRecordEvaluator {

    public static final String ID = "visualwebbench";
    /** Task ids in events are the official task names with this prefix, e.g. {@code visualwebbench-webqa}. */
    public static final String TASK_PREFIX = "visualwebbench-";

    public VisualWebBenchEvaluator() {
        super(ID, "1");
    }

    public static String taskId(VisualWebBench.Subtask subtask) {
        return TASK_PREFIX + subtask.id();
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        return DeterministicEvaluator.problemOf(() -> {
            VisualWebBench.Subtask task = subtask(event.getTask());
            prediction(event);
            gold(task, item);
        });
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        VisualWebBench.Subtask task = subtask(context.event().getTask());
        String prediction = prediction(context.event());
        VisualWebBench.Gold gold = gold(task, context.item());
        VisualWebBench.SampleResult r = VisualWebBench.score(task, prediction, gold);
        if (r.failure() != null) {
            throw new EvaluationException(r.failure());
        }
        Map<String, String> diagnostics = new LinkedHashMap<>(r.diagnostics());
        if (r.dropped() != null) {
            diagnostics.put("dropped", r.dropped());
        }
        return new EvaluationOutcome(r.metrics(), diagnostics, r);
    }

    /** The subtask of a task id ({@link #taskId}); empty for a task that is not VisualWebBench's. */
    public static Optional<VisualWebBench.Subtask> subtaskOf(String taskId) {
        String name = taskId != null && taskId.startsWith(TASK_PREFIX) ? taskId.substring(TASK_PREFIX.length()) : "";
        return VisualWebBench.Subtask.find(name);
    }

    static VisualWebBench.Subtask subtask(String taskId) throws EvaluationException {
        return subtaskOf(taskId).orElseThrow(() -> new EvaluationException(
                "task '" + taskId + "' is not a VisualWebBench task (" + TASK_PREFIX + "<" + VisualWebBench.Subtask.names() + ">)"));
    }

    static String prediction(GenerationEvent event) throws EvaluationException {
        if (event.getInputs() == null || event.getInputs().getText() == null) {
            throw new EvaluationException("inputs.text is missing: a VisualWebBench sample is scored on the model's raw"
                    + " output text (\"\" when it produced nothing)");
        }
        return event.getInputs().getText();
    }

    static VisualWebBench.Gold gold(VisualWebBench.Subtask task, BenchmarkItem item) throws EvaluationException {
        MagmaTruth gt = MagmaTruth.of(item.getGroundTruth());
        VisualWebBench.Gold gold = switch (task.answerKind()) {
            case TEXT -> {
                if (gt.answer() == null) {
                    throw new EvaluationException("the benchmark item has no groundTruth.answer (the gold text)");
                }
                yield new VisualWebBench.Gold.Text(gt.answer());
            }
            case TEXT_LIST -> {
                if (gt.answers() == null) {
                    throw new EvaluationException("the benchmark item has no groundTruth.answers (the gold answers)");
                }
                yield new VisualWebBench.Gold.Texts(gt.answers());
            }
            case CHOICE -> {
                if (gt.choiceIndex() == null) {
                    throw new EvaluationException("the benchmark item has no groundTruth.choiceIndex (0-7)");
                }
                yield new VisualWebBench.Gold.Choice(gt.choiceIndex());
            }
        };
        Optional<String> problem = VisualWebBench.checkGold(task, gold);
        if (problem.isPresent()) {
            throw new EvaluationException("groundTruth: " + problem.get());
        }
        return gold;
    }
}
