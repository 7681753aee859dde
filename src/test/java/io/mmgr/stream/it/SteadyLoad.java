package io.mmgr.stream.it;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.bench.MagmaWorkload;
import io.mmgr.stream.bench.Pace;
import io.mmgr.stream.bench.ResendingProducer;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes Magma generation events at a steady rate from its own thread, each a distinct sample,
 * until stopped. An event whose send fails (the broker was down too long) is sent again with the
 * same bytes ({@link ResendingProducer}), so the scorer sees at most duplicates of identical events.
 */
final class SteadyLoad implements AutoCloseable {

    private final Topics topics;
    private final String runId;
    private final MagmaWorkload workload;
    private final double rate;
    private final ResendingProducer producer;
    private final List<SampleKey> keys = new ArrayList<>();
    private volatile boolean running;
    private Thread thread;

    SteadyLoad(Map<String, Object> clientConfig, Topics topics, String runId, int items, double rate) {
        this.topics = topics;
        this.runId = runId;
        this.workload = new MagmaWorkload(items, 3, 11);
        this.rate = rate;
        this.producer = new ResendingProducer(clientConfig);
    }

    /** Publishes the benchmark items the events refer to. */
    SteadyLoad publishItems() throws Exception {
        var serializer = topics.benchmark.valueSerde().serializer();
        for (BenchmarkItem item : workload.items()) {
            producer.producer().send(new ProducerRecord<>(topics.benchmark.name(),
                    SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8),
                    serializer.serialize(topics.benchmark.name(), item))).get();
        }
        return this;
    }

    SteadyLoad start() {
        running = true;
        thread = new Thread(this::loop, "steady-load");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void loop() {
        var serializer = topics.generations.valueSerde().serializer();
        long start = System.nanoTime();
        long n = 0;
        while (running) {
            if (!Pace.await(start, n, rate)) {
                return;
            }
            producer.resend();
            GenerationEvent e = workload.event(runId, n, 0.7);
            synchronized (keys) {
                keys.add(SampleKeys.of(e));
            }
            producer.send(new ProducerRecord<>(topics.generations.name(), SampleKeys.ref(SampleKeys.of(e)).getBytes(StandardCharsets.UTF_8),
                    serializer.serialize(topics.generations.name(), e)));
            n++;
        }
    }

    /** Stops publishing and waits until every event was acknowledged. */
    void stop(Duration timeout) throws InterruptedException {
        running = false;
        thread.join();
        producer.awaitAcknowledged(sent(), timeout);
    }

    /** How far the load got: events sent, acknowledged and waiting to be sent again. */
    String describe() {
        return "load: " + sent() + " events sent, " + producer.acked() + " acknowledged, " + producer.waiting() + " to send again"
                + (thread.isAlive() ? "" : " (its thread has ended)");
    }

    /** Events published (each a distinct sample). */
    int sent() {
        synchronized (keys) {
            return keys.size();
        }
    }

    List<SampleKey> keys() {
        synchronized (keys) {
            return List.copyOf(keys);
        }
    }

    int resent() {
        return (int) producer.resent();
    }

    int items() {
        return workload.items().size();
    }

    @Override
    public void close() {
        running = false;
        producer.close();
    }
}
