package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.AgreementStat;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** How {@code mmgr leaderboard --metrics} prints an agreement's kappa: with its interval when the row has one. */
@Tag("unit")
class LeaderboardCommandTest {

    Locale before;

    @BeforeEach
    void english() {
        before = Locale.getDefault();
        Locale.setDefault(Locale.ROOT); // the command prints in the default locale, as its other figures
    }

    @AfterEach
    void restore() {
        Locale.setDefault(before);
    }

    static AgreementStat stat(Double kappa, Double low, Double high) {
        return AgreementStat.newBuilder().setPairs(50).setPercentAgreement(0.7).setKappa(kappa).setKappaLow(low).setKappaHigh(high)
                .setReliability("discount").setBasis("live: 50 paired verdicts").build();
    }

    @Test
    void kappaCarriesItsIntervalWhereTheRowHasOne() {
        assertThat(LeaderboardCommand.kappa(stat(0.4, 0.1459, 0.6541))).isEqualTo("0.40 [0.15, 0.65]");
        // a row written before the interval existed
        assertThat(LeaderboardCommand.kappa(stat(0.4, null, null))).isEqualTo("0.40");
        assertThat(LeaderboardCommand.kappa(stat(null, null, null))).isEqualTo("-");
    }
}
