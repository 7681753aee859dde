package io.mmgr.stream.app;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Kafka Streams' metrics on a Micrometer registry, named as Micrometer's {@code KafkaStreamsMetrics}
 * names them ({@code kafka.stream.processor.node.record.e2e.latency.max}, …), but without the state
 * stores' own gauges (group {@code stream-state-metrics}). Those read native RocksDB objects (the
 * transactional buffer's write batch, RocksDB properties) that a store being closed — at a rebalance,
 * at shutdown — frees while the metric is still registered: reading Kafka 4.4's {@code uncommitted-bytes}
 * gauge then crashed a scorer's JVM (SIGSEGV in {@code WriteBatch.getDataSize}, from Micrometer's binder
 * thread, which reads every metric's value on each refresh). So those values are never read here.
 *
 * <p>Metrics that appear later (tasks assigned at a rebalance) are picked up every {@code refresh},
 * and the meters of metrics that are gone are removed then.
 */
final class StreamsMeters implements MeterBinder, AutoCloseable {

    /** The metric groups whose values come from native store objects. */
    static final Set<String> LEFT_OUT = Set.of("stream-state-metrics");

    private final Supplier<Map<MetricName, ? extends Metric>> metrics;
    private final Duration refresh;
    private final Map<MetricName, Meter> bound = new HashMap<>();
    private ScheduledExecutorService scheduler;
    private MeterRegistry registry;

    StreamsMeters(Supplier<Map<MetricName, ? extends Metric>> metrics, Duration refresh) {
        this.metrics = metrics;
        this.refresh = refresh;
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        this.registry = registry;
        refresh();
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mmgr-streams-meters");
                t.setDaemon(true);
                return t;
            });
            long ms = refresh.toMillis();
            scheduler.scheduleAtFixedRate(this::refresh, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    /** Binds the metrics that appeared and removes the meters of those that are gone. */
    synchronized void refresh() {
        if (registry == null) {
            return;
        }
        Map<MetricName, ? extends Metric> now = metrics.get();
        for (var e : now.entrySet()) {
            MetricName name = e.getKey();
            // a metric that is not a number (app-info's strings) is left out, as Micrometer's binder does
            if (!LEFT_OUT.contains(name.group()) && !bound.containsKey(name) && e.getValue().metricValue() instanceof Number) {
                bound.put(name, register(name, e.getValue()));
            }
        }
        bound.entrySet().removeIf(e -> {
            boolean gone = !now.containsKey(e.getKey());
            if (gone) {
                registry.remove(e.getValue());
            }
            return gone;
        });
    }

    private Meter register(MetricName name, Metric metric) {
        List<Tag> tags = new ArrayList<>();
        name.tags().forEach((k, v) -> tags.add(Tag.of(k, v)));
        String meter = meterName(name);
        // cumulative totals are counters, everything else (rates, averages, maxima, gauges) a gauge
        if (name.name().endsWith("-total")) {
            return FunctionCounter.builder(meter, metric, StreamsMeters::value).tags(tags)
                    .description(name.description()).register(registry);
        }
        return Gauge.builder(meter, metric, StreamsMeters::value).tags(tags).description(name.description()).register(registry);
    }

    /** The metric's value; NaN when it stopped being a number. */
    private static double value(Metric m) {
        return m.metricValue() instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** Micrometer's naming: {@code kafka.<group without -metrics>.<name>}, dashes as dots. */
    static String meterName(MetricName name) {
        return ("kafka." + name.group() + "." + name.name()).replace("-metrics", "").replace('-', '.');
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (registry != null) {
            bound.values().forEach(registry::remove);
        }
        bound.clear();
    }
}
