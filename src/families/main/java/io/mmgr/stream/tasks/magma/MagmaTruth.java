package io.mmgr.stream.tasks.magma;

import static io.mmgr.stream.tasks.PayloadValues.generic;
import static io.mmgr.stream.tasks.PayloadValues.get;
import static io.mmgr.stream.tasks.PayloadValues.records;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.FamilyPayload;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecordBuilder;

/**
 * A Magma item's ground truth; each task uses the fields it needs, the rest stay null. It travels in the
 * item's payload (family {@code magma}, schema {@code MagmaTruth.avsc} in this folder, with its own copy of
 * {@code UiAction}); an item without one keeps it in the shared fields of the same names it used before,
 * read the same way.
 *
 * @param uiSteps        Mind2Web, AITW: the gold steps
 * @param targetBox      ScreenSpot: the gold box x1, y1, x2, y2
 * @param elementKind    ScreenSpot: text or icon
 * @param protocolTrials robot tasks: the trials the suite's protocol prescribes
 * @param answer         VisualWebBench's text tasks: the gold text
 * @param answers        VisualWebBench webqa: the acceptable answers
 * @param choiceIndex    VisualWebBench's choice tasks: the correct option, 0-7
 */
public record MagmaTruth(List<UiAction> uiSteps, List<Double> targetBox, String elementKind, Integer protocolTrials,
                         String answer, List<String> answers, Integer choiceIndex) {

    static final FamilyPayload PAYLOAD = FamilyPayload.load(MagmaTasks.FAMILY, MagmaTruth.class, "MagmaTruth");

    /** A UI episode's gold steps. */
    public static MagmaTruth steps(List<UiAction> uiSteps) {
        return new MagmaTruth(uiSteps, null, null, null, null, null, null);
    }

    /** A ScreenSpot target. */
    public static MagmaTruth click(List<Double> targetBox, String elementKind) {
        return new MagmaTruth(null, targetBox, elementKind, null, null, null, null);
    }

    /** A robot task's protocol. */
    public static MagmaTruth trials(Integer protocolTrials) {
        return new MagmaTruth(null, null, null, protocolTrials, null, null, null);
    }

    /** A VisualWebBench gold: a text, the acceptable answers or a choice (one of them set). */
    public static MagmaTruth webGold(String answer, List<String> answers, Integer choiceIndex) {
        return new MagmaTruth(null, null, null, null, answer, answers, choiceIndex);
    }

    /** The item's Magma ground truth: its payload, else the shared fields. */
    public static MagmaTruth of(GroundTruth gt) throws EvaluationException {
        return PAYLOAD.read(gt,
                r -> new MagmaTruth(records(r, "uiSteps", UiAction::new), get(r, "targetBox"), get(r, "elementKind"),
                        get(r, "protocolTrials"), get(r, "answer"), get(r, "answers"), get(r, "choiceIndex")),
                g -> new MagmaTruth(g.getUiSteps(), g.getTargetBox(), g.getElementKind(), g.getProtocolTrials(), g.getAnswer(),
                        g.getAnswers(), g.getChoiceIndex()));
    }

    /** Sets this as {@code gt}'s payload. */
    public GroundTruth.Builder into(GroundTruth.Builder gt) {
        Schema s = PAYLOAD.schema();
        return PAYLOAD.write(gt, new GenericRecordBuilder(s).set("uiSteps", generic(s, "uiSteps", uiSteps)).set("targetBox", targetBox)
                .set("elementKind", elementKind).set("protocolTrials", protocolTrials).set("answer", answer).set("answers", answers)
                .set("choiceIndex", choiceIndex).build());
    }
}
