package io.mmgr.stream.contract;

import java.time.Duration;

/**
 * How fast the scorer's and the workers' clients notice a dead member, and how long a transaction may stay
 * open, sized so that scoring resumes within 30 s of a fault on a three-broker cluster (docs/operations.md,
 * "Failover timing"). Every value is a default: {@code -P} (the Kafka client properties) overrides it.
 */
public final class FailoverTiming {

    /**
     * {@code session.timeout.ms} of every group member. With static membership (a restarted instance takes its
     * partitions back at once) a member that died for good keeps its partitions until its session ends: Kafka's
     * 45 s made a lost scorer's partitions wait 46-50 s; 10 s bounds that, and still rides out a GC pause or a
     * broker failover (clients keep heartbeating to the group coordinator's new leader within it).
     */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);

    /** {@code heartbeat.interval.ms}: a quarter of the session, so three heartbeats can be lost before it ends. */
    public static final Duration HEARTBEAT_INTERVAL = Duration.ofMillis(2_500);

    /**
     * {@code transaction.timeout.ms} of every transactional producer. A broker failover took about 11 s in our
     * cluster runs (the dead broker's session, 9 s, then the new leaders' election and metadata): a 10 s timeout
     * had the coordinator abort transactions that were only waiting for it, which fenced the stream thread. 20 s
     * leaves the failover almost twice its time; it is also what a transaction of a process that died for good
     * blocks read_committed readers at most (plus the broker's abort scan, 1 s in docker-compose.yml), so it
     * stays within the 30 s budget.
     */
    public static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(20);

    private FailoverTiming() {
    }
}
