package io.mmgr.stream.tasks.nav;

import io.mmgr.stream.frechet.FrechetReference;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * The Fréchet distance between two Gaussians, the statistic behind FID (Heusel et al. 2017) and FVD
 * (Unterthiner et al. 2018): d^2 = |mu1 - mu2|^2 + Tr(S1 + S2 - 2 (S1 S2)^(1/2)), computed by the
 * stream's code ({@link FrechetReference}, io.mmgr.stream.frechet). Gaussians are fitted to
 * feature vectors with the unbiased covariance (n - 1), as pytorch-fid's calculate_activation_statistics
 * does (mseitzer/pytorch-fid, fid_score.py).
 */
public final class FrechetDistance {

    /** Mean and covariance of a set of feature vectors. */
    public record Gaussian(double[] mean, DMatrixRMaj covariance, int samples) {
        public int dims() {
            return mean.length;
        }
    }

    private FrechetDistance() {
    }

    public static Gaussian fit(List<double[]> features) {
        if (features == null || features.size() < 2) {
            throw new IllegalArgumentException("a Gaussian fit needs at least two feature vectors");
        }
        int d = features.get(0).length;
        if (d == 0) {
            throw new IllegalArgumentException("feature vectors are empty");
        }
        int n = features.size();
        double[] mean = new double[d];
        for (int i = 0; i < n; i++) {
            double[] f = features.get(i);
            if (f.length != d) {
                throw new IllegalArgumentException("feature vector " + i + " has " + f.length + " values, the first has " + d);
            }
            for (int a = 0; a < d; a++) {
                if (!Double.isFinite(f[a])) {
                    throw new IllegalArgumentException("feature vector " + i + " has a non-finite value");
                }
                mean[a] += f[a] / n;
            }
        }
        DMatrixRMaj centred = new DMatrixRMaj(n, d);
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < d; a++) {
                centred.set(i, a, features.get(i)[a] - mean[a]);
            }
        }
        DMatrixRMaj cov = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransA(centred, centred, cov);
        CommonOps_DDRM.scale(1.0 / (n - 1), cov);
        return new Gaussian(mean, cov, n);
    }

    public static double distance(Gaussian g1, Gaussian g2) {
        return distance(g1.mean(), g1.covariance(), g2.mean(), g2.covariance());
    }

    public static double distance(double[] mu1, DMatrixRMaj s1, double[] mu2, DMatrixRMaj s2) {
        int d = mu1.length;
        if (mu2.length != d || s1.numRows != d || s1.numCols != d || s2.numRows != d || s2.numCols != d) {
            throw new IllegalArgumentException("the two Gaussians have different dimensions");
        }
        // the stream's code: the second Gaussian as the reference, the first as a running statistic's covariance
        return FrechetReference.of(mu2, java.util.Arrays.copyOf(s2.data, d * d), null).distance(mu1, java.util.Arrays.copyOf(s1.data, d * d));
    }

    /** Eq. (1) of the MMGR appendix ({@link FrechetReference#normalize}). */
    public static double normalize(double d, double dMin, double dMax) {
        return FrechetReference.normalize(d, dMin, dMax);
    }
}
