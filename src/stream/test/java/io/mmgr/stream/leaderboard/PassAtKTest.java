package io.mmgr.stream.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** pass@k = 1 - C(n-c, k) / C(n, k) (Chen et al. 2021), against binomials counted exactly. */
@Tag("unit")
class PassAtKTest {

    /** Worked by hand: 5 samples, 2 pass. */
    @ParameterizedTest
    @CsvSource({
        "1, 0.4",   // 1 - C(3,1)/C(5,1) = 1 - 3/5
        "2, 0.7",   // 1 - C(3,2)/C(5,2) = 1 - 3/10
        "3, 0.9",   // 1 - C(3,3)/C(5,3) = 1 - 1/10
        "4, 1.0",   // C(3,4) = 0: any 4 of 5 include a pass
        "5, 1.0"})
    void fiveSamplesTwoPass(int k, double expected) {
        assertThat(PassAtK.estimate(5, 2, k)).isCloseTo(expected, within(1e-12));
    }

    @Test
    void passAtOneIsTheFractionThatPasses() {
        assertThat(PassAtK.estimate(8, 3, 1)).isCloseTo(3.0 / 8, within(1e-12));
        assertThat(PassAtK.estimate(1000, 1, 1)).isCloseTo(0.001, within(1e-12));
    }

    @Test
    void noPassIsZeroAndAllPassIsOne() {
        for (int k = 1; k <= 4; k++) {
            assertThat(PassAtK.estimate(4, 0, k)).isZero();
            assertThat(PassAtK.estimate(4, 4, k)).isEqualTo(1.0);
        }
    }

    @ParameterizedTest
    @CsvSource({"100, 3, 5", "1000000, 10, 10", "37, 11, 10", "2, 1, 2", "64, 63, 1"})
    void matchesExactBinomialsWhereFactorialsWouldOverflow(long n, long c, int k) {
        BigDecimal ratio = new BigDecimal(choose(n - c, k)).divide(new BigDecimal(choose(n, k)), MathContext.DECIMAL128);
        double exact = BigDecimal.ONE.subtract(ratio).doubleValue();
        assertThat(PassAtK.estimate(n, c, k)).isCloseTo(exact, within(1e-12));
    }

    @Test
    void refusesImpossibleCounts() {
        assertThatThrownBy(() -> PassAtK.estimate(3, 1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k=0");
        assertThatThrownBy(() -> PassAtK.estimate(3, 1, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PassAtK.estimate(3, 4, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PassAtK.estimate(3, -1, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static BigInteger choose(long n, int k) {
        if (k > n) {
            return BigInteger.ZERO;
        }
        BigInteger r = BigInteger.ONE;
        for (int i = 0; i < k; i++) {
            r = r.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
        }
        return r;
    }
}
