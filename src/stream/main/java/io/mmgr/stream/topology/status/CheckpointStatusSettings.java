package io.mmgr.stream.topology.status;

import java.time.Duration;
import java.util.Map;

/**
 * Checkpoint status configuration.
 *
 * @param timeout  how long after a checkpoint's done marker arrives the scorer answers TIMED_OUT when the
 *                 marker names no timeout of its own
 * @param interval how often changed checkpoints are looked at again (wall clock): a burst of rows is
 *                 answered once, not once per row
 */
public record CheckpointStatusSettings(Duration timeout, Duration interval) {

    public static final String TIMEOUT_KEY = "mmgr.checkpoint-status.timeout-ms";
    public static final String INTERVAL_KEY = "mmgr.checkpoint-status.interval-ms";
    public static final CheckpointStatusSettings DEFAULT = new CheckpointStatusSettings(Duration.ofMinutes(10), Duration.ofMillis(500));

    public CheckpointStatusSettings {
        if (timeout.isNegative() || timeout.isZero() || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the checkpoint status timeout and interval must be positive");
        }
    }

    /** From {@value #TIMEOUT_KEY} and {@value #INTERVAL_KEY} (-P flags), else the defaults. */
    public static CheckpointStatusSettings of(Map<String, String> settings) {
        return new CheckpointStatusSettings(millis(settings, TIMEOUT_KEY, DEFAULT.timeout()), millis(settings, INTERVAL_KEY, DEFAULT.interval()));
    }

    private static Duration millis(Map<String, String> settings, String key, Duration fallback) {
        String v = settings.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return Duration.ofMillis(Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number of milliseconds, not '" + v + "'");
        }
    }
}
