package io.mmgr.stream.judge;

import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.contract.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the compacted cache topic from where this worker's store left off (its beginning the first
 * time): every final verdict any worker produced goes into the {@link VerdictCache}, and what it cost
 * into the {@link CostLedger}, so the per-run budget holds across instances and restarts. Each poll's
 * entries, next positions and spend totals are written in one batch, so a restart reads only the tail.
 *
 * <p>The worker does not wait for this: until the follower has reached the end offsets it saw at start,
 * the cache says it is not complete, and a miss waits ("judge cache still loading") instead of calling
 * the judge, so a replay bills nothing it had billed before.
 */
final class CacheFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CacheFollower.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Topic<String, JudgeVerdict> topic;
    private final VerdictCache cache;
    private final CostLedger ledger;
    private final String self;
    private final Thread thread;
    private final List<Runnable> onComplete = new CopyOnWriteArrayList<>();
    private final AtomicLong read = new AtomicLong();
    private volatile boolean running = true;

    CacheFollower(JudgeWorker.Config config, Topic<String, JudgeVerdict> topic, VerdictCache cache, CostLedger ledger,
                  String self) {
        Map<String, Object> c = new HashMap<>(config.clientConfig());
        c.put("bootstrap.servers", config.bootstrapServers());
        c.put("enable.auto.commit", "false");
        c.put("isolation.level", "read_committed");
        // a stored position the topic no longer has (retention, a recreated topic): read from the start
        c.put("auto.offset.reset", "earliest");
        c.remove("group.id");
        this.consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.topic = topic;
        this.cache = cache;
        this.ledger = ledger;
        this.self = self;
        this.thread = new Thread(this::run, "judge-cache-follower");
        this.thread.setDaemon(true);
    }

    void start() {
        cache.loading();
        ledger.restore(cache.spend());
        thread.start();
    }

    /** Runs {@code listener} once the cache is complete (at once if it is). */
    void onComplete(Runnable listener) {
        onComplete.add(listener);
        if (cache.complete()) {
            listener.run();
        }
    }

    /** Records read from the topic since start (the tail, after a restart). */
    long recordsRead() {
        return read.get();
    }

    private void run() {
        try {
            var infos = consumer.partitionsFor(topic.name(), Duration.ofSeconds(30));
            List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(topic.name(), i.partition())).toList();
            consumer.assign(parts);
            Map<Integer, Long> stored = cache.positions();
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long pending = 0;
            for (TopicPartition tp : parts) {
                Long at = stored.get(tp.partition());
                if (at == null || at < begin.get(tp) || at > end.get(tp)) {
                    consumer.seek(tp, begin.get(tp));
                    pending += end.get(tp) - begin.get(tp);
                } else {
                    consumer.seek(tp, at);
                    pending += end.get(tp) - at;
                }
            }
            LOG.info("judge cache {}: {} verdicts on disk, about {} more to read from {}", cache.directory(), cache.size(),
                    pending, topic.name());
            Map<TopicPartition, Long> last = new HashMap<>();
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                Map<String, JudgeVerdict> entries = new HashMap<>();
                Map<String, CostLedger.Totals> spend = new HashMap<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    read.incrementAndGet();
                    apply(r, entries, spend);
                }
                Map<Integer, Long> positions = new HashMap<>();
                for (TopicPartition tp : parts) {
                    long p = consumer.position(tp);
                    if (!Long.valueOf(p).equals(last.get(tp))) {
                        positions.put(tp.partition(), p);
                        last.put(tp, p);
                    }
                }
                if (!entries.isEmpty() || !positions.isEmpty()) {
                    cache.apply(entries, positions, spend);
                }
                if (!cache.complete() && reached(end)) {
                    cache.loaded();
                    LOG.info("judge cache complete: {} verdicts ({} read from {})", cache.size(), read.get(), topic.name());
                    onComplete.forEach(Runnable::run);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("the judge cache follower stopped; this worker no longer sees other workers' verdicts", e);
            if (!cache.complete()) {
                // judge without the rest of the cache rather than hold every miss until the deadline
                cache.loaded();
                onComplete.forEach(Runnable::run);
            }
        } finally {
            consumer.close();
        }
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        for (var e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void apply(ConsumerRecord<byte[], byte[]> r, Map<String, JudgeVerdict> entries, Map<String, CostLedger.Totals> spend) {
        if (r.key() == null || r.value() == null) {
            return;
        }
        JudgeVerdict v;
        try {
            v = topic.valueSerde().deserializer().deserialize(r.topic(), r.value());
        } catch (RuntimeException e) {
            LOG.warn("skipping an unreadable judge cache entry at offset {}: {}", r.offset(), e.toString());
            return;
        }
        entries.put(new String(r.key(), StandardCharsets.UTF_8), v);
        String run = header(r, JudgeWorker.HEADER_RUN);
        String checkpoint = header(r, JudgeWorker.HEADER_CHECKPOINT);
        if (run != null && checkpoint != null) {
            spend.putAll(ledger.observed(run, checkpoint, v.getAttempts(), v.getInputTokens(), v.getOutputTokens(),
                    v.getCostUsd(), self.equals(header(r, JudgeWorker.HEADER_WORKER))));
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
