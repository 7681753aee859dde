package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.tasks.magma.ClickAccuracy.Kind;
import io.mmgr.stream.tasks.magma.RobotTrialMetrics.Trial;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ClickAccuracyAndRobotTrialsTest {

    @Test
    void clickInsideTheTargetIncludingEdges() {
        Box target = new Box(100, 200, 180, 240);
        assertThat(ClickAccuracy.correct(new Point(140, 220), target)).isTrue();
        assertThat(ClickAccuracy.correct(new Point(100, 200), target)).as("top-left corner").isTrue();
        assertThat(ClickAccuracy.correct(new Point(180, 240), target)).as("bottom-right corner").isTrue();
        assertThat(ClickAccuracy.correct(new Point(Math.nextUp(180.0), 220), target)).isFalse();
        assertThat(ClickAccuracy.correct(new Point(140, Math.nextDown(200.0)), target)).isFalse();
    }

    @Test
    void accuracyPerKind() {
        Box target = new Box(0, 0, 10, 10);
        List<ClickAccuracy.Click> clicks = List.of(
                ClickAccuracy.score(new Point(5, 5), target, Kind.TEXT),
                ClickAccuracy.score(new Point(10, 10), target, Kind.TEXT),
                ClickAccuracy.score(new Point(11, 5), target, Kind.TEXT),
                ClickAccuracy.score(new Point(-1, 5), target, Kind.ICON));
        ClickAccuracy.Summary s = ClickAccuracy.summarize(clicks);
        assertThat(s.accuracy()).isEqualTo(0.5);
        assertThat(s.textAccuracy()).isCloseTo(2.0 / 3, within(1e-15));
        assertThat(s.iconAccuracy()).isEqualTo(0.0);
        assertThat(ClickAccuracy.summarize(clicks.subList(0, 2)).iconAccuracy()).as("no icon clicks").isNull();
    }

    @Test
    void kindParsing() {
        assertThat(Kind.parse(" Icon ")).isEqualTo(Kind.ICON);
        assertThat(Kind.parse("text")).isEqualTo(Kind.TEXT);
        assertThatThrownBy(() -> Kind.parse("button")).hasMessageContaining("text or icon");
        assertThatThrownBy(() -> Kind.parse(null)).hasMessageContaining("text or icon");
    }

    private static List<Trial> trials(int n, int successes) {
        List<Trial> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Trial(i, i < successes));
        }
        return out;
    }

    @Test
    void liberoProtocolIsFiftyTrials() {
        int protocol = RobotTrialMetrics.protocolTrials("libero-spatial", null);
        assertThat(protocol).isEqualTo(50);
        RobotTrialMetrics.Result full = RobotTrialMetrics.score(trials(50, 40), protocol);
        assertThat(full.successRate()).isEqualTo(0.8);
        assertThat(full.trialCountMismatch()).isFalse();
        RobotTrialMetrics.Result shortRun = RobotTrialMetrics.score(trials(49, 49), protocol);
        assertThat(shortRun.successRate()).isEqualTo(1.0);
        assertThat(shortRun.trialCountMismatch()).isTrue();
    }

    @Test
    void simplerEnvProtocols() {
        assertThat(RobotTrialMetrics.protocolTrials("simplerenv-widowx", null)).isEqualTo(24);
        assertThatThrownBy(() -> RobotTrialMetrics.protocolTrials("simplerenv-google-robot", null))
                .hasMessageContaining("protocolTrials");
        assertThat(RobotTrialMetrics.protocolTrials("simplerenv-google-robot", 27)).isEqualTo(27);
        // the item's count wins over the suite's
        assertThat(RobotTrialMetrics.protocolTrials("libero-goal", 10)).isEqualTo(10);
        assertThatThrownBy(() -> RobotTrialMetrics.protocolTrials("libero-goal", 0)).hasMessageContaining("positive");
    }

    @Test
    void invalidTrials() {
        assertThatThrownBy(() -> RobotTrialMetrics.score(List.of(), 50)).hasMessageContaining("no trials");
        assertThatThrownBy(() -> RobotTrialMetrics.score(List.of(new Trial(3, true), new Trial(3, false)), 50))
                .hasMessageContaining("trial 3 is reported twice");
    }
}
