package io.mmgr.stream.tasks.magma;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Mind2Web step metrics (Magma's Ele. Acc, Op. F1, Step SR) for one episode, and their aggregation.
 *
 * <p>Per step: the element is correct when the predicted element id equals the gold id or the
 * predicted click point lies in the gold box (edges inclusive). Operation F1 compares the sets of
 * lower-cased whitespace tokens of {@code "OP value"}. A step succeeds when its element is correct
 * and its F1 is exactly 1; a task succeeds when every step does.
 *
 * <p>Steps are scored against the gold steps, position by position, with {@code len(gold)} as the
 * denominator (the seed's {@code zip(...) / len(gold)}): a gold step without a prediction fails
 * (element wrong, F1 0, as Mind2Web's {@code metric.py} does when no prediction was made); predicted
 * steps beyond the gold ones are not scored (there is no gold to score them against) and are only
 * reported.
 */
public final class UiStepMetrics {

    private UiStepMetrics() {
    }

    /** A predicted step: an element id or a click point (or both), and the operation. */
    public record Prediction(String element, Point point, String op, String value) {
        public Prediction {
            element = blankToNull(element);
            if (element == null && point == null) {
                throw new IllegalArgumentException("a predicted step needs an element id or a point");
            }
        }
    }

    /** A gold step: the element id and/or its box, and the operation. */
    public record Gold(String element, Box box, String op, String value) {
        public Gold {
            element = blankToNull(element);
            if (element == null && box == null) {
                throw new IllegalArgumentException("a gold step needs an element id or a bbox");
            }
            if (op == null || op.isBlank()) {
                throw new IllegalArgumentException("a gold step needs an op");
            }
        }
    }

    /** One gold step's outcome; {@code predicted} is false when the prediction had no step here. */
    public record StepResult(boolean elementCorrect, double operationF1, boolean success, boolean predicted) {
        static final StepResult MISSING = new StepResult(false, 0.0, false, false);
    }

    /** One episode: a result per gold step, plus how many steps the prediction had. */
    public record EpisodeResult(List<StepResult> steps, int predictedSteps) {
        public EpisodeResult {
            steps = List.copyOf(steps);
            if (steps.isEmpty()) {
                throw new IllegalArgumentException("an episode needs at least one gold step");
            }
        }

        public double elementSelectionAccuracy() {
            return steps.stream().filter(StepResult::elementCorrect).count() / (double) steps.size();
        }

        public double operationF1() {
            return steps.stream().mapToDouble(StepResult::operationF1).sum() / steps.size();
        }

        public double stepSuccessRate() {
            return successfulSteps() / (double) steps.size();
        }

        public int successfulSteps() {
            return (int) steps.stream().filter(StepResult::success).count();
        }

        public boolean taskSuccess() {
            return steps.stream().allMatch(StepResult::success);
        }

        public int missingSteps() {
            return (int) steps.stream().filter(s -> !s.predicted()).count();
        }

        public int extraPredictedSteps() {
            return Math.max(0, predictedSteps - steps.size());
        }
    }

    /**
     * Across episodes. The headline figures are macro averages over tasks (episodes): mean of each
     * episode's mean. That is what Mind2Web reports: OSU-NLP-Group/Mind2Web
     * {@code src/action_prediction/metric.py} groups step scores by {@code annotation_id} and reports
     * {@code marco_element_acc / marco_action_f1 / marco_step_acc} (mean of per-task means) beside the
     * pooled per-step means, and the task success rate is the share of tasks with no failed step
     * ({@code error_ratio[0]}); SeeClick's {@code agent_tasks/mind2web_test.py}, which Set-of-Mark
     * screenshot agents follow, reports the same "Macro" figures. The pooled per-step (micro) means
     * are kept as well, for comparison with papers that quote them.
     */
    public record Summary(int episodes, int steps,
                          double elementSelectionAccuracy, double operationF1, double stepSuccessRate,
                          double taskSuccessRate,
                          double microElementSelectionAccuracy, double microOperationF1,
                          double microStepSuccessRate) {
    }

    /** Element correct: same id, or the click point inside the gold box (edges inclusive). */
    public static boolean elementCorrect(Prediction prediction, Gold gold) {
        if (prediction.element() != null && prediction.element().equals(gold.element())) {
            return true;
        }
        return prediction.point() != null && gold.box() != null && gold.box().contains(prediction.point());
    }

    /** Token-set F1 of {@code "OP value"} (a null op or value counts as empty text). */
    public static double operationF1(String predictedOp, String predictedValue, String goldOp, String goldValue) {
        return tokenSetF1(opText(predictedOp, predictedValue), opText(goldOp, goldValue));
    }

    /**
     * F1 between the sets of lower-cased whitespace tokens: 1 when both sets are empty, 0 when
     * exactly one is (as Mind2Web's {@code calculate_f1}).
     */
    public static double tokenSetF1(String predicted, String gold) {
        Set<String> p = tokens(predicted);
        Set<String> g = tokens(gold);
        if (p.isEmpty() && g.isEmpty()) {
            return 1.0;
        }
        if (p.isEmpty() || g.isEmpty()) {
            return 0.0;
        }
        Set<String> common = new HashSet<>(p);
        common.retainAll(g);
        if (common.isEmpty()) {
            return 0.0;
        }
        double precision = common.size() / (double) p.size();
        double recall = common.size() / (double) g.size();
        return 2 * precision * recall / (precision + recall);
    }

    /** Lower-cased tokens split on whitespace runs, as a set (duplicates count once). */
    public static Set<String> tokens(String text) {
        if (text == null) {
            return Set.of();
        }
        String lower = text.toLowerCase(Locale.ROOT);
        Set<String> out = new HashSet<>();
        int start = -1;
        for (int i = 0; i < lower.length(); ) {
            int cp = lower.codePointAt(i);
            boolean space = Character.isWhitespace(cp) || Character.isSpaceChar(cp);
            if (space && start >= 0) {
                out.add(lower.substring(start, i));
                start = -1;
            } else if (!space && start < 0) {
                start = i;
            }
            i += Character.charCount(cp);
        }
        if (start >= 0) {
            out.add(lower.substring(start));
        }
        return Collections.unmodifiableSet(out);
    }

    /** Scores one gold step; a null prediction is a missing step and fails. */
    public static StepResult scoreStep(Prediction prediction, Gold gold) {
        if (prediction == null) {
            return StepResult.MISSING;
        }
        boolean element = elementCorrect(prediction, gold);
        double f1 = operationF1(prediction.op(), prediction.value(), gold.op(), gold.value());
        return new StepResult(element, f1, element && f1 == 1.0, true);
    }

    /**
     * Scores an episode position by position. {@code predictions} may be shorter (missing steps
     * fail), longer (extra steps are not scored) or hold nulls (a step the model skipped).
     */
    public static EpisodeResult scoreEpisode(List<Prediction> predictions, List<Gold> gold) {
        if (gold.isEmpty()) {
            throw new IllegalArgumentException("an episode needs at least one gold step");
        }
        List<StepResult> results = new ArrayList<>(gold.size());
        for (int i = 0; i < gold.size(); i++) {
            Prediction p = i < predictions.size() ? predictions.get(i) : null;
            results.add(scoreStep(p, gold.get(i)));
        }
        return new EpisodeResult(results, predictions.size());
    }

    public static Summary summarize(List<EpisodeResult> episodes) {
        if (episodes.isEmpty()) {
            throw new IllegalArgumentException("no episodes to summarize");
        }
        double ele = 0;
        double f1 = 0;
        double ssr = 0;
        int tasksOk = 0;
        int steps = 0;
        double stepsEle = 0;
        double stepsF1 = 0;
        double stepsOk = 0;
        for (EpisodeResult e : episodes) {
            ele += e.elementSelectionAccuracy();
            f1 += e.operationF1();
            ssr += e.stepSuccessRate();
            tasksOk += e.taskSuccess() ? 1 : 0;
            for (StepResult s : e.steps()) {
                steps++;
                stepsEle += s.elementCorrect() ? 1 : 0;
                stepsF1 += s.operationF1();
                stepsOk += s.success() ? 1 : 0;
            }
        }
        int n = episodes.size();
        return new Summary(n, steps, ele / n, f1 / n, ssr / n, tasksOk / (double) n,
                stepsEle / steps, stepsF1 / steps, stepsOk / steps);
    }

    private static String opText(String op, String value) {
        return (op == null ? "" : op) + " " + (value == null ? "" : value);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
