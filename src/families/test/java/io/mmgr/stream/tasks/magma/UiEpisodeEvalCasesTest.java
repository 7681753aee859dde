package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalCaseException;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.TaskFamily;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The {@code eval mind2web} and {@code eval aitw} adapters: step lines grouped into episodes in the order
 * of their first line, each episode the event and item the stream would get, and the line named by each
 * error in the order the command has always reported them (a line's fields and step number, then gaps).
 */
@Tag("unit")
class UiEpisodeEvalCasesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Cases at lines 2, 4, 6, ... (as if blank lines were between them), so a named line is the case's own. */
    private static List<EvalCase> cases(String... lines) throws Exception {
        List<EvalCase> out = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            out.add(new EvalCase(JSON.readTree(lines[i]), 2 * (i + 1)));
        }
        return out;
    }

    private static String m2w(String episode, int step, String element, String pred) {
        return "{\"episode\":\"" + episode + "\",\"step\":" + step + ",\"gold\":{\"element\":\"" + element
                + "\",\"bbox\":[1,2,3,4],\"op\":\"TYPE\",\"value\":\"paris\"}" + (pred == null ? "" : ",\"pred\":" + pred) + "}";
    }

    private static List<EvalAdapter.Group> mind2web(List<EvalCase> cases) throws Exception {
        return TaskFamily.evalAdapter("mind2web").samples(cases);
    }

    private static EvalCaseException error(ThrowingRead read) {
        try {
            read.run();
        } catch (EvalCaseException e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError("expected a case error, got " + e, e);
        }
        throw new AssertionError("expected a case error");
    }

    @FunctionalInterface
    private interface ThrowingRead {
        void run() throws Exception;
    }

    @Test
    void mind2webEpisodesComeInTheOrderOfTheirFirstLineWithTheirStepsInStepOrder() throws Exception {
        String pred = "{\"element\":\"a\",\"op\":\"type\",\"value\":\"Paris\"}";
        List<EvalAdapter.Group> groups = mind2web(cases(
                m2w("late", 1, "l1", pred), m2w("early", 0, "e0", "{\"point\":[2,3]}"), m2w("late", 0, "l0", null),
                m2w("early", 1, "e1", "null")));

        assertThat(groups).extracting(EvalAdapter.Group::key).containsExactly("late", "early");
        assertThat(groups).extracting(EvalAdapter.Group::line).as("each episode's first line").containsExactly(2, 4);
        EvalSample late = groups.get(0).sample();
        assertThat(late.event().getTask()).isEqualTo("mind2web").isEqualTo(late.item().getTask());
        assertThat(late.event().getModality()).isEqualTo("ui");
        assertThat(late.event().getSampleId()).isEqualTo(late.item().getSampleId()).isEqualTo(EvalSample.CLI);
        assertThat(MagmaTruth.of(late.item().getGroundTruth()).uiSteps()).extracting(UiAction::getElement).containsExactly("l0", "l1");
        UiAction gold = MagmaTruth.of(late.item().getGroundTruth()).uiSteps().get(1);
        assertThat(gold.getBbox()).containsExactly(1.0, 2.0, 3.0, 4.0);
        assertThat(gold.getOp()).isEqualTo("TYPE");
        assertThat(gold.getValue()).isEqualTo("paris");
        List<UiAction> predicted = late.event().getInputs().getUiActions();
        assertThat(MagmaRecords.notPredicted(predicted.get(0))).as("step 0 had no pred").isTrue();
        assertThat(predicted.get(1).getElement()).isEqualTo("a");
        assertThat(predicted.get(1).getOp()).isEqualTo("type");
        assertThat(predicted.get(1).getValue()).isEqualTo("Paris");

        List<UiAction> early = groups.get(1).sample().event().getInputs().getUiActions();
        assertThat(early.get(0).getPoint()).containsExactly(2.0, 3.0);
        assertThat(MagmaRecords.notPredicted(early.get(1))).as("a null pred is no prediction").isTrue();
    }

    @Test
    void aRepeatedStepNamesItsLineAndTheFirstOne() {
        EvalCaseException e = error(() -> mind2web(cases(m2w("e1", 0, "a", null), m2w("e1", 1, "b", null),
                m2w("e1", 0, "c", null))));
        assertThat(e.line()).isEqualTo(6);
        assertThat(e).hasMessage("episode 'e1' step 0 appears twice (first on line 2)");
    }

    @Test
    void aGapNamesTheLineOfTheStepAfterIt() {
        EvalCaseException e = error(() -> mind2web(cases(m2w("ok", 0, "a", null), m2w("e1", 2, "c", null),
                m2w("e1", 0, "a", null), m2w("e1", 3, "d", null))));
        assertThat(e.line()).isEqualTo(4);
        assertThat(e).hasMessage("episode 'e1' has step 2 but no step 1 (steps run 0, 1, 2, ... without gaps)");

        EvalCaseException negative = error(() -> mind2web(cases(m2w("e1", -1, "a", null))));
        assertThat(negative.line()).isEqualTo(2);
        assertThat(negative).hasMessage("'step' must not be negative");
    }

    @Test
    void everyLineIsCheckedBeforeTheGapsAndARepeatIsNamedWhereItsLineIs() {
        String badGold = "{\"episode\":\"e2\",\"step\":0,\"gold\":{\"bbox\":[1,2,3],\"op\":\"CLICK\"}}";
        // e1 lacks step 0, but the bad gold of a later line is the error
        EvalCaseException fields = error(() -> mind2web(cases(m2w("e1", 1, "a", null), badGold)));
        assertThat(fields.line()).isEqualTo(4);
        assertThat(fields.getMessage()).startsWith("gold: ").contains("bbox must be [x1, y1, x2, y2]");

        // a repeat is found as its line is read, before a later line's bad field
        EvalCaseException repeat = error(() -> mind2web(cases(m2w("e1", 0, "a", null), m2w("e1", 0, "a", null), badGold)));
        assertThat(repeat.line()).isEqualTo(4);
        assertThat(repeat).hasMessageContaining("appears twice");

        EvalCaseException pred = error(() -> mind2web(cases(m2w("e1", 0, "a", "\"click\""))));
        assertThat(pred).hasMessage("'pred' must be an object");
        EvalCaseException empty = error(() -> mind2web(cases(m2w("e1", 0, "a", "{}"))));
        assertThat(empty).hasMessage("pred: a predicted step needs an element id or a point");
        EvalCaseException episode = error(() -> mind2web(cases("{\"step\":0,\"gold\":{\"element\":\"a\",\"op\":\"CLICK\"}}")));
        assertThat(episode).hasMessage("'episode' is missing");
    }

    private static String aitw(String episode, int step, String gold, String pred) {
        return "{\"episode\":\"" + episode + "\",\"step\":" + step + ",\"gold\":" + gold
                + (pred == null ? "" : ",\"pred\":" + pred) + "}";
    }

    @Test
    void anAitwEpisodeCarriesTheGoldScreenBoxesAndThePredictedActionsWithoutTheirValue() throws Exception {
        EvalAdapter adapter = TaskFamily.evalAdapter("aitw");
        assertThat(adapter.evaluator()).isEqualTo(AitwEvaluator.ID);
        List<EvalAdapter.Group> groups = adapter.samples(cases(
                aitw("b", 0, "{\"op\":\"TYPE\",\"value\":\"coffee\"}", "{\"op\":\"TYPE\",\"value\":\"tea\"}"),
                aitw("a", 0, "{\"op\":\"DUAL_POINT\",\"point\":[0.4,0.5],\"screenBoxes\":[[0.1,0.2,0.3,0.4]]}",
                        "{\"op\":\"DUAL_POINT\",\"point\":[0.5,0.2],\"liftPoint\":[0.5,0.8]}"),
                aitw("b", 1, "{\"op\":\"PRESS_BACK\"}", null)));

        assertThat(groups).extracting(EvalAdapter.Group::key).containsExactly("b", "a");
        EvalSample a = groups.get(1).sample();
        assertThat(a.event().getTask()).isEqualTo("aitw").isEqualTo(a.item().getTask());
        UiAction gold = MagmaTruth.of(a.item().getGroundTruth()).uiSteps().get(0);
        assertThat(gold.getPoint()).containsExactly(0.4, 0.5);
        assertThat(gold.getScreenBoxes()).containsExactly(List.of(0.1, 0.2, 0.3, 0.4));
        UiAction tap = a.event().getInputs().getUiActions().get(0);
        assertThat(tap.getLiftPoint()).containsExactly(0.5, 0.8);

        EvalSample b = groups.get(0).sample();
        assertThat(MagmaTruth.of(b.item().getGroundTruth()).uiSteps()).extracting(UiAction::getOp).containsExactly("TYPE", "PRESS_BACK");
        assertThat(b.event().getInputs().getUiActions().get(0).getValue()).as("not compared, not read").isNull();
        assertThat(MagmaTruth.of(b.item().getGroundTruth()).uiSteps().get(0).getScreenBoxes()).as("no boxes given").isNull();
        assertThat(MagmaRecords.notPredicted(b.event().getInputs().getUiActions().get(1))).isTrue();
    }

    @Test
    void aitwLineErrorsNameTheLine() {
        EvalAdapter adapter = TaskFamily.evalAdapter("aitw");
        EvalCaseException pixels = error(() -> adapter.samples(cases(
                aitw("e1", 0, "{\"op\":\"PRESS_BACK\"}", null),
                aitw("e1", 1, "{\"op\":\"DUAL_POINT\",\"point\":[540,1200]}", null))));
        assertThat(pixels.line()).isEqualTo(4);
        assertThat(pixels.getMessage()).startsWith("gold: point [540.0, 1200.0] is outside [0, 1]");

        EvalCaseException boxes = error(() -> adapter.samples(cases(
                aitw("e1", 0, "{\"op\":\"DUAL_POINT\",\"point\":[0.5,0.5],\"screenBoxes\":\"all\"}", null))));
        assertThat(boxes).hasMessage("gold: 'screenBoxes' must be an array of [y, x, height, width]");

        EvalCaseException pred = error(() -> adapter.samples(cases(
                aitw("e1", 0, "{\"op\":\"PRESS_BACK\"}", "{\"op\":\"DUAL_POINT\",\"point\":[4,4]}"))));
        assertThat(pred.getMessage()).startsWith("pred: point [4.0, 4.0] is outside [0, 1]");
    }

    @Test
    void aStepLineIsNotASampleAlone() throws Exception {
        EvalCase line = cases(m2w("e1", 0, "a", null)).get(0);
        assertThatThrownBy(() -> TaskFamily.evalAdapter("mind2web").sample(line))
                .isInstanceOfSatisfying(EvalCaseException.class, e -> assertThat(e.line()).isEqualTo(2))
                .hasMessageContaining("reads its cases together");
    }
}
