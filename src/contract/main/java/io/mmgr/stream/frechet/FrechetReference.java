package io.mmgr.stream.frechet;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The reference side of a Fréchet distance (FID, Heusel et al. 2017; FVD, Unterthiner et al. 2018):
 * d^2 = |mu - mu_r|^2 + Tr(S) + Tr(S_r) - 2 Tr((S_r^1/2 S S_r^1/2)^1/2), the form pytorch-fid's
 * {@code calculate_frechet_distance} evaluates (mseitzer/pytorch-fid, {@code fid_score.py}).
 *
 * <p>The reference covariance is decomposed once, S_r = V diag(lambda) V^T, and kept as the factor
 * A = diag(lambda)^1/2 V^T: S_r^1/2 S S_r^1/2 = V (A S A^T) V^T has the eigenvalues of A S A^T, so the
 * generated side can carry A S A^T itself, updated by one rank-one term per sample ({@link RunningFrechet}),
 * and a distance costs one symmetric eigenvalue computation instead of two square roots and two products.
 * Small negative eigenvalues (round-off) are clamped to 0, as the root's real part is taken there.
 */
public final class FrechetReference {

    /** Eigenvalues below -TOLERANCE x the largest mean the covariance is not positive semi-definite. */
    static final double TOLERANCE = 1e-8;

    private final double[] mean;
    private final double trace;
    private final DMatrixRMaj factor;
    private final Long samples;

    private FrechetReference(double[] mean, double trace, DMatrixRMaj factor, Long samples) {
        this.mean = mean;
        this.trace = trace;
        this.factor = factor;
        this.samples = samples;
    }

    /**
     * @param covariance row-major d x d, symmetric and positive semi-definite
     * @param samples    size of the reference set when known
     */
    public static FrechetReference of(double[] mean, double[] covariance, Long samples) {
        int d = mean.length;
        if (d == 0) {
            throw new IllegalArgumentException("the reference mean is empty");
        }
        if (covariance.length != (long) d * d) {
            throw new IllegalArgumentException("the reference covariance has " + covariance.length
                    + " values, a " + d + " x " + d + " matrix needs " + (long) d * d);
        }
        double trace = 0;
        double scale = 0;
        for (int i = 0; i < d; i++) {
            if (!Double.isFinite(mean[i])) {
                throw new IllegalArgumentException("the reference mean has a non-finite value");
            }
            trace += covariance[i * d + i];
            for (int j = 0; j < d; j++) {
                double v = covariance[i * d + j];
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("the reference covariance has a non-finite value");
                }
                scale = Math.max(scale, Math.abs(v));
            }
        }
        DMatrixRMaj sym = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double a = covariance[i * d + j];
                double b = covariance[j * d + i];
                if (Math.abs(a - b) > 1e-6 * Math.max(Math.abs(a), Math.abs(b)) + 1e-12 * scale) {
                    throw new IllegalArgumentException("the reference covariance is not symmetric at (" + i + ", " + j + ")");
                }
                sym.set(i, j, (a + b) / 2);
            }
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, true, true);
        if (!eig.decompose(sym)) {
            throw new IllegalArgumentException("the reference covariance's eigendecomposition did not converge");
        }
        double largest = 0;
        for (int i = 0; i < d; i++) {
            largest = Math.max(largest, Math.abs(eig.getEigenvalue(i).getReal()));
        }
        DMatrixRMaj factor = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            double lambda = eig.getEigenvalue(i).getReal();
            if (lambda < -TOLERANCE * largest) {
                throw new IllegalArgumentException("the reference covariance is not positive semi-definite (eigenvalue "
                        + lambda + ")");
            }
            double root = Math.sqrt(Math.max(0, lambda));
            DMatrixRMaj v = eig.getEigenVector(i);
            for (int a = 0; a < d; a++) {
                factor.unsafe_set(i, a, root * v.get(a));
            }
        }
        return new FrechetReference(mean.clone(), trace, factor, samples);
    }

    public int dims() {
        return mean.length;
    }

    public Long samples() {
        return samples;
    }

    /** A = diag(lambda)^1/2 V^T, d x d. */
    DMatrixRMaj factor() {
        return factor;
    }

    /** The distance of a Gaussian given by its mean and row-major covariance (e.g. fitted in one batch). */
    public double distance(double[] mu, double[] covariance) {
        int d = dims();
        if (mu.length != d || covariance.length != (long) d * d) {
            throw new IllegalArgumentException("the two Gaussians have different dimensions");
        }
        DMatrixRMaj s = DMatrixRMaj.wrap(d, d, covariance);
        DMatrixRMaj as = new DMatrixRMaj(d, d);
        DMatrixRMaj projected = new DMatrixRMaj(d, d);
        CommonOps_DDRM.mult(factor, s, as);
        CommonOps_DDRM.multTransB(as, factor, projected);
        double trace = 0;
        for (int i = 0; i < d; i++) {
            trace += covariance[i * d + i];
        }
        for (int i = 0; i < d; i++) {
            for (int j = i + 1; j < d; j++) {
                double v = (projected.unsafe_get(i, j) + projected.unsafe_get(j, i)) / 2;
                projected.unsafe_set(i, j, v);
                projected.unsafe_set(j, i, v);
            }
        }
        return distance(mu, trace, projected);
    }

    /**
     * d^2 from the other side's mean, Tr(S) and A S A^T (symmetric; consumed): the trace of the root is the
     * sum of the roots of its eigenvalues, negative round-off clamped to 0.
     */
    double distance(double[] mu, double traceS, DMatrixRMaj projected) {
        double diff = 0;
        for (int a = 0; a < mean.length; a++) {
            double e = mu[a] - mean[a];
            diff += e * e;
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(mean.length, false, true);
        if (!eig.decompose(projected)) {
            throw new IllegalStateException("eigendecomposition did not converge");
        }
        double traceRoot = 0;
        for (int i = 0; i < mean.length; i++) {
            traceRoot += Math.sqrt(Math.max(0, eig.getEigenvalue(i).getReal()));
        }
        // round-off can take an exact zero a hair below it
        return Math.max(0, diff + traceS + trace - 2 * traceRoot);
    }

    /** An empty running statistic against this reference. */
    public RunningFrechet running() {
        return new RunningFrechet(this);
    }

    /**
     * MMGR Eq. (1): S = max(0, min(1, 1 - (d - d_min) / (d_max - d_min))), d_min and d_max the empirical
     * bounds of the metric's distribution; 1 is best.
     */
    public static double normalize(double d, double dMin, double dMax) {
        if (!(dMax > dMin)) {
            throw new IllegalArgumentException("d_max must be greater than d_min");
        }
        return Math.max(0, Math.min(1, 1 - (d - dMin) / (dMax - dMin)));
    }
}
