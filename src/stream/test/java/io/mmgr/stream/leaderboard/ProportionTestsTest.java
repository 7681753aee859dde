package io.mmgr.stream.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Checkpoint comparison statistics against published and hand-worked values. */
@Tag("unit")
class ProportionTestsTest {

    @Test
    void normalTailsMatchTabulatedQuantiles() {
        // the 0.975, 0.995 and 0.9995 quantiles of the standard normal
        assertThat(Normal.twoSidedP(1.959963984540054)).isCloseTo(0.05, within(1e-12));
        assertThat(Normal.twoSidedP(-2.5758293035489004)).isCloseTo(0.01, within(1e-12));
        assertThat(Normal.twoSidedP(3.2905267314918945)).isCloseTo(0.001, within(1e-13));
        // far tails keep relative accuracy: 2 Phi(-5) and 2 Phi(-10)
        assertThat(Normal.twoSidedP(5)).isCloseTo(5.733031437583878e-07, within(1e-18));
        assertThat(Normal.twoSidedP(10) / 1.5239706048321054e-23).isCloseTo(1.0, within(1e-9));
        assertThat(Normal.twoSidedP(0)).isEqualTo(1.0);
    }

    @Test
    void independentDifferenceMatchesNewcombesWorkedExample() {
        // Newcombe 1998, Table II: 56/70 against 48/80, method 10 gives 0.0524 to 0.3339
        Difference d = ProportionTests.twoProportion(56, 70, 48, 80);
        assertThat(d.method()).isEqualTo(Difference.TWO_PROPORTION);
        assertThat(d.difference()).isCloseTo(0.2, within(1e-12));
        assertThat(d.ciLow()).isCloseTo(0.0524, within(5e-5));
        assertThat(d.ciHigh()).isCloseTo(0.3339, within(5e-5));
        // pooled z: p = 104/150, se = sqrt(p(1-p)(1/70 + 1/80)), z = 0.2 / se = 2.6502
        assertThat(d.pValue()).isCloseTo(0.008045, within(1e-6));
    }

    @Test
    void equalGroupsHaveNoDifference() {
        Difference d = ProportionTests.twoProportion(30, 60, 40, 80);
        assertThat(d.difference()).isZero();
        assertThat(d.pValue()).isCloseTo(1.0, within(1e-12));
        assertThat(d.ciLow()).isNegative();
        assertThat(d.ciHigh()).isPositive();
        assertThat(ProportionTests.twoProportion(0, 10, 0, 10).pValue()).isEqualTo(1.0);
    }

    @Test
    void exactMcNemarCountsTheDiscordantPairs() {
        // 1 of 10 discordant pairs goes one way: 2 (C(10,0) + C(10,1)) / 2^10 = 22/1024
        assertThat(ProportionTests.mcNemarExact(1, 9)).isCloseTo(22.0 / 1024, within(1e-15));
        assertThat(ProportionTests.mcNemarExact(9, 1)).isCloseTo(22.0 / 1024, within(1e-15));
        assertThat(ProportionTests.mcNemarExact(5, 5)).isEqualTo(1.0);
        assertThat(ProportionTests.mcNemarExact(0, 0)).isEqualTo(1.0);
        // 0 of 3000: 2 / 2^3000 underflows to zero but never goes negative or NaN
        assertThat(ProportionTests.mcNemarExact(0, 3000)).isBetween(0.0, 1e-300);
    }

    @Test
    void pairedBinaryOutcomesUseMcNemarAndTheirCorrelation() {
        // 40 samples: 25 pass both, 2 only the candidate, 9 only the baseline, 4 fail both
        ProportionTests.Paired p = new ProportionTests.Paired();
        add(p, 1, 1, 25);
        add(p, 1, 0, 2);
        add(p, 0, 1, 9);
        add(p, 0, 0, 4);
        Difference d = p.compare();
        assertThat(d.method()).isEqualTo(Difference.PAIRED);
        assertThat(d.samples()).isEqualTo(40);
        assertThat(d.rate()).isCloseTo(27.0 / 40, within(1e-12));
        assertThat(d.baselineRate()).isCloseTo(34.0 / 40, within(1e-12));
        assertThat(d.difference()).isCloseTo(-7.0 / 40, within(1e-12));
        // 2 of 11 discordant pairs: 2 (1 + 11 + 55) / 2048
        assertThat(d.pValue()).isCloseTo(2.0 * 67 / 2048, within(1e-15));
        // the same rates as independent groups: positively correlated pairs give a narrower interval
        Difference unpaired = ProportionTests.twoProportion(27, 40, 34, 40);
        assertThat(d.ciHigh() - d.ciLow()).isLessThan(unpaired.ciHigh() - unpaired.ciLow());
        assertThat(d.ciLow()).isLessThan(d.difference());
        assertThat(d.ciHigh()).isGreaterThan(d.difference()).isLessThan(0.0);
    }

