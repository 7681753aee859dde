package io.mmgr.stream.tasks.magma;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.CaseFields;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code mmgr eval aitw}'s case, one line of its steps file: a gold step ({@code op}, {@code point},
 * {@code liftPoint}, {@code screenBoxes}) and the predicted action for it; a missing or null {@code pred}
 * fails the step. A typed value is not read: the reference does not compare it. One episode is one sample
 * ({@link UiEpisodeCases}).
 */
final class AitwEvalCase {

    static final EvalAdapter.Grouping EPISODES = UiEpisodeCases.grouping("aitw", AitwEvalCase::step);

    private AitwEvalCase() {
    }

    private static UiEpisodeCases.Step step(EvalCase c) {
        JsonNode g = CaseFields.object(c, c.fields(), "gold");
        UiAction.Builder goldAction = action(c, g);
        CaseFields.convert(c, "gold", () -> MagmaRecords.aitwAction(goldAction.build()));
        JsonNode sb = g.get("screenBoxes");
        if (sb != null && !sb.isNull()) {
            if (!sb.isArray()) {
                throw c.error("gold: 'screenBoxes' must be an array of [y, x, height, width]");
            }
            List<List<Double>> boxes = new ArrayList<>();
            for (JsonNode b : sb) {
                boxes.add(CaseFields.numberArray(c, b, "screenBoxes"));
            }
            goldAction.setScreenBoxes(boxes);
        }
        UiAction gold = goldAction.build();
        CaseFields.convert(c, "gold", () -> MagmaRecords.aitwGoldStep(gold));
        UiAction prediction = UiEpisodeCases.notPredicted();
        JsonNode p = UiEpisodeCases.pred(c);
        if (p != null) {
            UiAction checked = action(c, p).build();
            CaseFields.convert(c, "pred", () -> MagmaRecords.aitwAction(checked));
            prediction = checked;
        }
        return new UiEpisodeCases.Step(gold, prediction);
    }

    /** The action fields of a gold or predicted step. */
    private static UiAction.Builder action(EvalCase c, JsonNode obj) {
        return UiAction.newBuilder().setPoint(CaseFields.numbers(c, obj, "point"))
                .setLiftPoint(CaseFields.numbers(c, obj, "liftPoint"))
                .setOp(CaseFields.text(c, obj, "op"));
    }
}
