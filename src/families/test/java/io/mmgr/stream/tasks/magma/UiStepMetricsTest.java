package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.tasks.magma.UiStepMetrics.Gold;
import io.mmgr.stream.tasks.magma.UiStepMetrics.Prediction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class UiStepMetricsTest {

    private static final Box BOX = new Box(10, 20, 110, 60);

    private static Gold gold(String element, Box box, String op, String value) {
        return new Gold(element, box, op, value);
    }

    private static Prediction byId(String element, String op, String value) {
        return new Prediction(element, null, op, value);
    }

    private static Prediction byPoint(double x, double y, String op, String value) {
        return new Prediction(null, new Point(x, y), op, value);
    }

    @Test
    void elementMatchesById() {
        Gold g = gold("node-7", null, "CLICK", null);
        assertThat(UiStepMetrics.elementCorrect(byId("node-7", "CLICK", null), g)).isTrue();
        assertThat(UiStepMetrics.elementCorrect(byId("node-8", "CLICK", null), g)).isFalse();
        // ids are compared exactly
        assertThat(UiStepMetrics.elementCorrect(byId("NODE-7", "CLICK", null), g)).isFalse();
    }

    @Test
    void elementMatchesByPointInsideTheBoxEdgesIncluded() {
        Gold g = gold("node-7", BOX, "CLICK", null);
        assertThat(UiStepMetrics.elementCorrect(byPoint(60, 40, "CLICK", null), g)).isTrue();
        assertThat(UiStepMetrics.elementCorrect(byPoint(10, 40, "CLICK", null), g)).as("left edge").isTrue();
        assertThat(UiStepMetrics.elementCorrect(byPoint(110, 60, "CLICK", null), g)).as("bottom-right corner").isTrue();
        assertThat(UiStepMetrics.elementCorrect(byPoint(Math.nextDown(10.0), 40, "CLICK", null), g))
                .as("just left of the box").isFalse();
        assertThat(UiStepMetrics.elementCorrect(byPoint(60, Math.nextUp(60.0), "CLICK", null), g))
                .as("just below the box").isFalse();
    }

    @Test
    void eitherIdOrPointSuffices() {
        Gold g = gold("node-7", BOX, "CLICK", null);
        assertThat(UiStepMetrics.elementCorrect(new Prediction("other", new Point(50, 50), "CLICK", null), g)).isTrue();
        assertThat(UiStepMetrics.elementCorrect(new Prediction("node-7", new Point(500, 500), "CLICK", null), g)).isTrue();
        assertThat(UiStepMetrics.elementCorrect(new Prediction("other", new Point(500, 500), "CLICK", null), g)).isFalse();
        // a point cannot hit a gold step that has no box
        assertThat(UiStepMetrics.elementCorrect(byPoint(50, 50, "CLICK", null), gold("node-7", null, "CLICK", null))).isFalse();
    }

    @Test
    void operationF1FoldsCaseAndJoinsOpWithValue() {
        assertThat(UiStepMetrics.operationF1("type", "New York", "TYPE", "new york")).isEqualTo(1.0);
        // "TYPE new jersey" vs "TYPE new york": 2 common of 3 and 3 -> P = R = 2/3 -> F1 = 2/3
        assertThat(UiStepMetrics.operationF1("TYPE", "new jersey", "TYPE", "new york")).isCloseTo(2.0 / 3, within(1e-15));
        // {select} vs {select, blue, shirt}: P = 1, R = 1/3 -> F1 = 2 * 1/3 / (4/3) = 1/2
        assertThat(UiStepMetrics.operationF1("SELECT", null, "SELECT", "Blue Shirt")).isCloseTo(0.5, within(1e-15));
        assertThat(UiStepMetrics.operationF1("CLICK", null, "TYPE", "x")).isEqualTo(0.0);
    }

    @Test
    void operationF1TreatsTokensAsSets() {
        // as multisets this would be 2 * 3 / (4 + 3) = 6/7; as sets the token sets are equal
        assertThat(UiStepMetrics.operationF1("CLICK", "a a b", "CLICK", "a b")).isEqualTo(1.0);
        assertThat(UiStepMetrics.tokens("Go go GO now")).containsExactlyInAnyOrder("go", "now");
    }

    @Test
    void emptyTokenSets() {
        assertThat(UiStepMetrics.tokenSetF1("", "   ")).isEqualTo(1.0);
        assertThat(UiStepMetrics.operationF1(null, null, null, null)).isEqualTo(1.0);
        assertThat(UiStepMetrics.tokenSetF1("", "click")).isEqualTo(0.0);
        assertThat(UiStepMetrics.tokenSetF1("click", null)).isEqualTo(0.0);
    }

    @Test
    void tokensSplitOnAnyWhitespace() {
        assertThat(UiStepMetrics.tokens("TYPE\tnew\u00A0york\n  now"))
                .containsExactlyInAnyOrder("type", "new", "york", "now");
    }

    @Test
    void stepSucceedsOnlyWithRightElementAndPerfectF1() {
        Gold g = gold("a", BOX, "TYPE", "new york");
        assertThat(UiStepMetrics.scoreStep(byId("a", "TYPE", "New York"), g).success()).isTrue();
        assertThat(UiStepMetrics.scoreStep(byPoint(10, 20, "type", "NEW YORK"), g).success()).isTrue();
        UiStepMetrics.StepResult wrongValue = UiStepMetrics.scoreStep(byId("a", "TYPE", "new jersey"), g);
        assertThat(wrongValue.elementCorrect()).isTrue();
        assertThat(wrongValue.success()).isFalse();
        UiStepMetrics.StepResult wrongElement = UiStepMetrics.scoreStep(byId("b", "TYPE", "new york"), g);
        assertThat(wrongElement.operationF1()).isEqualTo(1.0);
        assertThat(wrongElement.success()).isFalse();
    }

    @Test
    void missingStepsFailAndExtraStepsAreNotScored() {
        List<Gold> gold = List.of(
                gold("a", null, "CLICK", null),
                gold("b", null, "TYPE", "new york"),
                gold("c", null, "CLICK", null));
        // two predictions: step 0 right, step 1 right element with F1 2/3; step 2 missing
        UiStepMetrics.EpisodeResult r = UiStepMetrics.scoreEpisode(
                List.of(byId("a", "CLICK", null), byId("b", "TYPE", "new jersey")), gold);
        assertThat(r.steps()).hasSize(3);
        assertThat(r.elementSelectionAccuracy()).isCloseTo(2.0 / 3, within(1e-15));
        assertThat(r.operationF1()).isCloseTo((1 + 2.0 / 3 + 0) / 3, within(1e-15));
        assertThat(r.stepSuccessRate()).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(r.taskSuccess()).isFalse();
        assertThat(r.missingSteps()).isEqualTo(1);

        UiStepMetrics.EpisodeResult longer = UiStepMetrics.scoreEpisode(List.of(
                byId("a", "CLICK", null), byId("b", "TYPE", "new york"), byId("c", "CLICK", null),
                byId("zzz", "CLICK", null)), gold);
        assertThat(longer.stepSuccessRate()).isEqualTo(1.0);
        assertThat(longer.taskSuccess()).isTrue();
        assertThat(longer.extraPredictedSteps()).isEqualTo(1);

        List<Prediction> withHole = new ArrayList<>(Arrays.asList(byId("a", "CLICK", null), null, byId("c", "CLICK", null)));
        UiStepMetrics.EpisodeResult holed = UiStepMetrics.scoreEpisode(withHole, gold);
        assertThat(holed.steps().get(1).predicted()).isFalse();
        assertThat(holed.stepSuccessRate()).isCloseTo(2.0 / 3, within(1e-15));
    }

    @Test
    void summaryIsMacroOverEpisodesWithMicroBeside() {
        Gold click = gold("a", null, "CLICK", null);
        // episode A: 1 step, succeeds
        UiStepMetrics.EpisodeResult a = UiStepMetrics.scoreEpisode(List.of(byId("a", "CLICK", null)), List.of(click));
        // episode B: 3 steps, one succeeds, one has a wrong element, one is missing
        UiStepMetrics.EpisodeResult b = UiStepMetrics.scoreEpisode(
                List.of(byId("a", "CLICK", null), byId("x", "CLICK", null)), List.of(click, click, click));
        UiStepMetrics.Summary s = UiStepMetrics.summarize(List.of(a, b));
        assertThat(s.episodes()).isEqualTo(2);
        assertThat(s.steps()).isEqualTo(4);
        assertThat(s.stepSuccessRate()).isCloseTo((1 + 1.0 / 3) / 2, within(1e-15));
        assertThat(s.microStepSuccessRate()).isCloseTo(2.0 / 4, within(1e-15));
        assertThat(s.elementSelectionAccuracy()).isCloseTo((1 + 1.0 / 3) / 2, within(1e-15));
        // F1 per step: A 1; B 1, 1, 0 (missing)
        assertThat(s.operationF1()).isCloseTo((1 + 2.0 / 3) / 2, within(1e-15));
        assertThat(s.microOperationF1()).isCloseTo(3.0 / 4, within(1e-15));
        assertThat(s.taskSuccessRate()).isEqualTo(0.5);
    }

    @Test
    void invalidStepsAreRejectedWithAReason() {
        assertThatThrownBy(() -> new Prediction(" ", null, "CLICK", null))
                .hasMessageContaining("needs an element id or a point");
        assertThatThrownBy(() -> new Gold(null, null, "CLICK", null)).hasMessageContaining("element id or a bbox");
        assertThatThrownBy(() -> new Gold("a", null, " ", null)).hasMessageContaining("needs an op");
        assertThatThrownBy(() -> Box.of(List.of(1.0, 2.0, 3.0))).hasMessageContaining("[x1, y1, x2, y2]");
        assertThatThrownBy(() -> new Box(5, 0, 1, 1)).hasMessageContaining("x1 <= x2");
        assertThatThrownBy(() -> Point.of(List.of(1.0, Double.NaN))).hasMessageContaining("finite");
        assertThatThrownBy(() -> UiStepMetrics.scoreEpisode(List.of(), List.of())).hasMessageContaining("gold step");
    }

    /** Property check against Dice's formula 2|A∩B| / (|A| + |B|), which equals set F1. */
    @Test
    void f1PropertiesOnRandomTokenStrings() {
        Random random = new Random(20250213);
        String[] vocabulary = {"click", "type", "select", "new", "york", "blue", "shirt", "a", "b", "ok"};
        for (int i = 0; i < 2000; i++) {
            String p = randomText(random, vocabulary);
            String g = randomText(random, vocabulary);
            double f1 = UiStepMetrics.tokenSetF1(p, g);
            assertThat(f1).isBetween(0.0, 1.0);
            assertThat(UiStepMetrics.tokenSetF1(g, p)).as("symmetric").isEqualTo(f1);
            Set<String> a = independentTokens(p);
            Set<String> b = independentTokens(g);
            Set<String> common = new HashSet<>(a);
            common.retainAll(b);
            double dice = a.isEmpty() && b.isEmpty() ? 1.0 : 2.0 * common.size() / (a.size() + b.size());
            assertThat(f1).as("'%s' vs '%s'", p, g).isCloseTo(dice, within(1e-12));
            assertThat(f1 == 1.0).isEqualTo(a.equals(b));
        }
    }

    private static String randomText(Random random, String[] vocabulary) {
        int n = random.nextInt(5);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String w = vocabulary[random.nextInt(vocabulary.length)];
            sb.append(random.nextBoolean() ? w.toUpperCase(Locale.ROOT) : w).append(random.nextBoolean() ? " " : "  ");
        }
        return sb.toString();
    }

    private static Set<String> independentTokens(String s) {
        return Arrays.stream(s.toLowerCase(Locale.ROOT).trim().split(" +"))
                .filter(t -> !t.isEmpty()).collect(Collectors.toSet());
    }
}
