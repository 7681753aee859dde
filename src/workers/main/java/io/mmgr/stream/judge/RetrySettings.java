package io.mmgr.stream.judge;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Retries of transient failures (429, 5xx, timeouts, connections): a cycle of {@code maxAttempts}
 * calls within one judging (resilience4j Retry), then further cycles scheduled by the worker, with
 * the same exponential backoff continued, until the request succeeds or {@code deadline} has passed
 * since it was requested; then it is FAILED (and not cached, so publishing it again retries).
 *
 * @param maxAttempts    calls in one cycle
 * @param backoffInitial the first wait (exponential, factor 2, randomized by half; an announced wait wins when longer)
 * @param backoffMax     the longest wait between tries
 * @param deadline       how long after its {@code requestedAt} a request is still retried
 */
public record RetrySettings(int maxAttempts, Duration backoffInitial, Duration backoffMax, Duration deadline) {

    public RetrySettings {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("the judge's attempts per cycle must be positive, not " + maxAttempts);
        }
        if (backoffInitial.isNegative() || backoffInitial.isZero() || backoffMax.compareTo(backoffInitial) < 0) {
            throw new IllegalArgumentException("the judge's backoff must be positive, its maximum at least its first wait");
        }
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("the judge's retry deadline must be positive");
        }
    }

    /** 4 attempts a cycle, 1 s doubling up to 60 s, retried for 24 h. */
    public static RetrySettings defaults() {
        return new RetrySettings(4, Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofHours(24));
    }

    public static Builder builder() {
        return defaults().toBuilder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** resilience4j's exponential random backoff with these bounds. */
    public IntervalFunction backoff() {
        return IntervalFunction.ofExponentialRandomBackoff(backoffInitial, 2.0, 0.5, backoffMax);
    }

    /** The wait before the next cycle after {@code cycles} cycles failed: the backoff continued where the cycles left it. */
    public Duration betweenCycles(int cycles) {
        return Duration.ofMillis(backoff().apply(maxAttempts + Math.max(0, cycles - 1)));
    }

    /**
     * The cycle as a resilience4j {@link RetryConfig}: retries what {@code retryOn} accepts, waiting the
     * longer of the backoff and the wait the failure announces.
     */
    public RetryConfig toRetryConfig(Predicate<Throwable> retryOn, Function<Throwable, Duration> announced) {
        IntervalFunction backoff = backoff();
        return RetryConfig.<Object>custom()
                .maxAttempts(maxAttempts)
                .retryOnException(retryOn)
                .intervalBiFunction((attempt, either) -> {
                    long wait = backoff.apply(attempt);
                    Duration hint = either.isLeft() ? announced.apply(either.getLeft()) : null;
                    return hint == null ? wait : Math.max(wait, hint.toMillis());
                })
                .failAfterMaxAttempts(false)
                .build();
    }

    public static final class Builder {
        private int maxAttempts;
        private Duration backoffInitial;
        private Duration backoffMax;
        private Duration deadline;

        private Builder(RetrySettings r) {
            maxAttempts = r.maxAttempts;
            backoffInitial = r.backoffInitial;
            backoffMax = r.backoffMax;
            deadline = r.deadline;
        }

        public Builder maxAttempts(int n) {
            maxAttempts = n;
            return this;
        }

        public Builder backoff(Duration initial, Duration max) {
            backoffInitial = initial;
            backoffMax = max;
            return this;
        }

        public Builder deadline(Duration d) {
            deadline = d;
            return this;
        }

        public RetrySettings build() {
            return new RetrySettings(maxAttempts, backoffInitial, backoffMax, deadline);
        }
    }
}
