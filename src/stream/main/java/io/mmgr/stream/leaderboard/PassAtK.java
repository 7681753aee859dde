package io.mmgr.stream.leaderboard;

/**
 * The unbiased pass@k estimator of Chen et al. 2021 ("Evaluating Large Language Models Trained on
 * Code"): with n samples of which c pass, pass@k = 1 - C(n-c, k) / C(n, k), computed as a product
 * so that large n cannot overflow.
 */
public final class PassAtK {

    /** Largest k reported. */
    public static final int MAX_K = 10;

    private PassAtK() {
    }

    public static double estimate(long n, long c, int k) {
        if (k < 1 || k > n || c < 0 || c > n) {
            throw new IllegalArgumentException("pass@k needs 1 <= k <= n and 0 <= c <= n (n=" + n + ", c=" + c + ", k=" + k + ")");
        }
        if (n - c < k) {
            return 1.0;
        }
        double failAll = 1.0;
        for (long i = n - c + 1; i <= n; i++) {
            failAll *= 1.0 - (double) k / i;
        }
        return 1.0 - failAll;
    }
}
