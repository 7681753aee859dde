package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.tasks.magma.VisualWebBench.Column;
import io.mmgr.stream.tasks.magma.VisualWebBench.Gold;
import io.mmgr.stream.tasks.magma.VisualWebBench.SampleResult;
import io.mmgr.stream.tasks.magma.VisualWebBench.Subtask;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The per-task rules of VisualWebBench's eval_utils.py (@ ec8feda) and its aggregation: the empty and
 * one-character prediction rules, WebQA's best gold answer and dropped samples, predictions that make
 * the official evaluation raise, and each column's mean on the 0-100 scale. Expected values are worked
 * from token counts with the package's F formula.
 */
@Tag("unit")
class VisualWebBenchTest {

    static final double PERFECT = 2.0 / (2.0 + 1e-8);

    static double f(double p, double r) {
        return 2.0 * ((p * r) / (p + r + 1e-8));
    }

    static SampleResult text(Subtask task, String prediction, String gold) {
        return VisualWebBench.score(task, prediction, new Gold.Text(gold));
    }

    static SampleResult webqa(String prediction, String... golds) {
        return VisualWebBench.score(Subtask.WEBQA, prediction, new Gold.Texts(List.of(golds)));
    }

    static SampleResult choice(String prediction, int gold) {
        return VisualWebBench.score(Subtask.ACTION_GROUND, prediction, new Gold.Choice(gold));
    }

    @Test
    void anEmptyPredictionIsScoredAsOneSpace() {
        for (Subtask task : List.of(Subtask.WEB_CAPTION, Subtask.HEADING_OCR, Subtask.ELEMENT_OCR)) {
            SampleResult r = text(task, "", "Home page");
            assertThat(r.failure()).isNull();
            assertThat(r.fractions()).containsEntry("rouge_1", 0.0).containsEntry("rouge_2", 0.0).containsEntry("rouge_l", 0.0);
            assertThat(r.diagnostics()).containsKey("prediction_replaced");
        }
        // the space is an empty token, which matches a reference's empty sentence
        assertThat(text(Subtask.WEB_CAPTION, "", "x. .").fractions().get("rouge_1")).isEqualTo(f(1.0, 0.5));
    }

    @Test
    void onlyElementOcrReplacesOneCharacterPredictions() {
        assertThat(text(Subtask.WEB_CAPTION, "a", "a").fractions().get("rouge_l")).isEqualTo(PERFECT);
        assertThat(text(Subtask.HEADING_OCR, "a", "a").fractions().get("rouge_l")).isEqualTo(PERFECT);
        assertThat(text(Subtask.ELEMENT_OCR, "a", "a").fractions().get("rouge_l")).isEqualTo(0.0);
        // one character is one code point: an emoji (two UTF-16 units) is replaced, e + combining accent is not
        assertThat(text(Subtask.ELEMENT_OCR, "\uD83D\uDE00", "\uD83D\uDE00").fractions().get("rouge_1")).isEqualTo(0.0);
        assertThat(text(Subtask.ELEMENT_OCR, "e\u0301", "e\u0301").fractions().get("rouge_1")).isEqualTo(PERFECT);
        // "." is one character, so element_ocr scores it as " " instead of raising
        SampleResult dot = text(Subtask.ELEMENT_OCR, ".", "Sign in");
        assertThat(dot.failure()).isNull();
        assertThat(dot.fractions().get("rouge_l")).isEqualTo(0.0);
    }

    @Test
    void aPredictionWithNoSentenceFailsTheOfficialTextTasks() {
        for (Subtask task : List.of(Subtask.WEB_CAPTION, Subtask.HEADING_OCR)) {
            SampleResult r = text(task, ".", "Home page");
            assertThat(r.failure()).contains("Hypothesis is empty.").contains("eval_" + task.id());
            assertThat(r.fractions().values()).containsOnlyNulls();
        }
        assertThat(text(Subtask.ELEMENT_OCR, "..", "Sign in").failure()).contains("Hypothesis is empty.");
        // and the task's column with it
        Column c = VisualWebBench.column(Subtask.WEB_CAPTION,
                List.of(text(Subtask.WEB_CAPTION, "Home page", "Home page"), text(Subtask.WEB_CAPTION, "...", "Home page")));
        assertThat(c.metrics().values()).containsOnlyNulls();
        assertThat(c.headline()).isNull();
        assertThat(c.notes()).singleElement().asString().contains("1 of 2 predictions");
    }

    @Test
    void webqaTakesTheBestGoldAnswer() {
        // "blue car": against "red car" 1 of 2 words, against "blue car" all
        SampleResult r = webqa("blue car", "red car", "blue car");
        assertThat(r.fractions().get("f1")).isEqualTo(PERFECT);
        assertThat(r.diagnostics()).containsEntry("best_answer", "1");
        assertThat(webqa("blue car", "red car").fractions().get("f1")).isEqualTo(f(0.5, 0.5));
        // the empty prediction becomes " "
        assertThat(webqa("", "red car").fractions().get("f1")).isEqualTo(0.0);
    }

