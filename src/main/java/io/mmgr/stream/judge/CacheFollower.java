package io.mmgr.stream.judge;

import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.topology.Topic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the compacted cache topic from its beginning: every final verdict any worker produced goes
 * into the local {@link VerdictCache}, and what other workers (or this one before a restart) spent
 * goes into the {@link CostLedger}, so the per-run budget holds across instances and restarts.
 */
final class CacheFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CacheFollower.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Topic<String, JudgeVerdict> topic;
    private final VerdictCache cache;
    private final CostLedger ledger;
    private final String self;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;

    CacheFollower(JudgeWorker.Config config, Topic<String, JudgeVerdict> topic, VerdictCache cache, CostLedger ledger,
                  String self) {
        Map<String, Object> c = new HashMap<>(config.clientConfig());
        c.put("bootstrap.servers", config.bootstrapServers());
        c.put("enable.auto.commit", "false");
        c.put("isolation.level", "read_committed");
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
        thread.start();
    }

    void awaitCaughtUp(Duration timeout) {
        try {
            if (!caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the judge cache topic " + topic.name() + " could not be read within " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the judge cache", e);
        }
    }

    private void run() {
        try {
            var infos = consumer.partitionsFor(topic.name(), Duration.ofSeconds(30));
            List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(topic.name(), i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    apply(r);
                }
                if (caughtUp.getCount() > 0 && reached(end)) {
                    caughtUp.countDown();
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("the judge cache follower stopped; this worker no longer sees other workers' verdicts", e);
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

    private void apply(ConsumerRecord<byte[], byte[]> r) {
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
        cache.put(new String(r.key(), StandardCharsets.UTF_8), v);
        String worker = header(r, JudgeWorker.HEADER_WORKER);
        if (!self.equals(worker)) {
            String run = header(r, JudgeWorker.HEADER_RUN);
            String checkpoint = header(r, JudgeWorker.HEADER_CHECKPOINT);
            if (run != null && checkpoint != null) {
                ledger.seed(run, checkpoint, v.getAttempts(), v.getInputTokens(), v.getOutputTokens(), v.getCostUsd());
            }
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
