package io.mmgr.stream.tasks.magma;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.CaseFields;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import java.util.List;

/**
 * {@code mmgr eval screenspot}'s case, one line of its clicks file: {@code kind} (text or icon),
 * {@code bbox} (the target, [x1, y1, x2, y2]) and {@code point} (the predicted click, same coordinates).
 * The click travels in {@code inputs.uiActions[0]}, the target and its kind in the item; the evaluator
 * checks them, as it does for the stream's events.
 */
final class ScreenSpotEvalCase {

    static final String TASK = "screenspot";

    private ScreenSpotEvalCase() {
    }

    static EvalSample sample(EvalCase c) {
        JsonNode n = c.fields();
        String kind = CaseFields.text(c, n, "kind");
        List<Double> bbox = CaseFields.numbers(c, n, "bbox");
        List<Double> point = CaseFields.numbers(c, n, "point");
        return new EvalSample(
                EvalSample.event(TASK, "ui", GenerationInputs.newBuilder()
                        .setUiActions(List.of(UiAction.newBuilder().setPoint(point).build())).build()),
                EvalSample.item(TASK, MagmaTruth.click(bbox, kind).into(GroundTruth.newBuilder()).build()));
    }
}
