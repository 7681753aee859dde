package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.RobotTrial;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.EvaluationException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Avro records into the plain metric types, with the reason a user understands when a
 * record cannot be scored. Precheck and evaluation both go through here, so a sample that passes
 * intake cannot fail evaluation on its shape. The per-step conversions are public so that the
 * {@code eval} commands check each line of their files with the same rules, naming the line.
 */
public final class MagmaRecords {

    private MagmaRecords() {
    }

    /** Interface for one conversion that may reject its input with an {@link IllegalArgumentException}. */
    private interface Conversion<T> {
        T apply();
    }

    private static <T> T convert(String where, Conversion<T> conversion) throws EvaluationException {
        try {
            return conversion.apply();
        } catch (IllegalArgumentException e) {
            throw new EvaluationException(where + ": " + e.getMessage());
        }
    }

    static List<UiAction> predictedSteps(GenerationEvent event, String what) throws EvaluationException {
        if (event.getInputs() == null || event.getInputs().getUiActions() == null) {
            throw new EvaluationException("inputs.uiActions is missing: " + what);
        }
        return event.getInputs().getUiActions();
    }

    static List<UiAction> goldSteps(BenchmarkItem item) throws EvaluationException {
        List<UiAction> gold = MagmaTruth.of(item.getGroundTruth()).uiSteps();
        if (gold == null || gold.isEmpty()) {
            throw new EvaluationException("the benchmark item has no gold steps (groundTruth.uiSteps)");
        }
        return gold;
    }

    static List<UiStepMetrics.Prediction> mind2webPredictions(GenerationEvent event) throws EvaluationException {
        List<UiAction> steps = predictedSteps(event, "a Mind2Web episode is scored on its predicted steps");
        List<UiStepMetrics.Prediction> out = new ArrayList<>(steps.size());
        for (int i = 0; i < steps.size(); i++) {
            UiAction a = steps.get(i);
            if (a == null) {
                throw new EvaluationException("predicted step " + i + " is null");
            }
            out.add(convert("predicted step " + i, () -> notPredicted(a) ? null : mind2webPrediction(a)));
        }
        return out;
    }

    /** One predicted step (an empty one is refused: see {@link #notPredicted}). */
    public static UiStepMetrics.Prediction mind2webPrediction(UiAction a) {
        return new UiStepMetrics.Prediction(
                a.getElement(), a.getPoint() == null ? null : Point.of(a.getPoint()), a.getOp(), a.getValue());
    }

    /** One gold step. */
    public static UiStepMetrics.Gold mind2webGoldStep(UiAction a) {
        return new UiStepMetrics.Gold(a.getElement(), a.getBbox() == null ? null : Box.of(a.getBbox()), a.getOp(), a.getValue());
    }

    /**
     * An empty step: every field unset. The Avro array holds no nulls, so this is how an episode says
     * that the model produced no step at a position and went on (the step fails, as a missing one).
     */
    public static boolean notPredicted(UiAction a) {
        return a.getElement() == null && a.getBbox() == null && a.getPoint() == null && a.getLiftPoint() == null
                && a.getOp() == null && a.getValue() == null && a.getScreenBoxes() == null;
    }

    static List<UiStepMetrics.Gold> mind2webGold(BenchmarkItem item) throws EvaluationException {
        List<UiAction> steps = goldSteps(item);
        List<UiStepMetrics.Gold> out = new ArrayList<>(steps.size());
        for (int i = 0; i < steps.size(); i++) {
            UiAction a = steps.get(i);
            if (a == null) {
                throw new EvaluationException("gold step " + i + " is null");
            }
            out.add(convert("gold step " + i, () -> mind2webGoldStep(a)));
        }
        return out;
    }

    static List<AitwActionMatching.Action> aitwPredictions(GenerationEvent event) throws EvaluationException {
        List<UiAction> steps = predictedSteps(event, "an AITW episode is scored on its predicted actions");
        List<AitwActionMatching.Action> out = new ArrayList<>(steps.size());
        for (int i = 0; i < steps.size(); i++) {
            UiAction a = steps.get(i);
            if (a == null) {
                throw new EvaluationException("predicted step " + i + " is null");
            }
            out.add(convert("predicted step " + i, () -> notPredicted(a) ? null : aitwAction(a)));
        }
        return out;
    }

