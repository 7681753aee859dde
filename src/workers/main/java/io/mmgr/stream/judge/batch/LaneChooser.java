package io.mmgr.stream.judge.batch;

import java.time.Duration;

/**
 * The {@code auto} lane's decision, pure: a request goes realtime when the realtime requests already waiting or in
 * flight, plus this one, can be served by this worker's quota share within the latency target
 * ({@code share} requests per {@code window}, so {@code share * target / window} requests in all); the rest go to
 * the batch lane. The realtime share therefore never needs more than the quota to meet the target, and a burst
 * past it is batched instead of queued for hours.
 */
public final class LaneChooser {

    private LaneChooser() {
    }

    /** How many realtime requests the quota serves within the target (at least one while the share is positive). */
    public static long realtimeRoom(int share, Duration window, Duration target) {
        if (share <= 0) {
            return 0;
        }
        double perTarget = (double) share * target.toNanos() / window.toNanos();
        return Math.max(1, (long) Math.floor(perTarget));
    }

    /** Whether the next request goes realtime, with {@code realtimeBacklog} realtime requests not yet answered. */
    public static boolean realtime(long realtimeBacklog, int share, Duration window, Duration target) {
        return realtimeBacklog < realtimeRoom(share, window, target);
    }
}
