package io.mmgr.stream.tasks.magma;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.CaseFields;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;

/**
 * {@code mmgr eval mind2web}'s case, one line of its steps file: a gold step ({@code element} and/or
 * {@code bbox}, {@code op}, {@code value}) and the prediction for it ({@code element} and/or {@code point});
 * a missing or null {@code pred} is a step the model did not predict. One episode is one sample
 * ({@link UiEpisodeCases}).
 */
final class Mind2WebEvalCase {

    static final EvalAdapter.Grouping EPISODES = UiEpisodeCases.grouping("mind2web", Mind2WebEvalCase::step);

    private Mind2WebEvalCase() {
    }

    private static UiEpisodeCases.Step step(EvalCase c) {
        JsonNode g = CaseFields.object(c, c.fields(), "gold");
        UiAction gold = UiAction.newBuilder().setBbox(CaseFields.numbers(c, g, "bbox"))
                .setElement(CaseFields.text(c, g, "element"))
                .setOp(CaseFields.text(c, g, "op")).setValue(CaseFields.text(c, g, "value")).build();
        CaseFields.convert(c, "gold", () -> MagmaRecords.mind2webGoldStep(gold));
        UiAction prediction = UiEpisodeCases.notPredicted();
        JsonNode p = UiEpisodeCases.pred(c);
        if (p != null) {
            prediction = UiAction.newBuilder().setPoint(CaseFields.numbers(c, p, "point"))
                    .setElement(CaseFields.text(c, p, "element"))
                    .setOp(CaseFields.text(c, p, "op")).setValue(CaseFields.text(c, p, "value")).build();
            UiAction checked = prediction;
            CaseFields.convert(c, "pred", () -> MagmaRecords.mind2webPrediction(checked));
        }
        return new UiEpisodeCases.Step(gold, prediction);
    }
}
