package io.mmgr.stream.tasks.nav;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The Fréchet distance between two Gaussians, the statistic behind FID (Heusel et al. 2017) and FVD
 * (Unterthiner et al. 2018): d^2 = |mu1 - mu2|^2 + Tr(S1 + S2 - 2 (S1 S2)^(1/2)). The trace of the
 * matrix square root is computed stably as Tr((S1^(1/2) S2 S1^(1/2))^(1/2)), both roots from symmetric
 * eigendecompositions with negative round-off eigenvalues clamped to 0. Gaussians are fitted to
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
        double diff = 0;
        for (int a = 0; a < d; a++) {
            diff += (mu1[a] - mu2[a]) * (mu1[a] - mu2[a]);
        }
        DMatrixRMaj root1 = sqrtSymmetric(s1);
        DMatrixRMaj tmp = new DMatrixRMaj(d, d);
        DMatrixRMaj m = new DMatrixRMaj(d, d);
        CommonOps_DDRM.mult(root1, s2, tmp);
        CommonOps_DDRM.mult(tmp, root1, m);
        symmetrize(m);
        double traceRoot = 0;
        for (double ev : eigenvalues(m)) {
            traceRoot += Math.sqrt(Math.max(0, ev));
        }
        double value = diff + CommonOps_DDRM.trace(s1) + CommonOps_DDRM.trace(s2) - 2 * traceRoot;
        // round-off can take an exact zero a hair below it
        return Math.max(0, value);
    }

    /**
     * Eq. (1) of the MMGR appendix: S = max(0, min(1, 1 - (d - d_min) / (d_max - d_min))), with d_min and
     * d_max the empirical bounds of the metric's distribution; 1 is best.
     */
    public static double normalize(double d, double dMin, double dMax) {
        if (!(dMax > dMin)) {
            throw new IllegalArgumentException("d_max must be greater than d_min");
        }
        return Math.max(0, Math.min(1, 1 - (d - dMin) / (dMax - dMin)));
    }

    /** The symmetric positive semi-definite square root (negative eigenvalues clamped). */
    static DMatrixRMaj sqrtSymmetric(DMatrixRMaj s) {
        int d = s.numRows;
        DMatrixRMaj sym = s.copy();
        symmetrize(sym);
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, true, true);
        if (!eig.decompose(sym)) {
            throw new IllegalStateException("eigendecomposition did not converge");
        }
        // V diag(sqrt(lambda)) V^T as two matrix products (d^3, not d^4)
        DMatrixRMaj v = new DMatrixRMaj(d, d);
        DMatrixRMaj vs = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            double root = Math.sqrt(Math.max(0, eig.getEigenvalue(i).getReal()));
            DMatrixRMaj vec = eig.getEigenVector(i);
            for (int a = 0; a < d; a++) {
                v.set(a, i, vec.get(a));
                vs.set(a, i, vec.get(a) * root);
            }
        }
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(vs, v, out);
        return out;
    }

    private static double[] eigenvalues(DMatrixRMaj m) {
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(m.numRows, false, true);
        if (!eig.decompose(m.copy())) {
            throw new IllegalStateException("eigendecomposition did not converge");
        }
        double[] out = new double[m.numRows];
        for (int i = 0; i < out.length; i++) {
            out[i] = eig.getEigenvalue(i).getReal();
        }
        return out;
    }

    private static void symmetrize(DMatrixRMaj m) {
        for (int a = 0; a < m.numRows; a++) {
            for (int b = a + 1; b < m.numCols; b++) {
                double v = (m.get(a, b) + m.get(b, a)) / 2;
                m.set(a, b, v);
                m.set(b, a, v);
            }
        }
    }
}
