package io.mmgr.stream.judge;

import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.contract.JudgeCostKeys;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.worker.WorkLoop;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes this judge's {@link CostProjection} to the compacted judge-projections topic, where every scorer reads it
 * (docs/judge.md, "Cost up front"): one record per checkpoint and worker start, keyed
 * {@code run NUL checkpoint NUL worker}, written only when its figures changed and at most once an interval, so a
 * checkpoint of thousands of requests costs a record a second, not one a request. On its own thread: the judge's
 * calls never wait for it. A write that fails is tried again at the next tick (the projection is an estimate; nothing
 * else depends on it).
 */
public final class ProjectionPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProjectionPublisher.class);
    /** How often changed figures are written. */
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private final Topic<String, JudgeProjection> topic;
    private final Changes changes;
    private final String worker;
    private final Clock clock;
    private final KafkaProducer<String, byte[]> producer;
    private final ScheduledExecutorService timer;
    private volatile boolean warned;

    /**
     * @param kafka  the worker's client settings, {@code bootstrap.servers} included
     * @param worker the worker start the figures are this judge's of (its cache entries carry the same id)
     */
    public ProjectionPublisher(Topic<String, JudgeProjection> topic, Map<String, Object> kafka, CostProjection projection,
                               String worker, Clock clock) {
        this.topic = topic;
        this.changes = new Changes(projection, worker);
        this.worker = worker;
        this.clock = clock;
        Map<String, Object> p = new HashMap<>(kafka);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        // a topic not created yet (the scorer creates it) must not hold the timer thread for a minute
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "judge-projections-" + worker);
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "judge-projections");
            t.setDaemon(true);
            return t;
        });
    }

    public void start() {
        timer.scheduleWithFixedDelay(this::publishSafely, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void publishSafely() {
        try {
            publish();
        } catch (RuntimeException e) {
            warn(e);
        }
    }

    /** Writes the checkpoints whose figures changed since their last write; returns how many. */
    int publish() {
        Map<String, CostProjection.Figures> due = changes.due();
        due.forEach((key, f) -> {
            byte[] bytes = topic.valueSerde().serializer().serialize(topic.name(), record(f, worker, clock));
            producer.send(new ProducerRecord<>(topic.name(), key, bytes), (md, error) -> {
                if (error instanceof KafkaException k && WorkLoop.isRecordError(k)) {
                    // the record itself is refused (too large for the topic, say): the same figures would be refused
                    // every second, so they are written again only once they change
                    LOG.warn("{} refused the cost projection {} ({} bytes): {}", topic.name(), key, bytes.length, error.toString());
                } else if (error != null) {
                    changes.failed(key, f); // written again at the next tick
                    warn(error);
                }
            });
        });
        return due.size();
    }

    /** Which checkpoints' figures changed since they were last written. */
    static final class Changes {
        private final CostProjection projection;
        private final String worker;
        /** what was last written (or is being written) per key */
        private final Map<String, CostProjection.Figures> sent = new ConcurrentHashMap<>();

        Changes(CostProjection projection, String worker) {
            this.projection = projection;
            this.worker = worker;
        }

        /** The checkpoints whose figures differ from those last written, by key; marked as written. */
        Map<String, CostProjection.Figures> due() {
            Map<String, CostProjection.Figures> out = new java.util.TreeMap<>();
            for (CostProjection.Figures f : projection.figures()) {
                String key = JudgeCostKeys.projection(f.run(), f.checkpoint(), worker);
                if (!f.equals(sent.put(key, f))) {
                    out.put(key, f);
                }
            }
            return out;
        }

        /** A write that failed: due again (unless newer figures are already on their way). */
        void failed(String key, CostProjection.Figures f) {
            sent.remove(key, f);
        }
    }

    static JudgeProjection record(CostProjection.Figures f, String worker, Clock clock) {
        return JudgeProjection.newBuilder().setRunId(f.run()).setCheckpointId(f.checkpoint()).setWorker(worker)
                .setPlannedRequests(f.requests()).setJudges(f.judges()).setSamples(f.samples()).setLaneFactor(f.laneFactor())
                .setPerCallUsd(f.perCallUsd()).setProjectedUsd(f.projectedUsd()).setUpdatedAt(clock.instant()).build();
    }

    private void warn(Throwable e) {
        if (!warned) {
            warned = true;
            LOG.warn("cannot publish the judge's cost projection to {} yet ({}); trying again every {} s", topic.name(), e.toString(),
                    INTERVAL.toSeconds());
        }
    }

    /** Writes what changed since the last tick, then stops. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(2, TimeUnit.SECONDS);
            publish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            warn(e);
        }
        producer.close(Duration.ofSeconds(5));
    }
}
