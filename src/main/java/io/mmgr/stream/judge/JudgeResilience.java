package io.mmgr.stream.judge;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.core.functions.CheckedSupplier;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderReply;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * resilience4j around every provider call, outermost first:
 * <ol>
 *   <li>Retry: retryable failures (429, 5xx, timeout, transport, malformed body) up to
 *       {@code maxAttempts}, waiting the longer of Retry-After and an exponential backoff with jitter;</li>
 *   <li>CircuitBreaker: opens on a sustained failure rate (and on 401/403/404, which no retry fixes);
 *       while open nothing is sent and requests wait;</li>
 *   <li>Bulkhead: at most {@code concurrency} calls in flight;</li>
 *   <li>RateLimiter for tokens, then for requests: the request permit is the last thing taken before
 *       the bytes leave, so no queue in between can bunch requests;</li>
 *   <li>TimeLimiter: the call's deadline (the exchange is cancelled).</li>
 * </ol>
 *
 * <p><b>Quota.</b> A quota of Q requests per window W must hold in <em>every</em> sliding window, as
 * the provider counts. resilience4j's request limiter enforces the quota as stated (Q permits per
 * window), but in fixed cycles: the end of one cycle and the start of the next can together let 2Q
 * requests through within a moment. A pacer therefore keeps consecutive sends (W + margin) / Q
 * apart, measured on the real send times, so that any window of length W holds at most Q sends even
 * when the provider receives some of them up to {@code margin} late. For 20 requests/s and the
 * default 25 ms margin that is one send per 51.25 ms (at most 97.6 % of the quota). Several workers
 * sharing one quota split it statically ({@code instances}); 429s are honoured per request through
 * Retry-After rather than by shrinking the rate, so the
 * guarantee never depends on the provider pushing back.
 */
public final class JudgeResilience {

    private final ProviderClient client;
    private final JudgeMetrics metrics;
    private final RateLimiter requests;
    private final RateLimiter tokens;
    private final int tokensPerCycle;
    private final Bulkhead bulkhead;
    private final TimeLimiter timeLimiter;
    private final Retry retry;
    private final CircuitBreaker breaker;
    private final long spacingNanos;
    private final Object pace = new Object();
    private long lastSendNanos = Long.MIN_VALUE;
    private final long wireWaitNanos;
    private long minHandOverNanos = -1;

    /** What one logical call cost: HTTP exchanges made and tokens billed, whatever the outcome. */
    public static final class Tally {
        int attempts;
        long inputTokens;
        long outputTokens;
        ProviderException lastFailure;

        public int attempts() {
            return attempts;
        }

        public long inputTokens() {
            return inputTokens;
        }

        public long outputTokens() {
            return outputTokens;
        }
    }

