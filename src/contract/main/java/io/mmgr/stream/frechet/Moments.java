package io.mmgr.stream.frechet;

/**
 * Mean and unbiased covariance of a set of vectors by Welford's co-moment update (numerically stable,
 * one pass): the reference statistics of a reference set given as vectors ({@code eval fid --reference}).
 */
public final class Moments {

    private final int d;
    private final double[] mean;
    private final double[] comoment;
    private final double[] delta;
    private long n;

    public Moments(int d) {
        if (d <= 0) {
            throw new IllegalArgumentException("feature vectors are empty");
        }
        this.d = d;
        this.mean = new double[d];
        this.comoment = new double[d * d];
        this.delta = new double[d];
    }

    public void add(double[] x) {
        if (x.length != d) {
            throw new IllegalArgumentException("a feature vector of " + x.length + " values among vectors of " + d);
        }
        long next = n + 1;
        for (int a = 0; a < d; a++) {
            if (!Double.isFinite(x[a])) {
                throw new IllegalArgumentException("a feature vector has a non-finite value");
            }
            delta[a] = x[a] - mean[a];
            mean[a] += delta[a] / next;
        }
        double weight = (double) n / next;
        for (int i = 0; i < d; i++) {
            double di = weight * delta[i];
            for (int j = 0; j < d; j++) {
                comoment[i * d + j] += di * delta[j];
            }
        }
        n = next;
    }

    public long samples() {
        return n;
    }

    /** The mean and the covariance C / (n - 1). */
    public ReferenceStatistics.Raw statistics() {
        if (n < 2) {
            throw new IllegalArgumentException("a covariance needs at least two feature vectors");
        }
        double[] cov = new double[d * d];
        for (int i = 0; i < cov.length; i++) {
            cov[i] = comoment[i] / (n - 1);
        }
        return new ReferenceStatistics.Raw(mean.clone(), cov, n);
    }
}
