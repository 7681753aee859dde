package io.mmgr.stream.leaderboard;

/**
 * Differences of primary rates between two checkpoints.
 *
 * <p>Intervals are Newcombe's hybrid score intervals built from the two Wilson intervals (Newcombe,
 * Statistics in Medicine 17:873-890, 1998, method 10, for independent samples; and 17:2635-2650,
 * 1998, method 10, for paired samples, where the correlation of the two outcomes enters). For a
 * primary that is a fraction in [0,1] rather than 0/1 the same formulas use the means and the
 * Pearson correlation; as with {@link Wilson}, the Bernoulli variance bounds the fraction's, so the
 * interval is conservative.
 *
 * <p>p-values: pooled two-proportion z-test for independent samples; for paired 0/1 outcomes the
 * exact McNemar test (binomial on the discordant pairs), and for paired fractions the z-test of the
 * mean difference with the variance under "no difference" (sum of squared differences), which for
 * 0/1 outcomes is McNemar's uncorrected statistic.
 */
public final class ProportionTests {

    private ProportionTests() {
    }

    /**
     * Independent samples: the candidate's {@code sum / n} against the baseline's.
     *
     * @throws IllegalArgumentException when a group is empty or a sum lies outside [0, n]
     */
    public static Difference twoProportion(double sum, long n, double baselineSum, long baselineN) {
        if (n <= 0 || baselineN <= 0) {
            throw new IllegalArgumentException("both groups need samples (n=" + n + ", baseline n=" + baselineN + ")");
        }
        if (sum < 0 || sum > n || baselineSum < 0 || baselineSum > baselineN) {
            throw new IllegalArgumentException("sums must lie in [0, n]");
        }
        double p1 = sum / n;
        double p2 = baselineSum / baselineN;
        double pooled = (sum + baselineSum) / (n + baselineN);
        double se = Math.sqrt(pooled * (1 - pooled) * (1.0 / n + 1.0 / baselineN));
        double p = se == 0 ? (p1 == p2 ? 1.0 : 0.0) : Normal.twoSidedP((p1 - p2) / se);
        double[] ci = newcombe(p1, n, p2, baselineN, 0.0);
        return new Difference(Difference.TWO_PROPORTION, Math.min(n, baselineN), p1, p2, p1 - p2, ci[0], ci[1], p);
    }

    /** Newcombe's interval for p1 - p2 from the Wilson intervals and the correlation phi (0 when independent). */
    static double[] newcombe(double p1, long n1, double p2, long n2, double phi) {
        double[] w1 = Wilson.interval(p1, n1, Wilson.Z95);
        double[] w2 = Wilson.interval(p2, n2, Wilson.Z95);
        double d = p1 - p2;
        double a = p1 - w1[0];
        double b = w2[1] - p2;
        double c = w1[1] - p1;
        double e = p2 - w2[0];
        double low = d - Math.sqrt(Math.max(0.0, a * a - 2 * phi * a * b + b * b));
        double high = d + Math.sqrt(Math.max(0.0, c * c - 2 * phi * c * e + e * e));
        return new double[] {Math.max(-1.0, low), Math.min(1.0, high)};
    }

    /**
     * Tally of paired outcomes (candidate x, baseline y) of the same samples, in [0,1] each. Adding is
     * order-free, so a caller may build it from any walk over the shared samples.
     */
    public static final class Paired {
        private long n;
        private double sx;
        private double sy;
        private double sxx;
        private double syy;
        private double sxy;
        private double sdd;
        private boolean binary = true;
        /** candidate 1, baseline 0 */
        private long gained;
        /** candidate 0, baseline 1 */
        private long lost;

        public Paired add(double x, double y) {
            if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) {
                throw new IllegalArgumentException("paired outcomes must lie in [0,1], got " + x + " and " + y);
            }
            n++;
            sx += x;
            sy += y;
            sxx += x * x;
            syy += y * y;
            sxy += x * y;
            sdd += (x - y) * (x - y);
            if ((x != 0 && x != 1) || (y != 0 && y != 1)) {
                binary = false;
            } else if (x == 1 && y == 0) {
                gained++;
            } else if (x == 0 && y == 1) {
                lost++;
            }
            return this;
        }

        public long size() {
            return n;
        }

        /** The comparison, or null when no pair was added. */
        public Difference compare() {
            if (n == 0) {
                return null;
            }
            double mx = sx / n;
            double my = sy / n;
            double vx = Math.max(0.0, sxx / n - mx * mx);
            double vy = Math.max(0.0, syy / n - my * my);
            double phi = vx == 0 || vy == 0 ? 0.0 : (sxy / n - mx * my) / Math.sqrt(vx * vy);
            phi = Math.max(-1.0, Math.min(1.0, phi));
            double[] ci = newcombe(mx, n, my, n, phi);
            double p;
            if (binary) {
                p = mcNemarExact(gained, lost);
            } else {
                p = sdd == 0 ? 1.0 : Normal.twoSidedP((sx - sy) / Math.sqrt(sdd));
            }
            return new Difference(Difference.PAIRED, n, mx, my, mx - my, ci[0], ci[1], p);
        }
    }

    /**
     * Exact two-sided McNemar test: under "no difference" each of the b + c discordant pairs goes
     * either way with probability 1/2; p = 2 P(X <= min(b, c)), capped at 1.
     */
    public static double mcNemarExact(long b, long c) {
        long m = b + c;
        if (m == 0) {
            return 1.0;
        }
        long k = Math.min(b, c);
        // P(X = i) = C(m, i) / 2^m, summed in log space so that large m cannot overflow
        double logTerm = -m * Math.log(2.0); // i = 0
        double tail = Math.exp(logTerm);
        for (long i = 1; i <= k; i++) {
            logTerm += Math.log((double) (m - i + 1) / i);
            tail += Math.exp(logTerm);
        }
        return Math.min(1.0, 2.0 * tail);
    }
}