    public JudgeResilience(JudgeSettings s, ProviderClient client, JudgeMetrics metrics) {
        this.client = client;
        this.metrics = metrics;
        this.wireWaitNanos = Math.min(s.timeout().toNanos(), Duration.ofSeconds(5).toNanos());
        this.spacingNanos = permitSpacing(s.requestQuota(), s.quotaWindow(), s.quotaMargin(), s.instances()).toNanos();
        // the provider's quota as it states it (Q per window); the pacer below smooths within it
        this.requests = RateLimiter.of("judge-requests", RateLimiterConfig.custom()
                .limitForPeriod(Math.max(1, s.requestQuota() / s.instances()))
                .limitRefreshPeriod(s.quotaWindow())
                .timeoutDuration(Duration.ofDays(1))
                .build());
        long tpm = s.tokensPerMinute() / s.instances();
        this.tokensPerCycle = tpm > 0 ? (int) Math.max(1, Math.min(Integer.MAX_VALUE, tpm / 60)) : 0;
        this.tokens = tpm > 0 ? RateLimiter.of("judge-tokens", RateLimiterConfig.custom()
                .limitForPeriod(tokensPerCycle).limitRefreshPeriod(Duration.ofSeconds(1))
                .timeoutDuration(Duration.ofDays(1)).build()) : null;
        this.bulkhead = Bulkhead.of("judge", BulkheadConfig.custom()
                .maxConcurrentCalls(s.concurrency()).maxWaitDuration(Duration.ofDays(1)).build());
        this.timeLimiter = TimeLimiter.of("judge", TimeLimiterConfig.custom()
                .timeoutDuration(s.timeout()).cancelRunningFuture(true).build());
        IntervalFunction backoff = IntervalFunction.ofExponentialRandomBackoff(s.backoffInitial(), 2.0, 0.5, s.backoffMax());
        this.retry = Retry.of("judge", RetryConfig.<Object>custom()
                .maxAttempts(s.maxAttempts())
                .retryOnException(e -> e instanceof ProviderException pe && pe.retryable())
                .intervalBiFunction((attempt, either) -> {
                    long wait = backoff.apply(attempt);
                    if (either.isLeft() && either.getLeft() instanceof ProviderException pe && pe.retryAfter() != null) {
                        wait = Math.max(wait, pe.retryAfter().toMillis());
                    }
                    return wait;
                })
                .failAfterMaxAttempts(false)
                .build());
        retry.getEventPublisher().onRetry(e -> metrics.retry());
        int window = Math.max(2, s.circuitWindow());
        this.breaker = CircuitBreaker.of("judge", CircuitBreakerConfig.custom()
                .slidingWindow(window, Math.max(2, window / 2), CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .failureRateThreshold(s.circuitFailureRate())
                .waitDurationInOpenState(s.circuitOpenFor())
                .permittedNumberOfCallsInHalfOpenState(2)
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .recordException(e -> e instanceof ProviderException pe
                        && (pe.retryable() || pe.kind() == ProviderException.Kind.CONFIGURATION))
                .build());
        metrics.circuitState(() -> switch (breaker.getState()) {
            case CLOSED -> 0;
            case OPEN, FORCED_OPEN -> 1;
            case HALF_OPEN -> 2;
            default -> 3;
        });
    }

    /** Time between sends so that {@code quota / instances} sends per {@code window} hold in every sliding window. */
    public static Duration permitSpacing(int quota, Duration window, Duration margin, int instances) {
        long share = quota / instances;
        if (share < 1) {
            throw new IllegalArgumentException("a quota of " + quota + " per " + window + " cannot be split over "
                    + instances + " instances");
        }
        return Duration.ofNanos((window.toNanos() + margin.toNanos() + share - 1) / share);
    }

    /**
     * Sends once a full cycle has passed since the previous request went on the wire (see the class
     * comment). The previous send counts from the moment its body started to leave, not from when it
     * was handed to the HTTP client, so a client that is slow to connect cannot bunch requests, and a
     * thread the OS wakes late can only add space.
     */
    private CompletableFuture<ProviderReply> pacedSend(ProviderCall call) throws InterruptedException {
        synchronized (pace) {
            long wait;
            // hand the request over early by the shortest hand-over delay seen (capped at a tenth of a cycle,
            // well inside the margin, while a cold client's first delays are still the shortest), so it
            // reaches the wire on time rather than a hand-over late
            long early = Math.min(Math.max(0, minHandOverNanos), spacingNanos / 10);
            while ((wait = lastSendNanos == Long.MIN_VALUE ? 0 : lastSendNanos + spacingNanos - early - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
            CompletableFuture<Long> onWire = new CompletableFuture<>();
            long handedOver = System.nanoTime();
            CompletableFuture<ProviderReply> reply = client.send(call, () -> onWire.complete(System.nanoTime()));
            try {
                CompletableFuture.anyOf(onWire, reply).get(spacingNanos + wireWaitNanos, TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // failed before writing, or too slow to start: the failure surfaces through the reply
            }
            if (onWire.isDone()) {
                // the shortest delay ever seen is a lower bound: handing over that much early never lands early
                long d = Math.max(0, onWire.join() - handedOver);
                minHandOverNanos = minHandOverNanos < 0 ? d : Math.min(minHandOverNanos, d);
            }
            lastSendNanos = onWire.getNow(System.nanoTime());
            return reply;
        }
    }

    /**
     * Makes a call with every guard. Throws {@link CallNotPermittedException} while the circuit is open,
     * the last {@link ProviderException} when retries are exhausted or the failure is not retryable.
     */
    public ProviderReply call(ProviderCall call, long estimatedTokens, Tally tally) throws Exception {
        CheckedSupplier<ProviderReply> guarded = Retry.decorateCheckedSupplier(retry,
                CircuitBreaker.decorateCheckedSupplier(breaker,
                        Bulkhead.decorateCheckedSupplier(bulkhead, () -> send(call, estimatedTokens, tally))));
        try {
            return guarded.get();
        } catch (Exception e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private ProviderReply send(ProviderCall call, long estimatedTokens, Tally tally) throws ProviderException, InterruptedException {
        if (tokens != null) {
            long left = estimatedTokens;
            while (left > 0) {
                int take = (int) Math.min(left, tokensPerCycle);
                RateLimiter.waitForPermission(tokens, take);
                left -= take;
            }
        }
        RateLimiter.waitForPermission(requests);
        tally.attempts++;
        long t0 = System.nanoTime();
        try {
            ProviderReply reply = timeLimiter.executeFutureSupplier(() -> {
                try {
                    return pacedSend(call);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return CompletableFuture.failedFuture(e);
                }
            });
            metrics.call("200", Duration.ofNanos(System.nanoTime() - t0));
            tally.inputTokens += reply.inputTokens();
            tally.outputTokens += reply.outputTokens();
            long extra = reply.inputTokens() + reply.outputTokens() - estimatedTokens;
            if (tokens != null && extra > 0) {
                // charge the quota for what the estimate missed; later calls wait for it
                tokens.reservePermission((int) Math.min(extra, tokensPerCycle));
            }
            return reply;
        } catch (Exception e) {
            ProviderException pe = classify(e);
            metrics.call(outcome(pe), Duration.ofNanos(System.nanoTime() - t0));
            tally.lastFailure = pe;
            throw pe;
        }
    }

    private ProviderException classify(Exception e) throws InterruptedException {
        Throwable t = e;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof ProviderException pe) {
            return pe;
        }
        if (t instanceof TimeoutException || t instanceof CancellationException) {
            return new ProviderException(ProviderException.Kind.TIMEOUT, "no answer within the time limit");
        }
        if (t instanceof InterruptedException ie) {
            throw ie;
        }
        return new ProviderException(ProviderException.Kind.TRANSPORT, "call failed: " + t);
    }

    private static String outcome(ProviderException e) {
        return switch (e.kind()) {
            case RATE_LIMITED -> "429";
            case SERVER -> "5xx";
            case TIMEOUT -> "timeout";
            case TRANSPORT -> "transport";
            case MALFORMED -> "malformed";
            case REFUSED -> "refused";
            case CONFIGURATION -> "configuration";
            case REJECTED -> "rejected";
        };
    }

    public CircuitBreaker.State circuit() {
        return breaker.getState();
    }

    public CircuitBreaker breaker() {
        return breaker;
    }
}
