package io.mmgr.stream.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scorer meters read from the pipeline's own topics, so no processor carries metric code: samples
 * scored per task and status, scoring latency (event produced to score, from the score itself), dead
 * letters per stage, and end-to-end lag per stage (a stage's output becoming visible, committed, minus
 * the generation's timestamp, which Kafka Streams carries to every output record; comparisons are
 * stamped when computed, so they have no such lag), and checkpoint alerts raised and cleared per kind (what
 * the example alerting rules watch for a regression). A consumer group
 * shared by the instances, so each record is counted once across them.
 */
public final class PipelineMetrics implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineMetrics.class);

    private final MeterRegistry registry;
    private final Topics topics;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, String> stageOfTopic = new HashMap<>();
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int assigned;

    /** Its consumer group, beside the scorer's. */
    static String group(String applicationId) {
        return applicationId + "-metrics";
    }

    public PipelineMetrics(MeterRegistry registry, Map<String, Object> clientConfig, String applicationId, Topics topics) {
        this.registry = registry;
        this.topics = topics;
        for (io.mmgr.stream.contract.CostClass c : io.mmgr.stream.contract.CostClass.values()) {
            stageOfTopic.put(topics.evaluationRequests(c).name(), "intake");
        }
        stageOfTopic.put(topics.cvResults.name(), "evaluation");
        stageOfTopic.put(topics.sampleScores.name(), "assembly");
        stageOfTopic.put(topics.leaderboard.name(), "leaderboard");
        Map<String, Object> conf = new HashMap<>(clientConfig);
        conf.put("group.id", group(applicationId));
        conf.put("isolation.level", "read_committed");
        // a new group counts what the topics hold once; afterwards it continues from its committed offsets
        conf.put("auto.offset.reset", "earliest");
        conf.put("enable.auto.commit", "true");
        this.consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topics.evaluationRequests.name(), topics.imageEvaluationRequests.name(),
                topics.videoEvaluationRequests.name(), topics.cvResults.name(), topics.sampleScores.name(),
                topics.leaderboard.name(), topics.deadLetter.name(), topics.alerts.name()));
        io.micrometer.core.instrument.Gauge.builder("mmgr.pipeline.metrics.partitions", this, m -> m.assigned)
                .description("Partitions of the pipeline's topics this instance's meters follow (the group shares them)")
                .register(registry);
        this.thread = new Thread(this::run, "mmgr-pipeline-metrics");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                var records = consumer.poll(Duration.ofMillis(500));
                assigned = consumer.assignment().size();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    try {
                        record(r, System.currentTimeMillis());
                    } catch (RuntimeException e) {
                        LOG.debug("metrics skipped a record of {}: {}", r.topic(), e.toString());
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    private void record(ConsumerRecord<byte[], byte[]> r, long now) {
        if (r.value() == null) {
            return;
        }
        if (r.topic().equals(topics.deadLetter.name())) {
            DeadLetter d = topics.deadLetter.valueSerde().deserializer().deserialize(r.topic(), r.value());
            counter("mmgr.dead.letters", "stage", d.getStage(), "Records sent to the dead-letter topic").increment();
            return;
        }
        if (r.topic().equals(topics.alerts.name())) {
            Alert a = topics.alerts.valueSerde().deserializer().deserialize(r.topic(), r.value());
            // a raise is the first revision; updates of the same alert are not counted again, a withdrawal is
            String event = a.getCleared() ? "cleared" : a.getRevision() == 1 ? "raised" : null;
            if (event != null) {
                counters.computeIfAbsent("alerts|" + a.getKind() + "|" + event, k -> Counter.builder("mmgr.alerts")
                        .description("Checkpoint alerts raised and withdrawn, per kind (DROP_VS_PREVIOUS, DROP_VS_BEST, ...)")
                        .tag("kind", a.getKind()).tag("event", event).register(registry)).increment();
            }
            return;
        }
        String stage = stageOfTopic.get(r.topic());
        timer("mmgr.stage.lag", "stage", stage, "Generation produced to this stage's output visible (committed)")
                .record(Math.max(0, now - r.timestamp()), java.util.concurrent.TimeUnit.MILLISECONDS);
        if (r.topic().equals(topics.sampleScores.name())) {
            SampleScore s = topics.sampleScores.valueSerde().deserializer().deserialize(r.topic(), r.value());
            counters.computeIfAbsent("scored|" + s.getTask() + "|" + s.getStatus(), k -> Counter.builder("mmgr.samples.scored")
                    .description("Sample scores published, per task and status").tag("task", s.getTask())
                    .tag("status", s.getStatus()).register(registry)).increment();
            timer("mmgr.scoring.latency", "task", s.getTask(), "Generation produced to its sample score (producedAt to scoredAt)")
                    .record(Duration.ofMillis(Math.max(0, s.getScoredAt().toEpochMilli() - s.getProducedAt().toEpochMilli())));
        }
    }

    private Counter counter(String name, String tag, String value, String description) {
        return counters.computeIfAbsent(name + "|" + value,
                k -> Counter.builder(name).description(description).tag(tag, value).register(registry));
    }

    private Timer timer(String name, String tag, String value, String description) {
        return timers.computeIfAbsent(name + "|" + value, k -> Timer.builder(name).description(description).tag(tag, value)
                .publishPercentiles(0.5, 0.95, 0.99).register(registry));
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
