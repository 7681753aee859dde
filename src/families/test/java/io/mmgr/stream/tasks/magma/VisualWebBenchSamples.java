package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.magma.VisualWebBench.Subtask;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * VisualWebBench samples for the stream tests, each with its expected per-sample metrics worked out by
 * hand from token counts (F = 2PR / (P + R + 1e-8), the rouge package's formula) or from the parser's rules,
 * and the official column of each task computed from those expectations.
 */
public final class VisualWebBenchSamples {

    private VisualWebBenchSamples() {
    }

    static double f(double p, double r) {
        return 2.0 * ((p * r) / (p + r + 1e-8));
    }

    static final double PERFECT = f(1.0, 1.0);

    /**
     * One sample. {@code expected} holds the metrics on the 0-100 scale (a null f1: the official code drops the
     * sample); {@code fails}: the official evaluation raises on the prediction.
     */
    public record Case(Subtask task, String sampleId, GroundTruth truth, String prediction,
                       Map<String, Double> expected, boolean fails) {

        public String taskId() {
            return VisualWebBenchEvaluator.taskId(task);
        }

        public BenchmarkItem item() {
            return BenchmarkItem.newBuilder().setTask(taskId()).setSampleId(sampleId).setBenchmark("magma")
                    .setGroundTruth(truth).build();
        }

        public GenerationEvent event(String run, String checkpoint, long step) {
            return GenerationEvent.newBuilder().setRunId(run).setModel("web-agent").setCheckpointId(checkpoint)
                    .setTrainingStep(step).setTask(taskId()).setSampleId(sampleId).setModality("text")
                    .setInputs(GenerationInputs.newBuilder().setText(prediction).build())
                    .setProducedAt(Instant.now()).build();
        }
    }

    private static Map<String, Double> rouge(double r1, double r2, double rl) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("rouge_1", r1 * 100);
        m.put("rouge_2", r2 * 100);
        m.put("rouge_l", rl * 100);
        return m;
    }

    private static Map<String, Double> one(String metric, Double fraction) {
        Map<String, Double> m = new HashMap<>();
        m.put(metric, fraction == null ? null : fraction * 100);
        return m;
    }

    private static GroundTruth text(String gold) {
        return GroundTruth.newBuilder().setAnswer(gold).build();
    }

    private static GroundTruth answers(String... golds) {
        return GroundTruth.newBuilder().setAnswers(List.of(golds)).build();
    }

    private static GroundTruth option(int index) {
        return GroundTruth.newBuilder().setChoiceIndex(index).build();
    }

    /** Every task, with the empty / one-character rules, a dropped WebQA sample and parser odd cases. */
    public static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        // {the cat sat} of {the cat sat on mat}: P 1, R 3/5; bigrams 2 of 5
        c.add(new Case(Subtask.WEB_CAPTION, "c1", text("the cat sat on the mat"), "the cat sat",
                rouge(f(1, 0.6), f(1, 0.4), f(1, 0.6)), false));
        // "" is scored as " ": nothing in common
        c.add(new Case(Subtask.WEB_CAPTION, "c2", text("A web page"), "", rouge(0, 0, 0), false));
        c.add(new Case(Subtask.HEADING_OCR, "h1", text("Sign in"), "Sign in", rouge(PERFECT, PERFECT, PERFECT), false));
        // case matters
        c.add(new Case(Subtask.HEADING_OCR, "h2", text("Welcome"), "welcome", rouge(0, 0, 0), false));
        // one character is scored as " "
        c.add(new Case(Subtask.ELEMENT_OCR, "e1", text("a"), "a", rouge(0, 0, 0), false));
        // {Log in} of {Log in now}: P 1, R 2/3; bigrams 1 of 2
        c.add(new Case(Subtask.ELEMENT_OCR, "e2", text("Log in now"), "Log in", rouge(f(1, 2 / 3.0), f(1, 0.5), f(1, 2 / 3.0)), false));
        c.add(new Case(Subtask.WEBQA, "q1", answers("red car", "blue car"), "blue car", one("f1", PERFECT), false));
        // no gold answer: dropped
        c.add(new Case(Subtask.WEBQA, "q2", answers(), "blue car", one("f1", null), false));
        c.add(new Case(Subtask.WEBQA, "q3", answers("blue"), "red", one("f1", 0.0), false));
        c.add(new Case(Subtask.ELEMENT_GROUND, "g1", option(1), "B", one("accuracy", 1.0), false));
        // a newline beside the letter: no answer
        c.add(new Case(Subtask.ELEMENT_GROUND, "g2", option(1), "B\n", one("accuracy", 0.0), false));
        c.add(new Case(Subtask.ELEMENT_GROUND, "g3", option(1), "b", one("accuracy", 1.0), false));
        // the leading "I." wins over the bracketed B
        c.add(new Case(Subtask.ACTION_PREDICTION, "p1", option(1), "I. think (B)", one("accuracy", 0.0), false));
        c.add(new Case(Subtask.ACTION_PREDICTION, "p2", option(2), "(A) or (C)", one("accuracy", 1.0), false));
        c.add(new Case(Subtask.ACTION_GROUND, "a1", option(0), "", one("accuracy", 0.0), false));
        c.add(new Case(Subtask.ACTION_GROUND, "a2", option(7), "The answer is H", one("accuracy", 1.0), false));
        return c;
    }

    /** A caption the rouge package raises on: the official evaluation fails; the stream fails the sample. */
    public static Case failing() {
        return new Case(Subtask.WEB_CAPTION, "c3", text("Home"), "...", rouge(0, 0, 0), true);
    }

    /** The official column of a task over the cases that do not fail: the mean of the kept samples' metric. */
    public static Map<String, Double> column(List<Case> cases, Subtask task) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String metric : task.metrics()) {
            double sum = 0;
            int n = 0;
            for (Case c : cases) {
                Double v = c.task() == task && !c.fails() ? c.expected().get(metric) : null;
                if (v != null) {
                    sum += v;
                    n++;
                }
            }
            out.put(metric, n == 0 ? null : sum / n);
        }
        return out;
    }
}
