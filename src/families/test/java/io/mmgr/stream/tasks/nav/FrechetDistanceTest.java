package io.mmgr.stream.tasks.nav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Fréchet distance against closed forms on Gaussians with known means and covariances. */
@Tag("unit")
class FrechetDistanceTest {

    private static DMatrixRMaj m(double[][] a) {
        return new DMatrixRMaj(a);
    }

    @Test
    void oneDimension() {
        // (mu1 - mu2)^2 + s1^2 + s2^2 - 2 s1 s2 = (mu1 - mu2)^2 + (s1 - s2)^2
        double d = FrechetDistance.distance(new double[] {1}, m(new double[][] {{4}}), new double[] {4}, m(new double[][] {{9}}));
        assertThat(d).isCloseTo(9 + 1, within(1e-12));
    }

    @Test
    void identicalGaussiansAreZeroApart() {
        DMatrixRMaj s = m(new double[][] {{2, 0.5, 0}, {0.5, 1, 0.2}, {0, 0.2, 3}});
        assertThat(FrechetDistance.distance(new double[] {1, 2, 3}, s, new double[] {1, 2, 3}, s)).isCloseTo(0, within(1e-10));
    }

    @Test
    void commutingCovariances() {
        // S1 = Q diag(a) Q^T, S2 = Q diag(b) Q^T: Tr term = sum (sqrt a - sqrt b)^2
        double t = Math.toRadians(35);
        double[][] q = {{Math.cos(t), -Math.sin(t)}, {Math.sin(t), Math.cos(t)}};
        DMatrixRMaj s1 = rotate(q, 4, 1);
        DMatrixRMaj s2 = rotate(q, 9, 16);
        double d = FrechetDistance.distance(new double[] {0, 0}, s1, new double[] {3, 4}, s2);
        assertThat(d).isCloseTo(25 + Math.pow(2 - 3, 2) + Math.pow(1 - 4, 2), within(1e-10));
    }

    @Test
    void nonCommutingTwoByTwo() {
        // for 2x2 PSD M, Tr sqrt(M) = sqrt(tr M + 2 sqrt(det M)); M = S1^1/2 S2 S1^1/2 has
        // tr M = tr(S1 S2) and det M = det S1 det S2
        double[][] a = {{2, 1}, {1, 3}};
        double[][] b = {{1, -0.4}, {-0.4, 0.5}};
        double trS1S2 = a[0][0] * b[0][0] + a[0][1] * b[1][0] + a[1][0] * b[0][1] + a[1][1] * b[1][1];
        double det = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * (b[0][0] * b[1][1] - b[0][1] * b[1][0]);
        double expected = 1 + 1 + (2 + 3) + (1 + 0.5) - 2 * Math.sqrt(trS1S2 + 2 * Math.sqrt(det));
        double d = FrechetDistance.distance(new double[] {0, 0}, m(a), new double[] {1, -1}, m(b));
        assertThat(d).isCloseTo(expected, within(1e-10));
    }

    @Test
    void fitsMeanAndUnbiasedCovariance() {
        FrechetDistance.Gaussian g = FrechetDistance.fit(List.of(
                new double[] {1, 0}, new double[] {-1, 0}, new double[] {0, 1}, new double[] {0, -1}));
        assertThat(g.mean()).containsExactly(0, 0);
        assertThat(g.covariance().get(0, 0)).isCloseTo(2.0 / 3, within(1e-15)); // (1 + 1) / (4 - 1)
        assertThat(g.covariance().get(0, 1)).isZero();
        assertThat(g.samples()).isEqualTo(4);
        assertThatThrownBy(() -> FrechetDistance.fit(List.of(new double[] {1}))).hasMessageContaining("two");
        assertThatThrownBy(() -> FrechetDistance.fit(List.of(new double[] {1}, new double[] {1, 2})))
                .hasMessageContaining("vector 1");
    }

    @Test
    void equationOneNormalizesIntoTheUnitInterval() {
        assertThat(FrechetDistance.normalize(10, 10, 110)).isEqualTo(1.0);
        assertThat(FrechetDistance.normalize(110, 10, 110)).isEqualTo(0.0);
        assertThat(FrechetDistance.normalize(35, 10, 110)).isEqualTo(0.75);
        assertThat(FrechetDistance.normalize(5, 10, 110)).isEqualTo(1.0);   // below d_min: clamped
        assertThat(FrechetDistance.normalize(500, 10, 110)).isEqualTo(0.0); // above d_max: clamped
        assertThatThrownBy(() -> FrechetDistance.normalize(1, 5, 5)).hasMessageContaining("d_max");
    }

    private static DMatrixRMaj rotate(double[][] q, double a, double b) {
        DMatrixRMaj out = new DMatrixRMaj(2, 2);
        double[] l = {a, b};
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                double v = 0;
                for (int k = 0; k < 2; k++) {
                    v += q[i][k] * l[k] * q[j][k];
                }
                out.set(i, j, v);
            }
        }
        return out;
    }
}