    @Test
    void webqaDropsTheSamplesItCannotScore() {
        // no gold answer: max() of nothing raises inside the try
        assertThat(webqa("blue").dropped()).contains("no gold answers");
        // one unscorable gold answer drops the sample, even when another would score
        SampleResult oneBad = webqa("blue", "blue", ".");
        assertThat(oneBad.fractions().get("f1")).isNull();
        assertThat(oneBad.dropped()).contains("gold answer 1");
        // a prediction with no sentence is dropped here, where the text tasks fail
        SampleResult dots = webqa("...", "blue");
        assertThat(dots.dropped()).contains("Hypothesis is empty.");
        assertThat(dots.failure()).isNull();

        Column c = VisualWebBench.column(Subtask.WEBQA, List.of(
                webqa("blue car", "red car"), webqa("...", "blue"), webqa("red", "red")));
        // the mean over the two kept samples, as sum(f1_scores) / len(f1_scores) * 100
        assertThat(c.metrics().get("f1")).isEqualTo((f(0.5, 0.5) + PERFECT) / 2 * 100);
        assertThat(c.counted()).isEqualTo(2);
        assertThat(c.notes()).singleElement().asString().startsWith("1 of 3 samples dropped");
        // nothing kept: the official division by zero, no score
        assertThat(VisualWebBench.column(Subtask.WEBQA, List.of(webqa("x"))).headline()).isNull();
    }

    @Test
    void choiceAccuracyCountsParsedLettersAgainstTheGoldIndex() {
        assertThat(choice("B", 1).fractions().get("accuracy")).isEqualTo(1.0);
        assertThat(choice("B\n", 1).fractions().get("accuracy")).isEqualTo(0.0);
        assertThat(choice("", 0).fractions().get("accuracy")).isEqualTo(0.0);
        assertThat(choice("(C)", 2).diagnostics()).containsEntry("parsed", "C").containsEntry("gold", "C");
        Column c = VisualWebBench.column(Subtask.ACTION_GROUND, List.of(choice("B", 1), choice("(C)", 2), choice("I", 7)));
        assertThat(c.metrics().get("accuracy")).isEqualTo(2 / 3.0 * 100);
    }

    @Test
    void textColumnsAverageEachSamplesFThenScale() {
        SampleResult a = text(Subtask.HEADING_OCR, "the cat sat", "the cat sat on the mat");
        SampleResult b = text(Subtask.HEADING_OCR, "Hello, world", "hello world");
        Column c = VisualWebBench.column(Subtask.HEADING_OCR, List.of(a, b));
        // get_scores(avg=True): per-sample F summed in order, divided by the count, times 100
        assertThat(c.metrics().get("rouge_1")).isEqualTo((f(1.0, 0.6) + f(0.5, 0.5)) / 2 * 100);
        assertThat(c.metrics().get("rouge_2")).isEqualTo((f(1.0, 0.4) + 0.0) / 2 * 100);
        assertThat(c.metrics().get("rouge_l")).isEqualTo((f(1.0, 0.6) + f(0.5, 0.5)) / 2 * 100);
        // a sample's own metrics are on the 0-100 scale
        assertThat(a.metrics().get("rouge_1")).isEqualTo(74.99999953125);
    }

    @Test
    void theAverageIsThePlainMeanOfTheSevenHeadlineColumns() {
        Map<Subtask, Column> columns = new EnumMap<>(Subtask.class);
        columns.put(Subtask.WEB_CAPTION, VisualWebBench.column(Subtask.WEB_CAPTION, List.of(text(Subtask.WEB_CAPTION, "a b", "a b"))));
        columns.put(Subtask.WEBQA, VisualWebBench.column(Subtask.WEBQA, List.of(webqa("blue car", "red car"))));
        columns.put(Subtask.HEADING_OCR, VisualWebBench.column(Subtask.HEADING_OCR, List.of(text(Subtask.HEADING_OCR, "x", "y"))));
        columns.put(Subtask.ELEMENT_OCR, VisualWebBench.column(Subtask.ELEMENT_OCR, List.of(text(Subtask.ELEMENT_OCR, "the cat sat", "the cat sat on the mat"))));
        assertThat(VisualWebBench.average(columns)).as("not all seven yet").isNull();
        for (Subtask s : List.of(Subtask.ELEMENT_GROUND, Subtask.ACTION_PREDICTION, Subtask.ACTION_GROUND)) {
            columns.put(s, VisualWebBench.column(s, List.of(VisualWebBench.score(s, "A", new Gold.Choice(0)),
                    VisualWebBench.score(s, "A", new Gold.Choice(1)))));
        }
        double expected = (PERFECT * 100 + f(0.5, 0.5) * 100 + 0.0 + f(1.0, 0.6) * 100 + 50 + 50 + 50) / 7;
        assertThat(VisualWebBench.average(columns)).isCloseTo(expected, org.assertj.core.api.Assertions.within(1e-12));
    }

    @Test
    void goldsTheOfficialCodeCannotUseAreRefused() {
        assertThatThrownBy(() -> text(Subtask.WEB_CAPTION, "x", "."))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Reference is empty.");
        assertThatThrownBy(() -> VisualWebBench.score(Subtask.ELEMENT_GROUND, "A", new Gold.Choice(8)))
                .hasMessageContaining("0-7");
        assertThatThrownBy(() -> VisualWebBench.score(Subtask.WEBQA, "A", new Gold.Text("a")))
                .hasMessageContaining("list");
        assertThatThrownBy(() -> VisualWebBench.score(Subtask.WEBQA, null, new Gold.Texts(List.of("a"))))
                .hasMessageContaining("prediction is missing");
    }
}
