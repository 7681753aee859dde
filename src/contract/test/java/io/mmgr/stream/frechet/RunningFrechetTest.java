package io.mmgr.stream.frechet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The running statistic against closed forms and against the batch fit of the same vectors: adding samples
 * one by one (and taking some back) gives the distance of the remaining set's mean and unbiased covariance.
 */
@Tag("unit")
class RunningFrechetTest {

    /** Correlated Gaussian-ish vectors: x = L z + shift, from a seeded generator. */
    static List<double[]> cloud(int n, int d, long seed, double shift) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] l = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                l[i][j] = r.nextDouble(-1, 1) + (i == j ? 1.5 : 0);
            }
        }
        List<double[]> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            double[] z = new double[d];
            for (int i = 0; i < d; i++) {
                z[i] = r.nextGaussian();
            }
            double[] x = new double[d];
            for (int i = 0; i < d; i++) {
                double s = shift * (i + 1);
                for (int j = 0; j <= i; j++) {
                    s += l[i][j] * z[j];
                }
                x[i] = s;
            }
            out.add(x);
        }
        return out;
    }

    static ReferenceStatistics.Raw fit(List<double[]> vectors) {
        Moments m = new Moments(vectors.get(0).length);
        vectors.forEach(m::add);
        return m.statistics();
    }

    @Test
    void aShiftedCopyOfTheReferenceIsTheSquaredShiftAway() {
        // generated: the cross (+-1, 0), (0, +-1): mean 0, covariance 2/3 I; the reference: the same shape at (3, 4)
        FrechetReference ref = fit(List.of(new double[] {4, 4}, new double[] {2, 4}, new double[] {3, 5}, new double[] {3, 3})).prepare();
        RunningFrechet running = ref.running();
        assertThat(running.distance()).as("no covariance yet").isNull();
        for (double[] x : List.of(new double[] {1, 0}, new double[] {-1, 0}, new double[] {0, 1}, new double[] {0, -1})) {
            running.add(x);
        }
        assertThat(running.distance()).isCloseTo(25.0, within(1e-12));
        assertThat(running.samples()).isEqualTo(4);
    }

    @Test
    void oneDimensionIsTheMeanAndStandardDeviationGaps() {
        // generated {0, 2}: mean 1, variance 2; reference mean 4, variance 8: (1-4)^2 + (sqrt 2 - sqrt 8)^2 = 9 + 2
        FrechetReference ref = FrechetReference.of(new double[] {4}, new double[] {8}, null);
        RunningFrechet running = ref.running();
        running.add(new double[] {0});
        running.add(new double[] {2});
        assertThat(running.distance()).isCloseTo(11.0, within(1e-12));
    }

    @Test
    void incrementalEqualsTheBatchFitOfTheSameVectors() {
        int d = 12;
        List<double[]> reference = cloud(400, d, 1, 0);
        List<double[]> generated = cloud(150, d, 2, 0.3);
        FrechetReference ref = fit(reference).prepare();
        RunningFrechet running = ref.running();
        generated.forEach(running::add);
        ReferenceStatistics.Raw batch = fit(generated);
        double expected = ref.distance(batch.mean(), batch.covariance());
        assertThat(running.distance()).isCloseTo(expected, within(1e-9 * expected));
        // and the two-sided form, with the generated side as the reference, gives the same (the distance is symmetric)
        double swapped = batch.prepare().distance(fit(reference).mean(), fit(reference).covariance());
        assertThat(running.distance()).isCloseTo(swapped, within(1e-8 * expected));
        assertThat(expected).isGreaterThan(1.0);
    }

    @Test
    void removingSamplesLeavesTheDistanceOfTheRest() {
        int d = 6;
        FrechetReference ref = fit(cloud(200, d, 3, 0)).prepare();
        List<double[]> generated = cloud(40, d, 4, 0.5);
        RunningFrechet running = ref.running();
        generated.forEach(running::add);
        // take back every third sample (re-scored samples leave the statistics this way)
        List<double[]> kept = new ArrayList<>();
        for (int i = 0; i < generated.size(); i++) {
            if (i % 3 == 0) {
                running.remove(generated.get(i));
            } else {
                kept.add(generated.get(i));
            }
        }
        ReferenceStatistics.Raw batch = fit(kept);
        double expected = ref.distance(batch.mean(), batch.covariance());
        assertThat(running.samples()).isEqualTo(kept.size());
        assertThat(running.distance()).isCloseTo(expected, within(1e-9 * expected));
        // down to one sample and back up: the state resets cleanly
        RunningFrechet two = ref.running();
        two.add(generated.get(0));
        two.remove(generated.get(0));
        two.add(generated.get(1));
        two.add(generated.get(2));
        ReferenceStatistics.Raw pair = fit(List.of(generated.get(1), generated.get(2)));
        // two samples: a rank-one covariance, whose zero eigenvalues come out as +-1e-16 and their square roots as
        // 1e-8: near-singular cases agree to about 1e-7, not to round-off
        double expectedPair = ref.distance(pair.mean(), pair.covariance());
        assertThat(two.distance()).isCloseTo(expectedPair, within(1e-6 * expectedPair));
    }

    @Test
    void theSameSetAsTheReferenceIsZeroAway() {
        List<double[]> vectors = cloud(60, 5, 5, 0);
        FrechetReference ref = fit(vectors).prepare();
        RunningFrechet running = ref.running();
        vectors.forEach(running::add);
        assertThat(running.distance()).isCloseTo(0.0, within(1e-9));
    }

    @Test
    void aRankDeficientReferenceAndFewSamplesStillWork() {
        // fewer reference vectors than dimensions: a singular covariance (zero eigenvalues)
        int d = 10;
        FrechetReference ref = fit(cloud(4, d, 6, 0)).prepare();
        List<double[]> generated = cloud(3, d, 7, 0);
        RunningFrechet running = ref.running();
        generated.forEach(running::add);
        ReferenceStatistics.Raw batch = fit(generated);
        double expected = ref.distance(batch.mean(), batch.covariance());
        // singular on both sides: see the two-sample case above
        assertThat(running.distance()).isCloseTo(expected, within(1e-6 * Math.max(1, expected)));
    }

    @Test
    void badInputIsRefused() {
        FrechetReference ref = FrechetReference.of(new double[] {0, 0}, new double[] {1, 0, 0, 1}, null);
        assertThatThrownBy(() -> ref.running().add(new double[] {1})).hasMessageContaining("1 values against a reference of 2");
        assertThatThrownBy(() -> ref.running().add(new double[] {1, Double.NaN})).hasMessageContaining("non-finite");
        assertThatThrownBy(() -> ref.running().remove(new double[] {1, 1})).hasMessageContaining("no sample");
        assertThatThrownBy(() -> FrechetReference.of(new double[] {0, 0}, new double[] {1, 0.5, 0, 1}, null))
                .hasMessageContaining("not symmetric");
        assertThatThrownBy(() -> FrechetReference.of(new double[] {0, 0}, new double[] {1, 2, 2, 1}, null))
                .hasMessageContaining("not positive semi-definite");
        assertThatThrownBy(() -> FrechetReference.of(new double[] {0, 0}, new double[] {1, 0, 0}, null))
                .hasMessageContaining("3 values");
    }

    @Test
    void stateSizeIsDSquaredDoubles() {
        assertThat(RunningFrechet.bytes(2048)).isGreaterThan(32L << 20).isLessThan(33L << 20);
    }
}
