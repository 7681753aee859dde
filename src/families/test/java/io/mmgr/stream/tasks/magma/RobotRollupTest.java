package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RobotRollupTest {

    /** {@code n} trials of which the first {@code successes} succeed, scored against {@code protocol}. */
    private static RobotRollup.TaskResult task(String suite, String task, int n, int successes, int protocol) {
        List<RobotTrialMetrics.Trial> trials = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            trials.add(new RobotTrialMetrics.Trial(i, i < successes));
        }
        return new RobotRollup.TaskResult(suite, task, RobotTrialMetrics.score(trials, protocol));
    }

    @Test
    void suitesPoolTheirTasksTrialsAndKeepTheOrderTheyFirstAppearIn() {
        RobotRollup.Rollup r = RobotRollup.of(List.of(
                task("simplerenv-widowx", "spoon on towel", 24, 6, 24),
                task("libero-spatial", "bowl to plate", 50, 30, 50),
                task("simplerenv-widowx", "carrot on plate", 24, 18, 24),
                task("libero-spatial", "bowl to stove", 48, 48, 50)));   // a short run: mismatched

        assertThat(r.suites().keySet()).containsExactly("simplerenv-widowx", "libero-spatial");
        RobotRollup.Totals widowx = r.suites().get("simplerenv-widowx");
        assertThat(widowx).isEqualTo(new RobotRollup.Totals(2, 48, 24));
        assertThat(widowx.successRate()).isEqualTo(0.5);
        RobotRollup.Totals libero = r.suites().get("libero-spatial");
        assertThat(libero).isEqualTo(new RobotRollup.Totals(2, 98, 78));
        // pooled, not the mean of the task rates (0.6 and 1.0 would give 0.8)
        assertThat(libero.successRate()).isEqualTo(78 / 98.0).isNotEqualTo(0.8);

        assertThat(r.overall()).isEqualTo(new RobotRollup.Totals(4, 146, 102));
        assertThat(r.overall().successRate()).isEqualTo(102 / 146.0);
        assertThat(r.mismatched()).isEqualTo(1);
    }

    @Test
    void oneTaskIsItsOwnSuiteAndNothingIsAnError() {
        RobotRollup.Rollup r = RobotRollup.of(List.of(task("simplerenv-google-robot", "open drawer", 27, 9, 27)));
        assertThat(r.overall().successRate()).isEqualTo(1 / 3.0);
        assertThat(r.suites()).containsOnlyKeys("simplerenv-google-robot");
        assertThat(r.mismatched()).isZero();

        assertThatThrownBy(() -> RobotRollup.of(List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no robot tasks");
    }
}
