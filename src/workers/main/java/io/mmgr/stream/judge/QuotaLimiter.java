package io.mmgr.stream.judge;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Holds sends to a quota of Q requests (and T tokens a minute) in <em>every</em> sliding window, as a
 * provider counts arrivals, and to any wait the provider announced.
 *
 * <p><b>A sliding log.</b> The last Q send times are kept; a send may leave only once the Q-th latest
 * lies a full window (plus the jitter margin) behind it, so any window of length W holds at most Q
 * sends even when the provider counts some of them up to the margin late. Within that bound, sends are
 * spread evenly ((W + margin) / Q apart) on a schedule that does not move when one send leaves late
 * (a thread woken late by a busy CPU): the next ones go at once until the schedule is met again, so a
 * late send is made up, never pushed onto everything after it (up to one window of lateness). A
 * request that became ready after its slot starts the schedule afresh, so idle time is not saved up
 * into bursts. The token log works the same way over a minute with each send's estimate, raised when the
 * answer billed more.
 *
 * <p><b>Announced waits.</b> {@link #holdUntil} closes a gate for everything queued or yet to come
 * until the announced time (Retry-After, RetryInfo, x-ratelimit-reset).
 *
 * <p><b>Shares.</b> Several workers share one quota by partitions ({@link #share}): a lower share
 * applies at once, a higher one only one window after the change, when the sends of the worker that
 * gave those partitions up have left every window the new owner's sends can share with them.
 *
 * <p>The send itself happens under the limiter's lock and its real time is what is logged, so no
 * two senders decide on the same stale log.
 */
final class QuotaLimiter {

    /** A send that cannot go soon: the reason, and when it can be tried. */
    static final class Closed extends Exception {
        final Duration retryIn;

        Closed(String reason, Duration retryIn) {
            super(reason, null, false, false);
            this.retryIn = retryIn;
        }
    }

    /** What a send did: the nano time its request started to leave. */
    @FunctionalInterface
    interface Send {
        long run() throws InterruptedException;
    }

    /** How the limiter waits (tests use a clock they move instead). */
    @FunctionalInterface
    interface Waiter {
        void await(Condition changed, long nanos) throws InterruptedException;
    }

    /** A logged send's token charge, raised by {@link #charge} when the answer billed more. */
    static final class Charge {
        final long at;
        long tokens;

        Charge(long at, long tokens) {
            this.at = at;
            this.tokens = tokens;
        }
    }

    private final QuotaSettings quota;
    private final long windowNanos;
    private final long tokenWindowNanos;
    private final LongSupplier clock;
    private final Waiter waiter;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final long[] log;
    private int logSize;
    private int logHead;
    private final ArrayDeque<Charge> tokenLog = new ArrayDeque<>();
    private long tokensInLog;

    private int requests;
    private long tokens;
    private int raisedRequests;
    private long raisedTokens;
    private long raisedAt = Long.MIN_VALUE;
    private boolean shared;

    private long schedule = Long.MIN_VALUE;
    private long gate = Long.MIN_VALUE;
    private String gateReason;

    QuotaLimiter(QuotaSettings quota) {
        this(quota, System::nanoTime, Condition::awaitNanos);
    }

    QuotaLimiter(QuotaSettings quota, LongSupplier clock, Waiter waiter) {
        this.quota = quota;
        this.clock = clock;
        this.waiter = waiter;
        this.windowNanos = quota.window().plus(quota.margin()).toNanos();
        this.tokenWindowNanos = QuotaSettings.TOKEN_WINDOW.plus(quota.margin()).toNanos();
        this.log = new long[quota.requests()];
        this.requests = quota.requests();
        this.tokens = quota.tokensPerMinute();
    }

    /**
     * Takes the quota's share of the given partitions of a topic with {@code total} partitions. The first
     * share applies at once (nothing was sent under another one); later raises one window after.
     */
    void share(java.util.Collection<Integer> partitions, int total) {
        int r = quota.requestShare(partitions, total);
        long t = quota.tokenShare(partitions, total);
        lock.lock();
        try {
            long now = clock.getAsLong();
            promote(now);
            if (!shared || (r <= requests && t <= tokens)) {
                requests = r;
                tokens = t;
                raisedAt = Long.MIN_VALUE;
            } else {
                // lower now what is lower, raise the rest once the old owner's sends have left the window
                requests = Math.min(requests, r);
                tokens = Math.min(tokens, t);
                raisedRequests = r;
                raisedTokens = t;
                raisedAt = now + windowNanos;
            }
            shared = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void promote(long now) {
        if (raisedAt != Long.MIN_VALUE && now >= raisedAt) {
            requests = raisedRequests;
            tokens = raisedTokens;
            raisedAt = Long.MIN_VALUE;
        }
    }

    /** Requests this limiter may send per window now. */
    int requestShare() {
        lock.lock();
        try {
            promote(clock.getAsLong());
            return requests;
        } finally {
            lock.unlock();
        }
    }

    /** Closes the gate until {@code nanos}: nothing queued or yet to come leaves earlier. */
    void holdUntil(long nanos, String reason) {
        lock.lock();
        try {
            if (nanos > gate) {
                gate = nanos;
                gateReason = reason;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** How long the gate stays closed from now (zero when open), and why. */
    Duration gateRemaining() {
        lock.lock();
        try {
            return Duration.ofNanos(Math.max(0, gate - clock.getAsLong()));
        } finally {
            lock.unlock();
        }
    }

    String gateReason() {
        lock.lock();
        try {
            return gateReason;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until a request ready since {@code ready} (nano time) and estimated at {@code estimate}
     * tokens may leave, sends it with {@code send} (under the lock, so its real time is logged before
     * anyone else decides) and logs it. Throws {@link Closed} instead of waiting longer than
     * {@code maxWait} (a long announced wait, a share of 0): the request then waits outside, holding no
     * thread.
     */
    Charge admit(long ready, long estimate, Duration maxWait, Send send) throws InterruptedException, Closed {
        lock.lockInterruptibly();
        try {
            // the schedule catches up with a request that was ready in time (queued, woken late, slow to hand
            // over), but not with time nobody wanted to send in: that is not saved up into a burst
            schedule = Math.max(schedule, ready);
            while (true) {
                long now = clock.getAsLong();
                promote(now);
                long at = earliest(now, estimate);
                if (at - now > maxWait.toNanos()) {
                    throw new Closed(closedReason(now, estimate), Duration.ofNanos(at - now));
                }
                if (at <= now) {
                    break;
                }
                waiter.await(changed, at - now);
            }
            long sentAt = send.run();
            record(sentAt);
            Charge c = new Charge(sentAt, estimate);
            if (tokens > 0) {
                tokenLog.addLast(c);
                tokensInLog += estimate;
            }
            return c;
        } finally {
            lock.unlock();
        }
    }

    /** Raises a send's token charge to what the answer billed (never lowers it: providers count the estimate). */
    void charge(Charge c, long actual) {
        lock.lock();
        try {
            if (actual > c.tokens) {
                if (tokenLog.contains(c)) {
                    tokensInLog += actual - c.tokens;
                }
                c.tokens = actual;
            }
        } finally {
            lock.unlock();
        }
    }

    private long earliest(long now, long estimate) {
        long at = Math.max(now, gate);
        if (requests <= 0) {
            return raisedAt != Long.MIN_VALUE && raisedRequests > 0 ? Math.max(at, raisedAt) : Long.MAX_VALUE / 2;
        }
        if (logSize >= requests) {
            at = Math.max(at, nthLatest(requests) + windowNanos);
        }
        at = Math.max(at, schedule);
        if (tokens > 0) {
            while (!tokenLog.isEmpty() && tokenLog.peekFirst().at + tokenWindowNanos <= now) {
                tokensInLog -= tokenLog.pollFirst().tokens;
            }
            long over = tokensInLog + estimate - tokens;
            for (Charge c : tokenLog) {
                if (over <= 0) {
                    break;
                }
                over -= c.tokens;
                at = Math.max(at, c.at + tokenWindowNanos);
            }
        }
        return at;
    }

    private String closedReason(long now, long estimate) {
        if (gate > now) {
            return gateReason;
        }
        if (requests <= 0) {
            return "this worker's share of the judge quota is 0 requests per " + quota.window().toSeconds()
                    + " s (quota " + quota.requests() + " over its judge-request partitions); it waits for a share";
        }
        return "the judge token quota (" + tokens + " tokens per minute for this worker) is used up for a while; "
                + "this call needs about " + estimate;
    }

    /** The n-th latest send (1: the latest). */
    private long nthLatest(int n) {
        int idx = Math.floorMod(logHead - n, log.length);
        return log[idx];
    }

    private void record(long sentAt) {
        log[logHead] = sentAt;
        logHead = (logHead + 1) % log.length;
        logSize = Math.min(logSize + 1, log.length);
        long spacing = windowNanos / Math.max(1, requests);
        // the schedule does not follow a late send (it is made up), but never lags more than a window
        schedule = Math.max(schedule, sentAt - windowNanos) + spacing;
    }

    long windowNanos() {
        return windowNanos;
    }
}
