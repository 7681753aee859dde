package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.tasks.magma.AitwActionMatching.Action;
import io.mmgr.stream.tasks.magma.AitwActionMatching.GoldStep;
import io.mmgr.stream.tasks.magma.AitwActionMatching.ScreenBox;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class AitwActionMatchingTest {

    private static Action tap(double x, double y) {
        return new Action("DUAL_POINT", new Point(x, y), new Point(x, y));
    }

    private static Action swipe(double x1, double y1, double x2, double y2) {
        return new Action("DUAL_POINT", new Point(x1, y1), new Point(x2, y2));
    }

    private static Action op(String type) {
        return new Action(type, null, null);
    }

    /** y 0.4, x 0.4, 0.1 x 0.1: grown by 1.4x it spans [0.33, 0.57] on both axes. */
    private static final ScreenBox BUTTON = new ScreenBox(0.4, 0.4, 0.1, 0.1);

    @Test
    void enlargementFollowsTheReference() {
        ScreenBox grown = BUTTON.enlarged();
        assertThat(grown.top()).isCloseTo(0.33, within(1e-12));
        assertThat(grown.left()).isCloseTo(0.33, within(1e-12));
        assertThat(grown.height()).isCloseTo(0.24, within(1e-12));
        assertThat(grown.width()).isCloseTo(0.24, within(1e-12));
    }

    @Test
    void tapsInTheSameEnlargedBoxMatchEvenWhenFarApart() {
        Point a = new Point(0.34, 0.34);
        Point b = new Point(0.56, 0.56);
        assertThat(a.distanceTo(b)).isGreaterThan(0.14);
        assertThat(BUTTON.contains(a)).as("outside the annotation itself").isFalse();
        assertThat(BUTTON.contains(b)).isFalse();
        assertThat(AitwActionMatching.matches(tap(0.34, 0.34), tap(0.56, 0.56), List.of(BUTTON))).isTrue();
        // without the box, they are too far apart
        assertThat(AitwActionMatching.matches(tap(0.34, 0.34), tap(0.56, 0.56), List.of())).isFalse();
    }

    @Test
    void tapsWithinDistanceMatchWithoutABox() {
        assertThat(AitwActionMatching.matches(tap(0.5, 0.5), tap(0.6, 0.5), List.of())).isTrue();
        assertThat(AitwActionMatching.matches(tap(0.5, 0.5), tap(0.5, 0.6), List.of())).isTrue();
        // 0.15 apart
        assertThat(AitwActionMatching.matches(tap(0.5, 0.5), tap(0.65, 0.5), List.of())).isFalse();
        // 0.125 apart (exactly representable): inside the threshold
        assertThat(AitwActionMatching.matches(tap(0.5, 0.25), tap(0.5, 0.375), List.of())).isTrue();
    }

    @Test
    void tapsInDifferentBoxesDoNotMatch() {
        ScreenBox top = new ScreenBox(0.1, 0.1, 0.05, 0.05);
        ScreenBox bottom = new ScreenBox(0.7, 0.7, 0.05, 0.05);
        assertThat(AitwActionMatching.matches(tap(0.12, 0.12), tap(0.72, 0.72), List.of(top, bottom))).isFalse();
        // one inside the grown box, the other outside it and far away
        assertThat(AitwActionMatching.matches(tap(0.45, 0.45), tap(0.45, 0.8), List.of(BUTTON))).isFalse();
    }

    @Test
    void clampedBoxKeepsItsFullGrownSizeAsInTheReference() {
        // top 0.02, height 0.1: the reference moves the top to max(0, 0.02 - 0.07) = 0 and grows the
        // height to 0.24 without shortening it, so the box reaches y = 0.24 (not 0.19)
        ScreenBox nearTop = new ScreenBox(0.02, 0.5, 0.1, 0.1);
        assertThat(AitwActionMatching.matches(tap(0.55, 0.0), tap(0.55, 0.23), List.of(nearTop))).isTrue();
        assertThat(AitwActionMatching.matches(tap(0.55, 0.0), tap(0.55, 0.25), List.of(nearTop))).isFalse();
    }

    @Test
    void tapOrSwipeIsDecidedByTheFourPercentThreshold() {
        assertThat(AitwActionMatching.isTap(new Point(0.5, 0.0), new Point(0.5, 0.04))).as("exactly 0.04").isTrue();
        assertThat(AitwActionMatching.isTap(new Point(0.5, 0.0), new Point(0.5, 0.0625))).isFalse();
        // a tap that moved by 0.04 still matches a clean tap
        assertThat(AitwActionMatching.matches(swipe(0.5, 0.0, 0.5, 0.04), tap(0.5, 0.0), List.of())).isTrue();
        // a tap never matches a swipe, even from the same touch point
        assertThat(AitwActionMatching.matches(swipe(0.5, 0.5, 0.5, 0.9), tap(0.5, 0.5), List.of(BUTTON))).isFalse();
    }

    @Test
    void swipesMatchByMainAxisOnly() {
        Action down = swipe(0.5, 0.2, 0.5, 0.8);
        Action up = swipe(0.5, 0.8, 0.5, 0.2);
        Action right = swipe(0.2, 0.5, 0.8, 0.5);
        Action mostlyDown = swipe(0.4, 0.2, 0.6, 0.9);
        Action diagonal = swipe(0.25, 0.25, 0.5, 0.5);
        assertThat(AitwActionMatching.matches(down, up, List.of())).as("the reference compares the axis, not the direction").isTrue();
        assertThat(AitwActionMatching.matches(down, right, List.of())).isFalse();
        assertThat(AitwActionMatching.matches(down, mostlyDown, List.of())).isTrue();
        // |dy| == |dx|: np.argmax takes the first, the y axis
        assertThat(AitwActionMatching.matches(diagonal, down, List.of())).isTrue();
        assertThat(AitwActionMatching.matches(diagonal, right, List.of())).isFalse();
    }

    @Test
    void otherActionsMatchByType() {
        assertThat(AitwActionMatching.matches(op("TYPE"), op("type"), List.of())).isTrue();
        assertThat(AitwActionMatching.matches(op("PRESS_BACK"), op("PRESS_HOME"), List.of())).isFalse();
        assertThat(AitwActionMatching.matches(op("STATUS_TASK_COMPLETE"), op("STATUS_TASK_COMPLETE"), List.of())).isTrue();
        assertThat(AitwActionMatching.matches(tap(0.5, 0.5), op("TYPE"), List.of(BUTTON))).isFalse();
        assertThat(AitwActionMatching.matches(op("PRESS_ENTER"), tap(0.5, 0.5), List.of())).isFalse();
    }

    @Test
    void actionShape() {
        assertThat(new Action("dual_point", new Point(0.3, 0.3), null).isTap()).as("missing lift = tap").isTrue();
        assertThatThrownBy(() -> new Action("DUAL_POINT", null, null)).hasMessageContaining("touch point");
        assertThatThrownBy(() -> new Action(null, null, null)).hasMessageContaining("op");
        assertThatThrownBy(() -> new Action("DUAL_POINT", new Point(540, 1200), null).requireNormalized())
                .hasMessageContaining("normalized");
        assertThatThrownBy(() -> new GoldStep(op("CLICK"), List.of())).hasMessageContaining("not an AITW action type");
        assertThatThrownBy(() -> ScreenBox.of(List.of(0.1, 0.1, -0.1, 0.1))).hasMessageContaining("negative");
    }

    @Test
    void episodeAccuracyAndTaskSuccess() {
        List<GoldStep> gold = List.of(
                new GoldStep(tap(0.45, 0.45), List.of(BUTTON)),
                new GoldStep(op("TYPE"), List.of()),
                new GoldStep(swipe(0.5, 0.8, 0.5, 0.2), List.of()));
        AitwActionMatching.EpisodeResult all = AitwActionMatching.scoreEpisode(
                List.of(tap(0.35, 0.56), op("TYPE"), swipe(0.5, 0.3, 0.5, 0.9)), gold);
        assertThat(all.accuracy()).isEqualTo(1.0);
        assertThat(all.taskSuccess()).isTrue();

        AitwActionMatching.EpisodeResult shortOne = AitwActionMatching.scoreEpisode(
                List.of(tap(0.35, 0.56), op("PRESS_BACK")), gold);
        assertThat(shortOne.matched()).containsExactly(true, false, false);
        assertThat(shortOne.accuracy()).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(shortOne.taskSuccess()).isFalse();

        AitwActionMatching.Summary s = AitwActionMatching.summarize(List.of(all, shortOne));
        assertThat(s.actionMatchAccuracy()).isCloseTo(4.0 / 6, within(1e-15));
        assertThat(s.taskSuccessRate()).isEqualTo(0.5);
    }

    /** The reference's rules are symmetric in the two actions, and an action matches itself. */
    @Test
    void randomActionsMatchSymmetrically() {
        Random random = new Random(4242);
        String[] types = {"DUAL_POINT", "DUAL_POINT", "DUAL_POINT", "TYPE", "PRESS_BACK"};
        int matchedPairs = 0;
        for (int i = 0; i < 3000; i++) {
            List<ScreenBox> boxes = new ArrayList<>();
            for (int k = random.nextInt(4); k > 0; k--) {
                boxes.add(new ScreenBox(random.nextDouble() * 0.9, random.nextDouble() * 0.9,
                        random.nextDouble() * 0.1, random.nextDouble() * 0.1));
            }
            Action a = randomAction(random, types);
            Action b = randomAction(random, types);
            boolean ab = AitwActionMatching.matches(a, b, boxes);
            assertThat(AitwActionMatching.matches(b, a, boxes)).as("%s vs %s", a, b).isEqualTo(ab);
            assertThat(AitwActionMatching.matches(a, a, boxes)).isTrue();
            matchedPairs += ab ? 1 : 0;
        }
        // the generator exercises both outcomes
        assertThat(matchedPairs).isBetween(150, 2850);
    }

    private static Action randomAction(Random random, String[] types) {
        String type = types[random.nextInt(types.length)];
        if (!type.equals("DUAL_POINT")) {
            return op(type);
        }
        double x = random.nextDouble();
        double y = random.nextDouble();
        if (random.nextBoolean()) {
            return tap(x, y);
        }
        return swipe(x, y, random.nextDouble(), random.nextDouble());
    }
}
