package io.mmgr.stream.judge;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The judge's meters, registered on a {@link MeterRegistry} the caller owns (a Prometheus registry
 * binds the same names). Names: {@code mmgr.judge.*}.
 */
public final class JudgeMetrics {

    private final MeterRegistry registry;
    private final Counter retries;
    private final Counter rateLimited;
    private final Counter cacheHits;
    private final Counter cacheMisses;
    private final Counter cacheInFlight;
    private final Counter repairs;
    private final Counter enlarged;
    private final Timer latency;
    private final AtomicInteger backlog = new AtomicInteger();
    private final AtomicInteger paused = new AtomicInteger();

    public JudgeMetrics(MeterRegistry registry) {
        this.registry = registry;
        retries = Counter.builder("mmgr.judge.retries").description("calls retried (429, 5xx, timeouts, transport)").register(registry);
        rateLimited = Counter.builder("mmgr.judge.rate_limited").description("HTTP 429 answers").register(registry);
        cacheHits = Counter.builder("mmgr.judge.cache").tag("result", "hit").register(registry);
        cacheMisses = Counter.builder("mmgr.judge.cache").tag("result", "miss").register(registry);
        cacheInFlight = Counter.builder("mmgr.judge.cache").tag("result", "in-flight").register(registry);
        repairs = Counter.builder("mmgr.judge.repairs").description("unparsable answers sent back once for repair").register(registry);
        enlarged = Counter.builder("mmgr.judge.enlarged")
                .description("answers cut at the output cap before any text, asked again with more room").register(registry);
        latency = Timer.builder("mmgr.judge.latency").description("one provider call, retries excluded")
                .publishPercentiles(0.5, 0.95, 0.99).register(registry);
        Gauge.builder("mmgr.judge.backlog", backlog, AtomicInteger::get)
                .description("requests taken from the topic and not yet verdicted").register(registry);
        Gauge.builder("mmgr.judge.paused_partitions", paused, AtomicInteger::get)
                .description("request partitions paused (circuit open or backlog full)").register(registry);
    }

    public static JudgeMetrics standalone() {
        return new JudgeMetrics(new SimpleMeterRegistry());
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** A finished request by verdict status (VALID, INVALID, FAILED) or PENDING announcements. */
    public void verdict(String status, boolean cached) {
        Counter.builder("mmgr.judge.requests").tag("status", status).tag("cached", Boolean.toString(cached))
                .register(registry).increment();
    }

    /** One HTTP exchange by outcome class: 200, 429, 5xx, timeout, transport, ... */
    public void call(String outcome, Duration took) {
        Counter.builder("mmgr.judge.calls").tag("outcome", outcome).register(registry).increment();
        latency.record(took);
        if ("429".equals(outcome)) {
            rateLimited.increment();
        }
    }

    public void retry() {
        retries.increment();
    }

    public void repair() {
        repairs.increment();
    }

    public void enlarged() {
        enlarged.increment();
    }

    /** This worker's share of the request quota (requests per quota window). */
    public void quotaShare(Supplier<Number> share) {
        Gauge.builder("mmgr.judge.quota_share", share).description("requests per quota window this worker may send")
                .register(registry);
    }

    /** How the cache answered a request that reached the provider's side of the engine. */
    public enum CacheResult {
        /** a cached verdict: no call */
        HIT,
        /** nothing cached or under way: this request makes the call */
        MISS,
        /** the same prompt is being judged for another request: this one shares that call's answer */
        IN_FLIGHT
    }

    public void cache(CacheResult result) {
        (switch (result) {
            case HIT -> cacheHits;
            case MISS -> cacheMisses;
            case IN_FLIGHT -> cacheInFlight;
        }).increment();
    }

    public void tokens(String run, String checkpoint, long in, long out, double costUsd) {
        Counter.builder("mmgr.judge.tokens").tag("direction", "input").tag("run", run).tag("checkpoint", checkpoint)
                .register(registry).increment(in);
        Counter.builder("mmgr.judge.tokens").tag("direction", "output").tag("run", run).tag("checkpoint", checkpoint)
                .register(registry).increment(out);
        Counter.builder("mmgr.judge.cost_usd").tag("run", run).tag("checkpoint", checkpoint)
                .register(registry).increment(costUsd);
    }

    /** Circuit state as a number: 0 closed, 1 open, 2 half-open, 3 other. */
    public void circuitState(Supplier<Number> state) {
        Gauge.builder("mmgr.judge.circuit_state", state).description("0 closed, 1 open, 2 half-open").register(registry);
    }

    public AtomicInteger backlog() {
        return backlog;
    }

    public AtomicInteger pausedPartitions() {
        return paused;
    }

    public double count(String name, String... tags) {
        var search = registry.find(name);
        if (tags.length > 0) {
            search = search.tags(tags);
        }
        return search.counters().stream().mapToDouble(Counter::count).sum();
    }
}
