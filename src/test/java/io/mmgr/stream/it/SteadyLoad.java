package io.mmgr.stream.it;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.bench.MagmaWorkload;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes Magma generation events at a steady rate from its own thread, each a distinct sample,
 * until stopped. An event whose send fails (the broker was down too long) is sent again with the
 * same bytes, so the scorer sees at most duplicates of identical events, never a changed one.
 */
final class SteadyLoad implements AutoCloseable {

    private final Topics topics;
    private final String runId;
    private final MagmaWorkload workload;
    private final double rate;
    private final KafkaProducer<byte[], byte[]> producer;
    private final List<SampleKey> keys = new ArrayList<>();
    private final ConcurrentLinkedQueue<ProducerRecord<byte[], byte[]>> retry = new ConcurrentLinkedQueue<>();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicInteger resent = new AtomicInteger();
    private volatile boolean running;
    private Thread thread;

    SteadyLoad(Map<String, Object> clientConfig, Topics topics, String runId, int items, double rate) {
        this.topics = topics;
        this.runId = runId;
        this.workload = new MagmaWorkload(items, 3, 11);
        this.rate = rate;
        Map<String, Object> conf = new HashMap<>(clientConfig);
        conf.put("acks", "all");
        conf.put("enable.idempotence", "true");
        conf.put("linger.ms", "5");
        conf.put("delivery.timeout.ms", "120000");
        conf.put("request.timeout.ms", "10000");
        conf.put("max.block.ms", "120000");
        this.producer = new KafkaProducer<>(conf, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Publishes the benchmark items the events refer to. */
    SteadyLoad publishItems() throws Exception {
        var serializer = topics.benchmark.valueSerde().serializer();
        for (BenchmarkItem item : workload.items()) {
            producer.send(new ProducerRecord<>(topics.benchmark.name(),
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
            long due = start + (long) (n * 1e9 / rate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
            ProducerRecord<byte[], byte[]> again;
            while ((again = retry.poll()) != null) {
                resent.incrementAndGet();
                send(again);
            }
            GenerationEvent e = workload.event(runId, n, 0.7);
            synchronized (keys) {
                keys.add(SampleKeys.of(e));
            }
            send(new ProducerRecord<>(topics.generations.name(), SampleKeys.ref(SampleKeys.of(e)).getBytes(StandardCharsets.UTF_8),
                    serializer.serialize(topics.generations.name(), e)));
            n++;
        }
    }

    private void send(ProducerRecord<byte[], byte[]> record) {
        producer.send(record, (meta, ex) -> {
            if (ex == null) {
                acked.incrementAndGet();
            } else {
                retry.add(record);
            }
        });
    }

    /** Stops publishing and waits until every event was acknowledged. */
    void stop(Duration timeout) throws InterruptedException {
        running = false;
        thread.join();
        long deadline = System.nanoTime() + timeout.toNanos();
        producer.flush();
        ProducerRecord<byte[], byte[]> again;
        while (acked.get() < sent()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + acked.get() + " of " + sent() + " events acknowledged");
            }
            while ((again = retry.poll()) != null) {
                resent.incrementAndGet();
                send(again);
            }
            producer.flush();
            Thread.sleep(100);
        }
    }

    /** How far the load got: events sent, acknowledged and waiting to be sent again. */
    String describe() {
        return "load: " + sent() + " events sent, " + acked.get() + " acknowledged, " + retry.size() + " to send again"
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
        return resent.get();
    }

    int items() {
        return workload.items().size();
    }

    @Override
    public void close() {
        running = false;
        producer.close(Duration.ofSeconds(5));
    }
}
