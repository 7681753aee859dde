package io.mmgr.stream.judge;

import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * The circuit breaker: opens when {@code failureRate} percent of the last {@code window} calls failed,
 * stays open {@code openFor}, then lets probes through (and waiting requests resume at once).
 */
public record CircuitSettings(float failureRate, int window, Duration openFor) {

    public CircuitSettings {
        if (failureRate <= 0 || failureRate > 100) {
            throw new IllegalArgumentException("the judge's circuit failure rate must be in (0, 100], not " + failureRate);
        }
        if (window < 2) {
            throw new IllegalArgumentException("the judge's circuit window must be at least 2 calls, not " + window);
        }
        if (openFor.isNegative() || openFor.isZero()) {
            throw new IllegalArgumentException("the judge's circuit open time must be positive");
        }
    }

    /** 50 % of the last 20 calls, open 30 s. */
    public static CircuitSettings defaults() {
        return new CircuitSettings(50f, 20, Duration.ofSeconds(30));
    }

    public static Builder builder() {
        return defaults().toBuilder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * As a resilience4j config: {@code record} says which failures count against the provider,
     * {@code ignore} which count neither way (resilience4j would count them as successes).
     */
    public CircuitBreakerConfig toCircuitBreakerConfig(Predicate<Throwable> record, Predicate<Throwable> ignore) {
        return CircuitBreakerConfig.custom()
                .slidingWindow(window, Math.max(2, window / 2), CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .failureRateThreshold(failureRate)
                .waitDurationInOpenState(openFor)
                .permittedNumberOfCallsInHalfOpenState(2)
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .recordException(record)
                .ignoreException(ignore)
                .build();
    }

    public static final class Builder {
        private float failureRate;
        private int window;
        private Duration openFor;

        private Builder(CircuitSettings c) {
            failureRate = c.failureRate;
            window = c.window;
            openFor = c.openFor;
        }

        public Builder failureRate(float percent) {
            failureRate = percent;
            return this;
        }

        public Builder window(int calls) {
            window = calls;
            return this;
        }

        public Builder openFor(Duration d) {
            openFor = d;
            return this;
        }

        public CircuitSettings build() {
            return new CircuitSettings(failureRate, window, openFor);
        }
    }
}
