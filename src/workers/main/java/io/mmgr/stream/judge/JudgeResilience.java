package io.mmgr.stream.judge;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.core.functions.CheckedSupplier;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderReply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * resilience4j around every provider call, outermost first:
 * <ol>
 *   <li>Retry: one cycle of {@code maxAttempts} calls on transient failures (429, 5xx, timeout,
 *       transport, a malformed body), waiting the longer of an exponential backoff with jitter and the
 *       wait the provider announced; a wait longer than the backoff's maximum ends the cycle at once
 *       (the request waits outside, holding no thread);</li>
 *   <li>CircuitBreaker: opens on a sustained failure rate (and on 401/403/404, which no retry fixes);
 *       while open nothing is sent, and {@link #onCallsPermitted} tells the worker the moment it lets
 *       calls through again;</li>
 *   <li>Bulkhead: at most {@code concurrency} calls in flight;</li>
 *   <li>the {@link QuotaLimiter}: requests and tokens within the quota in every sliding window and no
 *       send before a wait the provider announced (every announced wait closes its gate for all);</li>
 *   <li>TimeLimiter: the call's deadline (the exchange is cancelled).</li>
 * </ol>
 * resilience4j's own RateLimiter is not used for the quota: it counts in fixed cycles, so the end of
 * one and the start of the next can let 2Q requests through within a moment.
 */
public final class JudgeResilience {

    private final ProviderClient client;
    private final JudgeMetrics metrics;
    private final QuotaLimiter quota;
    private final Bulkhead bulkhead;
    private final TimeLimiter timeLimiter;
    private final Retry retry;
    private final CircuitBreaker breaker;
    private final long wireWaitNanos;
    private final Duration longestWaitInCall;
    private final List<java.util.function.Consumer<CircuitBreaker.State>> permittedListeners = new CopyOnWriteArrayList<>();

    /** What one request's calls cost: HTTP exchanges made and tokens billed, whatever the outcome. */
    public static final class Tally {
        int attempts;
        long inputTokens;
        long outputTokens;
        /** Of the tokens, those answered in a batch (billed at the batch price). */
        long batchInputTokens;
        long batchOutputTokens;

        /** What the tokens cost: realtime ones at the realtime price, batch ones at the batch price. */
        public double usd(PricingSettings pricing) {
            return pricing.cost(inputTokens - batchInputTokens, outputTokens - batchOutputTokens)
                    + pricing.batchCost(batchInputTokens, batchOutputTokens);
        }

        /** A batch answer counts as one exchange, its tokens at the batch price. */
        void batchAnswer(io.mmgr.stream.judge.protocol.ProviderReply r) {
            attempts++;
            inputTokens += r.inputTokens();
            outputTokens += r.outputTokens();
            batchInputTokens += r.inputTokens();
            batchOutputTokens += r.outputTokens();
        }

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
        this.longestWaitInCall = s.retry().backoffMax();
        this.quota = new QuotaLimiter(s.quota());
        this.bulkhead = Bulkhead.of("judge", s.bulkheadConfig());
        this.timeLimiter = TimeLimiter.of("judge", s.timeLimiterConfig());
        this.retry = Retry.of("judge", s.retry().toRetryConfig(
                e -> e instanceof ProviderException pe && pe.retryable()
                        && (pe.retryAfter() == null || pe.retryAfter().compareTo(longestWaitInCall) <= 0),
                e -> e instanceof ProviderException pe ? pe.retryAfter() : null));
        retry.getEventPublisher().onRetry(e -> metrics.retry());
        // a quota wait or a stop says nothing about the provider; its answers (4xx, refusals) say it is up
        this.breaker = CircuitBreaker.of("judge", s.circuit().toCircuitBreakerConfig(e -> e instanceof ProviderException pe
                && (pe.retryable() || pe.kind() == ProviderException.Kind.CONFIGURATION),
                e -> e instanceof QuotaLimiter.Closed || e instanceof InterruptedException));
        breaker.getEventPublisher().onStateTransition(e -> {
            CircuitBreaker.State to = e.getStateTransition().getToState();
            if (to == CircuitBreaker.State.CLOSED || to == CircuitBreaker.State.HALF_OPEN) {
                permittedListeners.forEach(l -> l.accept(to));
            }
        });
        metrics.circuitState(() -> switch (breaker.getState()) {
            case CLOSED -> 0;
            case OPEN, FORCED_OPEN -> 1;
            case HALF_OPEN -> 2;
            default -> 3;
        });
    }

    /**
     * Tells {@code listener} (on the thread that changed the state) whenever the circuit starts letting
     * calls through: HALF_OPEN (its probes) or CLOSED (every call).
     */
    public void onCallsPermitted(java.util.function.Consumer<CircuitBreaker.State> listener) {
        permittedListeners.add(listener);
    }

    /** The quota's share of some partitions of the judge-request topic (recomputed on every rebalance). */
    public void share(java.util.Collection<Integer> partitions, int total) {
        quota.share(partitions, total);
    }

    /** Requests per window this worker may send now. */
    public int requestShare() {
        return quota.requestShare();
    }

    /** How long sends stay held for a wait the provider announced; zero when none is. */
    public Duration announcedWait() {
        return quota.gateRemaining();
    }

    QuotaLimiter limiter() {
        return quota;
    }

    /**
     * Makes a call with every guard. Throws {@link CallNotPermittedException} while the circuit is open,
     * {@link QuotaLimiter.Closed} when the quota would hold it longer than a backoff, the last
     * {@link ProviderException} when the cycle is exhausted or the failure is not retried.
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

    private ProviderReply send(ProviderCall call, long estimatedTokens, Tally tally) throws Exception {
        HandedOver[] handed = new HandedOver[1];
        QuotaLimiter.Charge charge = quota.admit(System.nanoTime(), estimatedTokens, longestWaitInCall, () -> {
            handed[0] = handOver(call);
            return handed[0].onWire();
        });
        tally.attempts++;
        long t0 = System.nanoTime();
        try {
            ProviderReply r = timeLimiter.executeFutureSupplier(() -> handed[0].reply());
            metrics.call("200", Duration.ofNanos(System.nanoTime() - t0));
            tally.inputTokens += r.inputTokens();
            tally.outputTokens += r.outputTokens();
            quota.charge(charge, r.inputTokens() + r.outputTokens());
            return r;
        } catch (Exception e) {
            ProviderException pe = classify(e);
            metrics.call(outcome(pe), Duration.ofNanos(System.nanoTime() - t0));
            if (pe.retryAfter() != null) {
                // an announced wait holds every send, in flight or queued, until it has passed
                quota.holdUntil(System.nanoTime() + pe.retryAfter().toNanos(), "the provider asked to wait "
                        + seconds(pe.retryAfter()) + " (" + pe.hint().source() + ")");
            }
            throw pe;
        }
    }

    private record HandedOver(CompletableFuture<ProviderReply> reply, long onWire) {
    }

    /**
     * Hands the request to the client and waits (bounded) until its body starts to leave, which is when
     * the provider starts counting it; called under the limiter's lock, so that time is what is logged.
     */
    private HandedOver handOver(ProviderCall call) {
        CompletableFuture<Long> onWire = new CompletableFuture<>();
        CompletableFuture<ProviderReply> r = client.send(call, () -> onWire.complete(System.nanoTime()));
        try {
            CompletableFuture.anyOf(onWire, r).get(wireWaitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // failed before writing, or too slow to start: the failure surfaces through the reply
        }
        return new HandedOver(r, onWire.getNow(System.nanoTime()));
    }

    static String seconds(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
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
            case OVERSIZED -> "oversized";
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
