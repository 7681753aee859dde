package io.mmgr.stream.contract.agreement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Majority, its ties and self-agreement over one metric's answers. */
@Tag("unit")
class VotesTest {

    static List<Double> v(Double... values) {
        return Arrays.asList(values);
    }

    @Test
    void theMostFrequentValueWinsAndATieGoesToTheLowest() {
        assertThat(Votes.majority(v(1.0, 0.0, 1.0))).isEqualTo(1.0);
        assertThat(Votes.majority(v(0.0, 1.0, 0.0))).isEqualTo(0.0);
        // two judges who differ: a tie, so the pass has not won
        assertThat(Votes.majority(v(1.0, 0.0))).isEqualTo(0.0);
        // a 1-5 scale: 4 and 2 twice each, 5 once: the lower of the tied
        assertThat(Votes.majority(v(4.0, 2.0, 5.0, 4.0, 2.0))).isEqualTo(2.0);
        assertThat(Votes.majority(v(3.0, 5.0, 5.0, 4.0))).isEqualTo(5.0);
    }

    @Test
    void missingValuesAreLeftOutAndNoValueGivesNone() {
        assertThat(Votes.majority(v(null, 1.0, null))).isEqualTo(1.0);
        assertThat(Votes.majority(v(null, null))).isNull();
        assertThat(Votes.lowest(v())).isNull();
    }

    @Test
    void selfAgreementIsTheShareOfAnswersEqualToTheMajority() {
        List<Double> samples = v(1.0, 1.0, 0.0);
        assertThat(Votes.agreement(samples, Votes.majority(samples))).isEqualTo(2.0 / 3.0);
        assertThat(Votes.agreement(v(1.0, 1.0, 1.0), 1.0)).isEqualTo(1.0);
        // 1, 0, null: a tie between the two given values goes to 0, which one of the two answers gave
        List<Double> withMissing = v(1.0, 0.0, null);
        assertThat(Votes.agreement(withMissing, Votes.majority(withMissing))).isEqualTo(0.5);
        assertThat(Votes.agreement(v((Double) null), null)).isNull();
    }
}
