package io.mmgr.stream.judge;

import java.time.Duration;
import java.util.Collection;

/**
 * The provider's quota, as the provider states it: at most {@code requests} per {@code window} (and
 * {@code tokensPerMinute} tokens per minute), counted over any sliding window of arrivals.
 *
 * @param requests        requests per window
 * @param window          1 s for requests/s, 60 s for requests/min
 * @param margin          allowance for the jitter between a send and the provider counting it: sends are
 *                        held to the quota over {@code window + margin}
 * @param tokensPerMinute token quota per minute (0: none)
 */
public record QuotaSettings(int requests, Duration window, Duration margin, long tokensPerMinute) {

    public static final Duration TOKEN_WINDOW = Duration.ofMinutes(1);

    public QuotaSettings {
        if (requests < 1) {
            throw new IllegalArgumentException("the judge's request quota must be positive, not " + requests);
        }
        if (window == null || window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("the judge's quota window must be positive");
        }
        if (margin == null || margin.isNegative()) {
            throw new IllegalArgumentException("the judge's quota margin must not be negative");
        }
        if (tokensPerMinute < 0) {
            throw new IllegalArgumentException("the judge's token quota must not be negative");
        }
    }

    /** 60 requests per minute, a 25 ms margin, no token quota. */
    public static QuotaSettings defaults() {
        return new QuotaSettings(60, Duration.ofMinutes(1), Duration.ofMillis(25), 0);
    }

    public static Builder builder() {
        return defaults().toBuilder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The requests of this quota that belong to some partitions of a topic with {@code total} partitions:
     * partition {@code j} owns {@code floor(Q(j+1)/P) - floor(Qj/P)}, so the shares of any split of the
     * partitions over workers add up to exactly the quota.
     */
    public int requestShare(Collection<Integer> partitions, int total) {
        return (int) share(requests, partitions, total);
    }

    /** The tokens per minute of this quota that belong to the partitions (as {@link #requestShare}). */
    public long tokenShare(Collection<Integer> partitions, int total) {
        return share(tokensPerMinute, partitions, total);
    }

    static long share(long quota, Collection<Integer> partitions, int total) {
        if (total <= 0) {
            return quota;
        }
        long sum = 0;
        for (int j : partitions) {
            if (j >= 0 && j < total) {
                sum += Math.floorDiv(quota * (j + 1), total) - Math.floorDiv(quota * j, total);
            }
        }
        return sum;
    }

    public static final class Builder {
        private int requests;
        private Duration window;
        private Duration margin;
        private long tokensPerMinute;

        private Builder(QuotaSettings q) {
            requests = q.requests;
            window = q.window;
            margin = q.margin;
            tokensPerMinute = q.tokensPerMinute;
        }

        public Builder requests(int n, Duration per) {
            requests = n;
            window = per;
            return this;
        }

        public Builder margin(Duration d) {
            margin = d;
            return this;
        }

        public Builder tokensPerMinute(long n) {
            tokensPerMinute = n;
            return this;
        }

        public QuotaSettings build() {
            return new QuotaSettings(requests, window, margin, tokensPerMinute);
        }
    }
}
