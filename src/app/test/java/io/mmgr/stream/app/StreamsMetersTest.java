package io.mmgr.stream.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Kafka's own metrics registry, as Kafka Streams fills it, bound to a Micrometer registry. */
@Tag("unit")
class StreamsMetersTest {

    final Metrics kafka = new Metrics();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final AtomicInteger nativeReads = new AtomicInteger();
    final StreamsMeters meters = new StreamsMeters(kafka::metrics, Duration.ofHours(1));

    @AfterEach
    void close() {
        meters.close();
        kafka.close();
    }

    MetricName node(String name) {
        return kafka.metricName(name, "stream-processor-node-metrics", "", Map.of("thread-id", "t1", "task-id", "0_1",
                "processor-node-id", "assembly-join"));
    }

    @Test
    void streamsMetricsAreBoundWithMicrometersNamesAndTheStoresNativeGaugesAreNeverRead() {
        kafka.addMetric(node("record-e2e-latency-max"), (org.apache.kafka.common.metrics.Gauge<Double>) (c, now) -> 42.0);
        Sensor processed = kafka.sensor("processed");
        MetricName total = node("process-total");
        processed.add(total, new CumulativeSum());
        processed.record(3);
        // a transactional store's buffer size, which reads a RocksDB write batch
        kafka.addMetric(kafka.metricName("uncommitted-bytes", "stream-state-metrics", "", Map.of("rocksdb-state-id", "s")),
                (org.apache.kafka.common.metrics.Gauge<Long>) (c, now) -> (long) nativeReads.incrementAndGet());
        kafka.addMetric(kafka.metricName("version", "app-info", "", Map.of()),
                (org.apache.kafka.common.metrics.Gauge<String>) (c, now) -> "4.4.0");

        meters.bindTo(registry);
        registry.getMeters().forEach(Meter::measure); // as a scrape reads them

        Gauge e2e = registry.find("kafka.stream.processor.node.record.e2e.latency.max").tag("processor-node-id", "assembly-join")
                .tag("task-id", "0_1").gauge();
        assertThat(e2e).isNotNull();
        assertThat(e2e.value()).isEqualTo(42.0);
        FunctionCounter counter = registry.find("kafka.stream.processor.node.process.total").functionCounter();
        assertThat(counter).isNotNull();
        assertThat(counter.count()).isEqualTo(3.0);
        processed.record(2);
        assertThat(counter.count()).isEqualTo(5.0);
        assertThat(registry.find("kafka.stream.state.uncommitted.bytes").meter()).isNull();
        assertThat(registry.find("kafka.app.info.version").meter()).as("not a number").isNull();
        assertThat(nativeReads).as("the store gauge's value was never asked for").hasValue(0);
    }

    @Test
    void aRefreshBindsMetricsThatAppearedAndRemovesThoseThatAreGone() {
        kafka.addMetric(node("record-e2e-latency-max"), (org.apache.kafka.common.metrics.Gauge<Double>) (c, now) -> 1.0);
        meters.bindTo(registry);
        assertThat(registry.find("kafka.stream.processor.node.record.e2e.latency.max").gauges()).hasSize(1);

        // a rebalance: task 0_1 moves away, task 0_2 arrives
        kafka.removeMetric(node("record-e2e-latency-max"));
        kafka.addMetric(kafka.metricName("record-e2e-latency-max", "stream-processor-node-metrics", "",
                Map.of("thread-id", "t1", "task-id", "0_2", "processor-node-id", "assembly-join")),
                (org.apache.kafka.common.metrics.Gauge<Double>) (c, now) -> 2.0);
        meters.refresh();
        assertThat(registry.find("kafka.stream.processor.node.record.e2e.latency.max").gauges())
                .singleElement().satisfies(g -> {
                    assertThat(g.getId().getTag("task-id")).isEqualTo("0_2");
                    assertThat(g.value()).isEqualTo(2.0);
                });

        meters.close();
        assertThat(registry.find("kafka.stream.processor.node.record.e2e.latency.max").meter()).as("closed: unbound").isNull();
    }
}
