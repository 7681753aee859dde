package io.mmgr.stream.judge.batch;

import java.time.Duration;
import java.util.Objects;

/**
 * The batch lane's settings.
 *
 * @param lane          {@code --judge-lane}: realtime (default), batch or auto
 * @param maxRequests   {@code --judge-batch-max-requests}: a batch is submitted once this many requests wait
 * @param maxWait       {@code --judge-batch-max-wait}: ... or once the oldest waiting request has waited this long
 * @param pollInterval  {@code --judge-batch-poll-interval}: how often open batches are polled
 * @param latencyTarget {@code --judge-latency-target}: in auto, realtime takes what the quota serves within this
 */
public record BatchSettings(LaneMode lane, int maxRequests, Duration maxWait, Duration pollInterval, Duration latencyTarget) {

    public static final int DEFAULT_MAX_REQUESTS = 1_000;
    /**
     * A sanity bound on the flag. What a batch's record may hold is the batches topic's record limit: the lane cuts
     * each batch at it too (see {@code RecordBudget}), so long request keys or a topic with a smaller
     * {@code max.message.bytes} make smaller batches, not failed ones. (At about 120 bytes a request, 5,000 requests
     * fit Kafka's default 1 MiB.)
     */
    public static final int LIMIT_MAX_REQUESTS = 5_000;
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(5);
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(30);
    public static final Duration DEFAULT_LATENCY_TARGET = Duration.ofMinutes(5);

    public BatchSettings {
        Objects.requireNonNull(lane);
        if (maxRequests < 1 || maxRequests > LIMIT_MAX_REQUESTS) {
            throw new IllegalArgumentException("--judge-batch-max-requests must be from 1 to " + LIMIT_MAX_REQUESTS + ", not "
                    + maxRequests);
        }
        positive(maxWait, "--judge-batch-max-wait");
        positive(pollInterval, "--judge-batch-poll-interval");
        positive(latencyTarget, "--judge-latency-target");
    }

    public static BatchSettings realtime() {
        return new BatchSettings(LaneMode.REALTIME, DEFAULT_MAX_REQUESTS, DEFAULT_MAX_WAIT, DEFAULT_POLL_INTERVAL, DEFAULT_LATENCY_TARGET);
    }

    private static void positive(Duration d, String flag) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(flag + " must be a positive duration, not " + d);
        }
    }
}
