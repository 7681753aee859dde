package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
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
 * The {@code eval visualwebbench} adapter: one line is one sample of its subtask, keyed by id, handed
 * over before the next line is read; an id repeated within a subtask names both lines.
 */
@Tag("unit")
class VisualWebBenchEvalCaseTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String line(String id, String subtask, Object prediction, Object answer) {
        var n = JSON.createObjectNode().put("id", id).put("subtask", subtask);
        n.set("prediction", JSON.valueToTree(prediction));
        n.set("answer", JSON.valueToTree(answer));
        return n.toString();
    }

    /** Cases at lines 1, 2, 3, ... */
    private static List<EvalCase> cases(String... lines) throws Exception {
        List<EvalCase> out = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            out.add(new EvalCase(JSON.readTree(lines[i]), i + 1));
        }
        return out;
    }

    private static EvalAdapter adapter() {
        return TaskFamily.evalAdapter("visualwebbench");
    }

    @Test
    void eachLineIsOneSampleOfItsSubtaskWithTheGoldOfItsKind() throws Exception {
        List<EvalAdapter.Group> groups = adapter().samples(cases(
                line("c1", "web_caption", "the cat", "the cat sat"),
                line("q1", "webqa", "", List.of("red car", "blue car")),
                line("g1", "element_ground", "(B)", 1)));

        assertThat(groups).extracting(EvalAdapter.Group::key).containsExactly("c1", "q1", "g1");
        assertThat(groups).extracting(EvalAdapter.Group::line).containsExactly(1, 2, 3);
        EvalSample caption = groups.get(0).sample();
        assertThat(caption.event().getTask()).isEqualTo("visualwebbench-web_caption").isEqualTo(caption.item().getTask());
        assertThat(caption.event().getModality()).isEqualTo("text");
        assertThat(caption.event().getInputs().getText()).isEqualTo("the cat");
        assertThat(MagmaTruth.of(caption.item().getGroundTruth()).answer()).isEqualTo("the cat sat");

        EvalSample qa = groups.get(1).sample();
        assertThat(qa.event().getInputs().getText()).as("no prediction is \"\", not null").isEmpty();
        assertThat(MagmaTruth.of(qa.item().getGroundTruth()).answers()).containsExactly("red car", "blue car");
        MagmaTruth choice = MagmaTruth.of(groups.get(2).sample().item().getGroundTruth());
        assertThat(choice.choiceIndex()).isEqualTo(1);
        assertThat(choice.answer()).isNull();
    }

    @Test
    void eachSampleIsHandedOverBeforeTheNextLineIsRead() throws Exception {
        List<String> handed = new ArrayList<>();
        List<EvalCase> lines = cases(line("h1", "heading_ocr", "a", "a"), line("h2", "heading_ocr", "b", "b"),
                line("h3", "heading_ocr", "c", List.of("c")));
        assertThatThrownBy(() -> adapter().samples(lines, g -> handed.add(g.key())))
                .isInstanceOfSatisfying(EvalCaseException.class, e -> assertThat(e.line()).isEqualTo(3))
                .hasMessage("'answer' of heading_ocr must be a string");
        assertThat(handed).containsExactly("h1", "h2");
    }

    @Test
    void anIdRepeatedWithinASubtaskNamesTheLineItFirstAppearedOn() throws Exception {
        // the same id in another subtask is another sample
        assertThat(adapter().samples(cases(line("q", "webqa", "a", List.of("a")), line("q", "web_caption", "a", "a"))))
                .hasSize(2);
        // the repeat is found before the rest of its line is read
        assertThatThrownBy(() -> adapter().samples(cases(line("q", "webqa", "a", List.of("a")),
                line("x", "webqa", "a", List.of("a")), line("q", "webqa", 3, "not a list"))))
                .isInstanceOfSatisfying(EvalCaseException.class, e -> assertThat(e.line()).isEqualTo(3))
                .hasMessage("webqa sample 'q' already appears on line 1");
    }

    @Test
    void malformedFieldsAreTheLinesErrors() throws Exception {
        assertThatThrownBy(() -> adapter().samples(cases(line("x", "tables", "a", "b"))))
                .hasMessageStartingWith("unknown subtask 'tables' (one of web_caption, webqa, ");
        assertThatThrownBy(() -> adapter().samples(cases(line("x", "webqa", 3, List.of("a")))))
                .hasMessage("'prediction' must be a string (the model's raw output, \"\" for none)");
        assertThatThrownBy(() -> adapter().samples(cases("{\"id\":\"x\",\"subtask\":\"webqa\",\"answer\":[\"a\"]}")))
                .hasMessage("'prediction' is missing");
        assertThatThrownBy(() -> adapter().samples(cases(line("x", "webqa", "a", List.of("a", 1)))))
                .hasMessage("'answer' of webqa must be a list of strings");
        assertThatThrownBy(() -> adapter().samples(cases(line("x", "action_ground", "a", "B"))))
                .hasMessage("'answer' of action_ground must be an option index 0-7");
        assertThatThrownBy(() -> adapter().samples(cases("{\"subtask\":\"webqa\",\"prediction\":\"a\",\"answer\":[]}")))
                .hasMessage("'id' is missing");
    }
}
