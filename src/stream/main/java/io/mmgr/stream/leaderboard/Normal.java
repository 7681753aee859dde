package io.mmgr.stream.leaderboard;

/**
 * The standard normal distribution's tail, for two-sided p-values. erfc is computed from its
 * positive-term series below 3 and from its continued fraction (modified Lentz) above, so small
 * p-values keep their relative accuracy instead of cancelling to zero.
 */
public final class Normal {

    private static final double TWO_OVER_SQRT_PI = 2.0 / Math.sqrt(Math.PI);

    private Normal() {
    }

    /** Two-sided p-value of a standard normal statistic: P(|Z| >= |z|). */
    public static double twoSidedP(double z) {
        if (Double.isNaN(z)) {
            return 1.0;
        }
        return Math.min(1.0, erfc(Math.abs(z) / Math.sqrt(2.0)));
    }

    /** Complementary error function. */
    public static double erfc(double x) {
        if (x < 0) {
            return 2.0 - erfc(-x);
        }
        if (x < 3.0) {
            return 1.0 - erfSeries(x);
        }
        return erfcContinuedFraction(x);
    }

    /** erf(x) = 2/sqrt(pi) e^{-x^2} sum_n 2^n x^{2n+1} / (1*3*...*(2n+1)): all terms positive. */
    private static double erfSeries(double x) {
        double x2 = x * x;
        double term = x;
        double sum = x;
        for (int n = 1; n < 200; n++) {
            term *= 2.0 * x2 / (2 * n + 1);
            sum += term;
            if (term < sum * 1e-17) {
                break;
            }
        }
        return TWO_OVER_SQRT_PI * Math.exp(-x2) * sum;
    }

    /** erfc(x) = e^{-x^2}/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))). */
    private static double erfcContinuedFraction(double x) {
        double tiny = 1e-300;
        double f = x;
        double c = x;
        double d = 0.0;
        for (int n = 1; n < 500; n++) {
            double a = n / 2.0;
            d = x + a * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = x + a / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1.0 / d;
            double delta = c * d;
            f *= delta;
            if (Math.abs(delta - 1.0) < 1e-16) {
                break;
            }
        }
        return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
    }
}
