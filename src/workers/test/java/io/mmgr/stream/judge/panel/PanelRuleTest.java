package io.mmgr.stream.judge.panel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The panel's rules over one metric's answers of several judges: majority and unanimity. */
@Tag("unit")
class PanelRuleTest {

    static List<Double> v(Double... values) {
        return Arrays.asList(values);
    }

    @Test
    void unanimousPassesOnlyWhenEveryJudgePasses() {
        assertThat(PanelRule.UNANIMOUS.apply(v(1.0, 1.0, 1.0))).isEqualTo(1.0);
        assertThat(PanelRule.UNANIMOUS.apply(v(1.0, 1.0, 0.0))).isEqualTo(0.0);
        assertThat(PanelRule.MAJORITY.apply(v(1.0, 1.0, 0.0))).isEqualTo(1.0);
        // on a scale, the level every judge reached
        assertThat(PanelRule.UNANIMOUS.apply(v(5.0, 3.0, 4.0))).isEqualTo(3.0);
    }

    @Test
    void aRuleIsParsedByNameAndAnythingElseSaysWhatIsAllowed() {
        assertThat(PanelRule.parse(" Unanimous ")).isEqualTo(PanelRule.UNANIMOUS);
        assertThatThrownBy(() -> PanelRule.parse("mean")).hasMessageContaining("majority or unanimous").hasMessageContaining("mean");
    }
}
