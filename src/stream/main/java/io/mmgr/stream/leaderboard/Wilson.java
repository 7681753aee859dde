package io.mmgr.stream.leaderboard;

/**
 * The Wilson score interval for a proportion (Wilson 1927). For a primary that is a fraction in
 * [0,1] rather than 0/1, the same formula with p = the mean is conservative, because the variance
 * of a [0,1] variable never exceeds p(1-p).
 */
public final class Wilson {

    /** Two-sided 95%: the 0.975 quantile of the standard normal. */
    public static final double Z95 = 1.959963984540054;

    private Wilson() {
    }

    /** {low, high} of the interval; {0, 1} when there are no observations. */
    public static double[] interval(double p, long n, double z) {
        if (n <= 0) {
            return new double[] {0.0, 1.0};
        }
        double z2 = z * z;
        double denom = 1 + z2 / n;
        double centre = (p + z2 / (2.0 * n)) / denom;
        double half = z * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / denom;
        return new double[] {Math.max(0.0, centre - half), Math.min(1.0, centre + half)};
    }
}
