package io.mmgr.stream.leaderboard;

/**
 * When a comparison is a drop worth an alert: the candidate is lower than its baseline by at least
 * {@code minDrop}, the p-value is below {@code maxPValue}, and at least {@code minSamples} samples
 * were compared. The two-sided p-value is used for a one-sided question, which is conservative.
 */
public record AlertRule(double maxPValue, double minDrop, long minSamples) {

    /** 1% significance, a drop of at least 5 points, 20 samples. */
    public static final AlertRule DEFAULT = new AlertRule(0.01, 0.05, 20);

    public AlertRule {
        if (!(maxPValue > 0 && maxPValue <= 1)) {
            throw new IllegalArgumentException("the alert p-value threshold must lie in (0, 1], got " + maxPValue);
        }
        if (!(minDrop >= 0 && minDrop <= 1)) {
            throw new IllegalArgumentException("the minimum drop must lie in [0, 1], got " + minDrop);
        }
        if (minSamples < 1) {
            throw new IllegalArgumentException("the minimum number of samples must be at least 1, got " + minSamples);
        }
    }

    public boolean isSignificantDrop(Difference d) {
        return d != null && d.samples() >= minSamples && -d.difference() >= minDrop && d.difference() < 0
                && d.pValue() < maxPValue;
    }
}
