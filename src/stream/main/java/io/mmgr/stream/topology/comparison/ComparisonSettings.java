package io.mmgr.stream.topology.comparison;

import io.mmgr.stream.leaderboard.AlertRule;
import java.time.Duration;

/**
 * Checkpoint comparison configuration.
 *
 * @param rule     when a drop becomes an alert
 * @param interval how often changed run x task comparisons are recomputed (wall clock): scores of a
 *                 burst are compared once, not once per sample
 */
public record ComparisonSettings(AlertRule rule, Duration interval) {

    public static final ComparisonSettings DEFAULT = new ComparisonSettings(AlertRule.DEFAULT, Duration.ofMillis(500));

    public ComparisonSettings {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the comparison interval must be positive");
        }
    }
}
