package io.mmgr.stream.tasks.magma;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * VisualWebBench's seven tasks scored as its official code does: VisualWebBench/VisualWebBench
 * {@code utils/eval_utils.py} (commit ec8feda582c091cff0cc33f39411c092e8f95492; unchanged since
 * 2434f9b "fix bugs") with the {@code rouge} package it pins ({@code requirements.txt}: {@code rouge==1.0.1},
 * see {@link PltrdyRouge}), on the official 0-100 scale. Per task, as {@code eval_<task>} does:
 *
 * <ul>
 *   <li>{@code web_caption}, {@code heading_ocr}: an empty prediction becomes {@code " "}; ROUGE-1/2/L F of
 *       each sample, averaged over the samples ({@code get_scores(avg=True)}: the mean of per-sample F, not a
 *       corpus ROUGE), times 100. A prediction with no sentence left after the split (e.g. {@code "."},
 *       {@code "..."}) makes the package raise, and the official evaluation of the whole task with it.</li>
 *   <li>{@code element_ocr}: the same, but a prediction of exactly one character also becomes {@code " "}.</li>
 *   <li>{@code webqa}: an empty prediction becomes {@code " "}; a sample scores the best ROUGE-1 F over its
 *       gold answers; a sample for which that raises (no gold answer, a gold answer or the prediction with no
 *       sentence) is <em>dropped</em> from the mean (a bare {@code except: pass}); mean times 100.</li>
 *   <li>{@code element_ground}, {@code action_prediction}, {@code action_ground}: {@link MultiChoiceParser};
 *       accuracy over all samples times 100.</li>
 * </ul>
 *
 * The paper's Average column is the plain mean of the seven task columns with ROUGE-L for the three text
 * tasks (VisualWebBench paper, Table 2, as in the repository's {@code assets/exp.png}).
 */
public final class VisualWebBench {

    public static final String ROUGE_1 = "rouge_1";
    public static final String ROUGE_2 = "rouge_2";
    public static final String ROUGE_L = "rouge_l";
    public static final String F1 = "f1";
    public static final String ACCURACY = "accuracy";

    private VisualWebBench() {
    }

    /** What the gold answer of a task is. */
    public enum AnswerKind {
        /** one string */
        TEXT,
        /** a list of acceptable strings (WebQA) */
        TEXT_LIST,
        /** an option index 0-7 (A-H) */
        CHOICE
    }

    /** The seven tasks, in the paper's column order. */
    public enum Subtask {
        WEB_CAPTION("web_caption", AnswerKind.TEXT),
        WEBQA("webqa", AnswerKind.TEXT_LIST),
        HEADING_OCR("heading_ocr", AnswerKind.TEXT),
        ELEMENT_OCR("element_ocr", AnswerKind.TEXT),
        ELEMENT_GROUND("element_ground", AnswerKind.CHOICE),
        ACTION_PREDICTION("action_prediction", AnswerKind.CHOICE),
        ACTION_GROUND("action_ground", AnswerKind.CHOICE);

        private final String id;
        private final AnswerKind answer;

        Subtask(String id, AnswerKind answer) {
            this.id = id;
            this.answer = answer;
        }

        /** The official name ({@code utils/constants.py}). */
        public String id() {
            return id;
        }

        public AnswerKind answerKind() {
            return answer;
        }

        /** The metrics of the task's column, as the official function returns them. */
        public List<String> metrics() {
            return switch (answer) {
                case TEXT -> List.of(ROUGE_1, ROUGE_2, ROUGE_L);
                case TEXT_LIST -> List.of(F1);
                case CHOICE -> List.of(ACCURACY);
            };
        }

        /** The metric of the paper's table and Average column. */
        public String headline() {
            return switch (answer) {
                case TEXT -> ROUGE_L;
                case TEXT_LIST -> F1;
                case CHOICE -> ACCURACY;
            };
        }

        public static Optional<Subtask> find(String id) {
            for (Subtask s : values()) {
                if (s.id.equals(id)) {
                    return Optional.of(s);
                }
            }
            return Optional.empty();
        }

        public static String names() {
            List<String> n = new ArrayList<>();
            for (Subtask s : values()) {
                n.add(s.id);
            }
            return String.join(", ", n);
        }
    }

    /** A gold answer: text for the text tasks, a list for WebQA, an option index for the choice tasks. */
    public sealed interface Gold permits Gold.Text, Gold.Texts, Gold.Choice {
        record Text(String text) implements Gold {
        }

        record Texts(List<String> texts) implements Gold {
            public Texts {
                texts = List.copyOf(texts);
            }
        }

        record Choice(int index) implements Gold {
        }
    }

    /**
     * One sample's score. {@code fractions} are the package's F in [0, 1] (text tasks) or 0/1 (choice tasks);
     * a value is null (WebQA) when the official code drops the sample, with {@code dropped} saying why.
     * {@code failure} is set when the official code raises on this sample and so fails the whole task.
     */
    public record SampleResult(Map<String, Double> fractions, Map<String, String> diagnostics,
                               String dropped, String failure) {

        /** On the official 0-100 scale, so that their mean over samples is the official column. */
        public Map<String, Double> metrics() {
            Map<String, Double> out = new LinkedHashMap<>();
            fractions.forEach((k, v) -> out.put(k, v == null ? null : v * 100));
            return out;
        }
    }

    /** Scores one sample; the gold must be of the task's kind (checked by {@link #checkGold}). */
    public static SampleResult score(Subtask task, String prediction, Gold gold) {
        if (prediction == null) {
            throw new IllegalArgumentException("the prediction is missing (a string is expected, \"\" for no output)");
        }
        checkGold(task, gold).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        return switch (task.answerKind()) {
            case TEXT -> text(task, prediction, ((Gold.Text) gold).text());
            case TEXT_LIST -> webqa(prediction, ((Gold.Texts) gold).texts());
            case CHOICE -> choice(prediction, ((Gold.Choice) gold).index());
        };
    }

    /**
     * Why a gold answer cannot be scored at all (empty when it can). Text golds the package cannot split into a
     * sentence make the official evaluation raise for every prediction; WebQA golds never fail here, since the
     * official code drops such samples instead.
     */
    public static Optional<String> checkGold(Subtask task, Gold gold) {
        switch (task.answerKind()) {
            case TEXT -> {
                if (!(gold instanceof Gold.Text t) || t.text() == null) {
                    return Optional.of(task.id() + " needs one gold text");
                }
                if (PltrdyRouge.sentences(t.text()).isEmpty()) {
                    return Optional.of(task.id() + " gold text '" + t.text() + "' has no sentence for the rouge package"
                            + " (only '.' and nothing else): the official scoring raises \"Reference is empty.\"");
                }
            }
            case TEXT_LIST -> {
                if (!(gold instanceof Gold.Texts t) || t.texts().stream().anyMatch(s -> s == null)) {
                    return Optional.of(task.id() + " needs a list of gold texts");
                }
            }
            case CHOICE -> {
                if (!(gold instanceof Gold.Choice c) || c.index() < 0 || c.index() >= MultiChoiceParser.CHOICES) {
                    return Optional.of(task.id() + " needs a gold option index 0-" + (MultiChoiceParser.CHOICES - 1) + " (A-H)");
                }
            }
        }
        return Optional.empty();
    }

    /** The prediction the official function scores after its empty / one-character rule. */
    static String officialPrediction(Subtask task, String prediction) {
        if (prediction.isEmpty()) {
            return " ";
        }
        if (task == Subtask.ELEMENT_OCR && PyText.length(prediction) == 1) {
            return " ";
        }
        return prediction;
    }

    private static SampleResult text(Subtask task, String prediction, String gold) {
        String hyp = officialPrediction(task, prediction);
        Map<String, String> diag = new LinkedHashMap<>();
        if (!hyp.equals(prediction)) {
            diag.put("prediction_replaced", "'" + prediction + "' scored as ' ' (eval_" + task.id() + ")");
        }
        try {
            PltrdyRouge.Scores s = PltrdyRouge.scores(hyp, gold);
            Map<String, Double> m = new LinkedHashMap<>();
            m.put(ROUGE_1, s.rouge1().f());
            m.put(ROUGE_2, s.rouge2().f());
            m.put(ROUGE_L, s.rougeL().f());
            return new SampleResult(m, diag, null, null);
        } catch (PltrdyRouge.RougeException e) {
            return new SampleResult(nulls(task), diag, null, raises(task, e));
        }
    }

    private static SampleResult webqa(String prediction, List<String> golds) {
        String hyp = prediction.isEmpty() ? " " : prediction;
        Map<String, String> diag = new LinkedHashMap<>();
        Map<String, Double> m = new LinkedHashMap<>();
        if (golds.isEmpty()) {
            m.put(F1, null);
            return new SampleResult(m, diag, "no gold answers: max() of nothing raises, eval_webqa drops the sample", null);
        }
        double best = Double.NEGATIVE_INFINITY;
        int bestAt = -1;
        for (int i = 0; i < golds.size(); i++) {
            double f;
            try {
                f = PltrdyRouge.rouge1(hyp, golds.get(i)).f();
            } catch (PltrdyRouge.RougeException e) {
                m.put(F1, null);
                return new SampleResult(m, diag, "rouge raises on gold answer " + i + " ('" + e.getMessage()
                        + "'), eval_webqa drops the sample", null);
            }
            if (f > best) {
                best = f;
                bestAt = i;
            }
        }
        m.put(F1, best);
        diag.put("best_answer", Integer.toString(bestAt));
        return new SampleResult(m, diag, null, null);
    }

    private static SampleResult choice(String prediction, int gold) {
        MultiChoiceParser.Parsed p = MultiChoiceParser.parse(prediction);
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(ACCURACY, p.index() == gold ? 1.0 : 0.0);
        Map<String, String> diag = new LinkedHashMap<>();
        diag.put("parsed", p.answer());
        diag.put("parsed_index", Integer.toString(p.index()));
        diag.put("gold", String.valueOf((char) ('A' + gold)));
        return new SampleResult(m, diag, null, null);
    }

    private static Map<String, Double> nulls(Subtask task) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (String metric : task.metrics()) {
            m.put(metric, null);
        }
        return m;
    }

    private static String raises(Subtask task, PltrdyRouge.RougeException e) {
        return "the rouge package raises ValueError(\"" + e.getMessage() + "\") on this prediction, which fails the"
                + " official eval_" + task.id() + " for the whole task";
    }

    /** One task's column, computed over its samples in order as the official function does. */
    public record Column(Subtask task, Map<String, Double> metrics, int samples, int counted, List<String> notes) {
        /** The paper's number for this task, or null when the official function would raise. */
        public Double headline() {
            return metrics.get(task.headline());
        }
    }

    /**
     * The official aggregation of one task: text tasks average each ROUGE F over all samples then scale
     * ({@code scores['rouge-l']['f'] * 100}); WebQA {@code sum(f1_scores) / len(f1_scores) * 100} over the kept
     * samples; choice tasks {@code sum(results) / len(results) * 100}. Where the official function raises (a
     * prediction the package refuses, no sample, every WebQA sample dropped) the metrics are null and the
     * notes say why.
     */
    public static Column column(Subtask task, List<SampleResult> results) {
        List<String> notes = new ArrayList<>();
        Map<String, Double> out = new LinkedHashMap<>();
        for (String metric : task.metrics()) {
            out.put(metric, null);
        }
        if (results.isEmpty()) {
            notes.add("no samples: the official function divides by zero");
            return new Column(task, out, 0, 0, notes);
        }
        long failures = results.stream().filter(r -> r.failure() != null).count();
        if (failures > 0) {
            notes.add(failures + " of " + results.size() + " predictions make the rouge package raise, so the official"
                    + " eval_" + task.id() + " fails: no score");
            return new Column(task, out, results.size(), 0, notes);
        }
        int counted = 0;
        for (String metric : task.metrics()) {
            double sum = 0;
            int n = 0;
            for (SampleResult r : results) {
                Double v = r.fractions().get(metric);
                if (v != null) {
                    // sum in [0, 1] in sample order as the official code does, scale once at the end
                    sum += v;
                    n++;
                }
            }
            counted = n;
            if (n == 0) {
                notes.add("every sample was dropped: the official function divides by zero");
                return new Column(task, out, results.size(), 0, notes);
            }
            out.put(metric, sum / n * 100);
        }
        int dropped = results.size() - counted;
        if (dropped > 0) {
            notes.add(dropped + " of " + results.size() + " samples dropped, as eval_" + task.id() + " drops them");
        }
        return new Column(task, out, results.size(), counted, notes);
    }

    /** The paper's Average: the plain mean of the seven headline numbers, null unless all seven exist. */
    public static Double average(Map<Subtask, Column> columns) {
        double sum = 0;
        for (Subtask s : Subtask.values()) {
            Column c = columns.get(s);
            if (c == null || c.headline() == null) {
                return null;
            }
            sum += c.headline();
        }
        return sum / Subtask.values().length;
    }
}