    static List<AitwActionMatching.GoldStep> aitwGold(BenchmarkItem item) throws EvaluationException {
        List<UiAction> steps = goldSteps(item);
        List<AitwActionMatching.GoldStep> out = new ArrayList<>(steps.size());
        for (int i = 0; i < steps.size(); i++) {
            UiAction a = steps.get(i);
            if (a == null) {
                throw new EvaluationException("gold step " + i + " is null");
            }
            out.add(convert("gold step " + i, () -> aitwGoldStep(a)));
        }
        return out;
    }

    /** One gold step: the action, then its screen's boxes. */
    public static AitwActionMatching.GoldStep aitwGoldStep(UiAction a) {
        AitwActionMatching.Action action = aitwAction(a);
        List<AitwActionMatching.ScreenBox> boxes = new ArrayList<>();
        if (a.getScreenBoxes() != null) {
            for (List<Double> b : a.getScreenBoxes()) {
                boxes.add(AitwActionMatching.ScreenBox.of(b));
            }
        }
        return new AitwActionMatching.GoldStep(action, boxes);
    }

    /** One action (a predicted step, or a gold step's action), its points normalized. */
    public static AitwActionMatching.Action aitwAction(UiAction a) {
        return new AitwActionMatching.Action(a.getOp(),
                a.getPoint() == null ? null : Point.of(a.getPoint()),
                a.getLiftPoint() == null ? null : Point.of(a.getLiftPoint())).requireNormalized();
    }

    static Point screenSpotClick(GenerationEvent event) throws EvaluationException {
        List<UiAction> steps = predictedSteps(event, "a ScreenSpot sample is scored on the click in inputs.uiActions[0].point");
        if (steps.isEmpty() || steps.get(0) == null) {
            throw new EvaluationException("inputs.uiActions is empty: a ScreenSpot sample needs the predicted click");
        }
        UiAction click = steps.get(0);
        if (click.getPoint() == null) {
            throw new EvaluationException("inputs.uiActions[0] has no point: ScreenSpot scores the click point");
        }
        return convert("inputs.uiActions[0]", () -> Point.of(click.getPoint()));
    }

    static Box screenSpotTarget(BenchmarkItem item) throws EvaluationException {
        List<Double> box = MagmaTruth.of(item.getGroundTruth()).targetBox();
        if (box == null) {
            throw new EvaluationException("the benchmark item has no groundTruth.targetBox");
        }
        return convert("groundTruth.targetBox", () -> Box.of(box));
    }

    static ClickAccuracy.Kind screenSpotKind(BenchmarkItem item) throws EvaluationException {
        String kind = MagmaTruth.of(item.getGroundTruth()).elementKind();
        return convert("groundTruth.elementKind", () -> ClickAccuracy.Kind.parse(kind));
    }

    static List<RobotTrialMetrics.Trial> trials(GenerationEvent event) throws EvaluationException {
        if (event.getInputs() == null || event.getInputs().getTrials() == null) {
            throw new EvaluationException("inputs.trials is missing: a robot task is scored on its trials");
        }
        List<RobotTrialMetrics.Trial> out = new ArrayList<>();
        for (RobotTrial t : event.getInputs().getTrials()) {
            if (t == null) {
                throw new EvaluationException("inputs.trials holds a null trial");
            }
            out.add(new RobotTrialMetrics.Trial(t.getTrial(), t.getSuccess()));
        }
        return out;
    }

    static int protocolTrials(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        Integer protocol = MagmaTruth.of(item.getGroundTruth()).protocolTrials();
        return convert("robot task", () -> RobotTrialMetrics.protocolTrials(event.getTask(), protocol));
    }

    static RobotTrialMetrics.Result robotResult(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        List<RobotTrialMetrics.Trial> trials = trials(event);
        int protocol = protocolTrials(event, item);
        return convert("inputs.trials", () -> RobotTrialMetrics.score(trials, protocol));
    }
}
