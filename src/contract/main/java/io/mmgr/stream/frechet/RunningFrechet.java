package io.mmgr.stream.frechet;

import org.ejml.data.DMatrixRMaj;

/**
 * The generated side of a Fréchet distance, kept as samples arrive: the count n, the running mean
 * and the co-moment C = sum (x - mean)(x - mean)^T seen through the reference's factor A
 * ({@link FrechetReference}), W = A C A^T, with Tr(C) beside it. Welford's update adds a sample as
 * C += (n-1)/n d d^T with d = x - mean_(n-1), i.e. W += (n-1)/n (A d)(A d)^T: O(d^2) per sample, no
 * pass over earlier samples, and the same update run backwards removes one (a re-scored sample). The
 * covariance is the unbiased C / (n - 1), as pytorch-fid's {@code np.cov} gives.
 *
 * <p>State: d + d^2 doubles (32 MB at d = 2048); it is never written to Kafka (see FrechetProcessor).
 * Not thread-safe.
 */
public final class RunningFrechet {

    private final FrechetReference reference;
    private final int d;
    private final double[] mean;
    private final double[] w;
    private final double[] delta;
    private final double[] projected;
    private long n;
    private double traceC;

    RunningFrechet(FrechetReference reference) {
        this.reference = reference;
        this.d = reference.dims();
        this.mean = new double[d];
        this.w = new double[d * d];
        this.delta = new double[d];
        this.projected = new double[d];
    }

    public FrechetReference reference() {
        return reference;
    }

    public long samples() {
        return n;
    }

    public int dims() {
        return d;
    }

    /** Heap held by a running statistic of dimension d, for cache budgets. */
    public static long bytes(int d) {
        return 8L * ((long) d * d + 3L * d) + 64;
    }

    public void add(double[] x) {
        check(x);
        long next = n + 1;
        for (int a = 0; a < d; a++) {
            delta[a] = x[a] - mean[a];
            mean[a] += delta[a] / next;
        }
        update((double) n / next);
        n = next;
    }

    /** Takes back a sample that was added (its contribution, up to round-off). */
    public void remove(double[] x) {
        check(x);
        if (n == 0) {
            throw new IllegalStateException("no sample to remove");
        }
        if (n == 1) {
            java.util.Arrays.fill(mean, 0);
            java.util.Arrays.fill(w, 0);
            traceC = 0;
            n = 0;
            return;
        }
        long previous = n - 1;
        for (int a = 0; a < d; a++) {
            double m = mean[a] + (mean[a] - x[a]) / previous;
            delta[a] = x[a] - m;
            mean[a] = m;
        }
        update(-(double) previous / n);
        n = previous;
    }

    /** C += weight d d^T, seen through A: W += weight (A d)(A d)^T. */
    private void update(double weight) {
        double[] factor = reference.factor().data;
        double norm = 0;
        for (int i = 0; i < d; i++) {
            double s = 0;
            int row = i * d;
            for (int a = 0; a < d; a++) {
                s += factor[row + a] * delta[a];
            }
            projected[i] = s;
            norm += delta[i] * delta[i];
        }
        traceC += weight * norm;
        for (int i = 0; i < d; i++) {
            double pi = weight * projected[i];
            int row = i * d;
            for (int j = i; j < d; j++) {
                w[row + j] += pi * projected[j];
            }
        }
    }

    /** The distance to the reference, or null below two samples (no covariance yet). */
    public Double distance() {
        if (n < 2) {
            return null;
        }
        double scale = 1.0 / (n - 1);
        // only the upper triangle is accumulated; mirror it for the symmetric solver
        DMatrixRMaj m = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                double v = w[i * d + j] * scale;
                m.unsafe_set(i, j, v);
                m.unsafe_set(j, i, v);
            }
        }
        return reference.distance(mean, traceC * scale, m);
    }

    private void check(double[] x) {
        if (x.length != d) {
            throw new IllegalArgumentException("a feature vector of " + x.length + " values against a reference of " + d);
        }
        for (double v : x) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("a feature vector has a non-finite value");
            }
        }
    }
}