    @Test
    void uncorrelatedPairsGiveTheIndependentInterval() {
        // outcomes arranged so the Pearson correlation is exactly zero: a 2x2 table with ad = bc
        ProportionTests.Paired p = new ProportionTests.Paired();
        add(p, 1, 1, 6);
        add(p, 1, 0, 2);
        add(p, 0, 1, 3);
        add(p, 0, 0, 1);
        Difference d = p.compare();
        Difference independent = ProportionTests.twoProportion(8, 12, 9, 12);
        assertThat(d.ciLow()).isCloseTo(independent.ciLow(), within(1e-12));
        assertThat(d.ciHigh()).isCloseTo(independent.ciHigh(), within(1e-12));
    }

    @Test
    void identicalPairsShowNoChange() {
        ProportionTests.Paired p = new ProportionTests.Paired();
        add(p, 1, 1, 7);
        add(p, 0, 0, 3);
        p.add(0.5, 0.5);
        Difference d = p.compare();
        assertThat(d.difference()).isZero();
        assertThat(d.pValue()).isEqualTo(1.0);
        assertThat(d.ciLow()).isLessThanOrEqualTo(0.0);
        assertThat(d.ciHigh()).isGreaterThanOrEqualTo(0.0);
    }

    @Test
    void pairedFractionsUseTheZTestOfTheMeanDifference() {
        // differences -0.25 (x4) and 0 (x4): z = sum d / sqrt(sum d^2) = -1 / sqrt(0.25) = -2
        ProportionTests.Paired p = new ProportionTests.Paired();
        for (int i = 0; i < 4; i++) {
            p.add(0.5, 0.75);
            p.add(0.25, 0.25);
        }
        Difference d = p.compare();
        assertThat(d.difference()).isCloseTo(-0.125, within(1e-12));
        assertThat(d.pValue()).isCloseTo(Normal.twoSidedP(2.0), within(1e-15));
        assertThat(d.pValue()).isCloseTo(0.0455, within(1e-4));
    }

    @Test
    void pairedIntervalCoversTheTrueDifferenceAboutNinetyFivePercentOfTheTime() {
        // candidate passes with 0.6, baseline with 0.7; half the samples are decided by one shared draw
        // (easy or hard for both), half independently, as checkpoints of one run behave
        SplittableRandom random = new SplittableRandom(7);
        int covered = 0;
        int trials = 2000;
        for (int t = 0; t < trials; t++) {
            ProportionTests.Paired p = new ProportionTests.Paired();
            for (int i = 0; i < 200; i++) {
                double u = random.nextDouble();
                double v = random.nextBoolean() ? u : random.nextDouble();
                p.add(u < 0.6 ? 1 : 0, v < 0.7 ? 1 : 0);
            }
            Difference d = p.compare();
            if (d.ciLow() <= -0.1 && -0.1 <= d.ciHigh()) {
                covered++;
            }
        }
        assertThat(covered / (double) trials).isBetween(0.93, 0.985);
    }

    @Test
    void badInputIsRefusedWithAReason() {
        assertThatThrownBy(() -> ProportionTests.twoProportion(1, 0, 1, 2)).hasMessageContaining("both groups need samples");
        assertThatThrownBy(() -> ProportionTests.twoProportion(5, 4, 1, 2)).hasMessageContaining("[0, n]");
        assertThatThrownBy(() -> new ProportionTests.Paired().add(1.5, 0)).hasMessageContaining("[0,1]");
        assertThat(new ProportionTests.Paired().compare()).isNull();
    }

    @Test
    void alertRuleNeedsDirectionSizeSignificanceAndSamples() {
        AlertRule rule = new AlertRule(0.01, 0.05, 20);
        assertThat(rule.isSignificantDrop(new Difference("paired", 40, 0.5, 0.8, -0.3, -0.45, -0.15, 0.001))).isTrue();
        assertThat(rule.isSignificantDrop(new Difference("paired", 40, 0.8, 0.5, 0.3, 0.15, 0.45, 0.001))).as("a rise").isFalse();
        assertThat(rule.isSignificantDrop(new Difference("paired", 40, 0.5, 0.8, -0.3, -0.45, 0.02, 0.02))).as("not significant").isFalse();
        assertThat(rule.isSignificantDrop(new Difference("paired", 4000, 0.77, 0.8, -0.03, -0.04, -0.02, 1e-6))).as("too small").isFalse();
        assertThat(rule.isSignificantDrop(new Difference("paired", 10, 0.0, 1.0, -1, -1, -0.6, 0.002))).as("too few").isFalse();
        assertThatThrownBy(() -> new AlertRule(0, 0.05, 20)).hasMessageContaining("p-value");
    }

    private static void add(ProportionTests.Paired p, double x, double y, int times) {
        for (int i = 0; i < times; i++) {
            p.add(x, y);
        }
    }
}
