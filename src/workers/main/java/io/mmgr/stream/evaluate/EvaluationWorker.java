package io.mmgr.stream.evaluate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.Evaluations;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.worker.MemberIdentity;
import io.mmgr.stream.worker.WorkLoop;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deterministic image and video evaluation, off the stream threads: a consumer of the three evaluation
 * queues (light, image, video; intake runs light evaluations itself, so the light queue only holds what an
 * earlier version wrote) in its own group, whose records run on one bounded pool per cost class, and whose
 * results (and dead letters) are written with the consumer's offsets in one transaction
 * ({@link WorkLoop}).
 *
 * <p>Why not a Kafka Streams sub-topology: a stream thread serves every sub-topology's tasks it owns, so
 * one busy with a video holds up the light tasks it also owns, and a poll's worth of videos can outlast
 * {@code max.poll.interval.ms} (the member is evicted, its transaction aborted, the work replayed).
 * Here the loop thread only polls and commits; work of one class queues only behind work of that
 * class (its own topic, paused on its own when its pool is full); every evaluation has a deadline.
 *
 * <p>An evaluation whose artifact's store cannot be reached ({@link io.mmgr.stream.tasks.ArtifactUnavailableException})
 * neither fails nor blocks a runner: its record is held open with a PENDING result saying why, and it is tried
 * again after a pause that grows from 1 s to 30 s, until the store answers.
 */
public final class EvaluationWorker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EvaluationWorker.class);
    /** A request that cannot be read while the registry is down waits this long, then is tried again. */
    static final Duration REGISTRY_RETRY = Duration.ofSeconds(5);
    /** A request whose artifact's store cannot be reached is tried again after this, doubling up to {@link #ARTIFACT_RETRY_MAX}. */
    static final Duration ARTIFACT_RETRY_FIRST = Duration.ofSeconds(1);
    static final Duration ARTIFACT_RETRY_MAX = Duration.ofSeconds(30);

    private final Topics topics;
    private final ArtifactResolver artifacts;
    private final EvaluationSettings settings;
    private final Map<CostClass, EvaluationPool> pools = new EnumMap<>(CostClass.class);
    private final Map<String, CostClass> classOfTopic = new HashMap<>();
    private final Map<CostClass, Timer> durations = new EnumMap<>(CostClass.class);
    private final Map<CostClass, Counter> deadlineFailures = new EnumMap<>(CostClass.class);
    private final Map<CostClass, Counter> artifactWaits = new EnumMap<>(CostClass.class);
    private final ScheduledExecutorService watchdog;
    private final WorkLoop loop;

    private EvaluationWorker(Topics topics, EvaluatorRegistry registry, ArtifactResolver artifacts,
                             EvaluationSettings settings, WorkLoop.Config loopConfig, MeterRegistry meters) {
        this.topics = topics;
        this.artifacts = artifacts;
        this.settings = settings;
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "evaluate-deadlines");
            t.setDaemon(true);
            return t;
        });
        for (CostClass c : CostClass.values()) {
            int threads = settings.threads().get(c);
            pools.put(c, new EvaluationPool(c, threads, settings.deadlines().get(c), threads, niceness(c), registry, watchdog));
            classOfTopic.put(topics.evaluationRequests(c).name(), c);
            durations.put(c, Timer.builder("mmgr.evaluation.duration").tag("class", c.label())
                    .description("one evaluation, from its start on a runner to its result")
                    .publishPercentiles(0.5, 0.95, 0.99).register(meters));
            deadlineFailures.put(c, Counter.builder("mmgr.evaluation.deadline_exceeded").tag("class", c.label())
                    .description("evaluations FAILED for running past their deadline").register(meters));
            artifactWaits.put(c, Counter.builder("mmgr.evaluation.artifact_waits").tag("class", c.label())
                    .description("evaluations put off because an artifact's store could not be reached (tried again later)")
                    .register(meters));
            EvaluationPool pool = pools.get(c);
            Gauge.builder("mmgr.evaluation.backlog", pool, EvaluationPool::backlog).tag("class", c.label())
                    .description("requests taken in and not finished").register(meters);
            Gauge.builder("mmgr.evaluation.stuck_threads", pool, EvaluationPool::stuckThreads).tag("class", c.label())
                    .description("threads abandoned at a deadline and still inside an evaluation").register(meters);
        }
        this.loop = WorkLoop.start(loopConfig, new Handler());
        Gauge.builder("mmgr.evaluation.paused_partitions", loop, WorkLoop::pausedPartitions)
                .description("evaluation queue partitions paused because their class's pool is full").register(meters);
    }

    /**
     * Starts the worker.
     *
     * @param groupId      its consumer group, e.g. {@code <application id>-evaluate}
     * @param clientConfig client properties (security, tuning) for its consumer and producer
     */
    public static EvaluationWorker start(Topics topics, EvaluatorRegistry registry, ArtifactResolver artifacts,
                                         EvaluationSettings settings, String bootstrapServers, String groupId,
                                         MemberIdentity identity, Map<String, Object> clientConfig, MeterRegistry meters) {
        List<String> queues = new ArrayList<>();
        for (CostClass c : CostClass.values()) {
            queues.add(topics.evaluationRequests(c).name());
        }
        WorkLoop.Config config = new WorkLoop.Config("evaluation-worker", bootstrapServers, groupId, queues, identity,
                clientConfig, settings.maxPollRecords(), settings.maxPollInterval(), settings.commitInterval());
        EvaluationWorker w = new EvaluationWorker(topics, registry, artifacts, settings, config, meters);
        LOG.info("evaluation worker: threads {}, deadlines {}", settings.threads(), settings.deadlines());
        return w;
    }

    /** On busy cores, light work first, then images, then videos. */
    static int niceness(CostClass c) {
        return switch (c) {
            case LIGHT -> 0;
            case IMAGE -> 5;
            case VIDEO -> 10;
        };
    }

    /** Requests of a class taken in and not finished. */
    public int backlog(CostClass c) {
        return pools.get(c).backlog();
    }

    public long deadlineFailures(CostClass c) {
        return pools.get(c).expired();
    }

    public int stuckThreads(CostClass c) {
        return pools.get(c).stuckThreads();
    }

    public WorkLoop loop() {
        return loop;
    }

    private final class Handler implements WorkLoop.Handler {

        @Override
        public void accept(WorkLoop.Job job) {
            CostClass c = classOfTopic.getOrDefault(job.record().topic(), CostClass.LIGHT);
            pools.get(c).submit(new Evaluation(job, c));
        }

        @Override
        public boolean fetchMore(TopicPartition partition) {
            CostClass c = classOfTopic.getOrDefault(partition.topic(), CostClass.LIGHT);
            return pools.get(c).backlog() < settings.bound(c);
        }

        @Override
        public List<ProducerRecord<byte[], byte[]>> unwritable(WorkLoop.Job job, List<ProducerRecord<byte[], byte[]>> outputs,
                                                                KafkaException error) {
            ConsumerRecord<byte[], byte[]> r = job.record();
            String topic = r.topic();
            SampleKey key = topics.evaluationRequests.keySerde().deserializer().deserialize(topic, r.key());
            EvaluationRequest request = topics.evaluationRequests.valueSerde().deserializer().deserialize(topic, r.value());
            // the same failure, without the evaluator's diagnostics and without the request's bytes
            String reason = "the evaluation's result could not be written (" + error.getClass().getSimpleName() + ")";
            Evaluations.Outcome small = Evaluations.failed(key, request, reason, "?", null, source(r), null, null, 0);
            return outputs(key, small);
        }
    }

    /** One request on its class's pool. */
    private final class Evaluation implements EvaluationPool.Task {
        private final WorkLoop.Job job;
        private final CostClass costClass;
        private volatile SampleKey key;
        private volatile EvaluationRequest request;
        private volatile String version = "?";
        /** the reason of the PENDING result written last: a wait for the same reason writes none */
        private volatile String announced;
        private volatile int waits;

        Evaluation(WorkLoop.Job job, CostClass costClass) {
            this.job = job;
            this.costClass = costClass;
        }

        @Override
        public boolean live() {
            return job.live();
        }

        @Override
        public void run(EvaluationPool.Runner runner) {
            ConsumerRecord<byte[], byte[]> r = job.record();
            Evaluations.Source src = source(r);
            try {
                key = topics.evaluationRequests.keySerde().deserializer().deserialize(r.topic(), r.key());
                request = topics.evaluationRequests.valueSerde().deserializer().deserialize(r.topic(), r.value());
                if (key == null || request == null) {
                    throw new IllegalArgumentException("key or value is missing");
                }
            } catch (RuntimeException e) {
                if (DeadLetters.isRegistryOutage(e)) {
                    LOG.warn("evaluation request {}-{}@{} waits for the schema registry: {}", r.topic(), r.partition(),
                            r.offset(), DeadLetters.describe(e));
                    pools.get(costClass).submitLater(this, REGISTRY_RETRY);
                    return;
                }
                job.complete(outputs(null, Evaluations.unreadable(src, r.key(), r.value(), e)));
                return;
            }
            long start = System.nanoTime();
            Evaluations.Outcome outcome;
            try {
                var evaluator = runner.evaluator(request.getEvaluator());
                evaluator.ifPresent(e -> version = e.version());
                outcome = Evaluations.run(evaluator, key, request, artifacts, src, r.key(), r.value());
            } catch (RuntimeException | Error e) {
                // the evaluator could not even be created (its engine failed to load): the sample fails, not the queue
                LOG.error("evaluator {} could not be created", request.getEvaluator(), e);
                outcome = Evaluations.failed(key, request, "evaluator could not be created: " + DeadLetters.describe(e), "?",
                        e, src, r.key(), r.value(), 0);
            }
            List<ProducerRecord<byte[], byte[]>> out;
            try {
                out = outputs(key, outcome);
            } catch (RuntimeException e) {
                if (DeadLetters.isRegistryOutage(e)) {
                    LOG.warn("the result of {} waits for the schema registry: {}", SampleKeys.ref(key), DeadLetters.describe(e));
                    pools.get(costClass).submitLater(this, REGISTRY_RETRY);
                    return;
                }
                throw e;
            }
            if (outcome.pending()) {
                waitForArtifact(outcome.result().getPending(), out);
            } else if (job.complete(out)) {
                durations.get(costClass).record(Duration.ofNanos(System.nanoTime() - start));
            }
        }

        /**
         * An artifact's store could not be reached: the record stays open, a PENDING result tells the score why
         * (once per reason), and once that is committed the evaluation is tried again after a growing pause.
         */
        private void waitForArtifact(String reason, List<ProducerRecord<byte[], byte[]>> pendingResult) {
            boolean announce = !reason.equals(announced);
            Duration delay = artifactRetry(waits++);
            LOG.info("{} on {} waits for its artifact, trying again in {} s: {}", request.getEvaluator(), SampleKeys.ref(key),
                    delay.toSeconds(), reason);
            job.hold(announce ? pendingResult : List.of(), () -> {
                if (announce) {
                    announced = reason;
                }
                artifactWaits.get(costClass).increment();
                pools.get(costClass).submitLater(this, delay);
            });
        }

        @Override
        public void expired(Duration deadline) {
            SampleKey k = key;
            EvaluationRequest req = request;
            ConsumerRecord<byte[], byte[]> r = job.record();
            if (k == null || req == null) {
                // it hung before the request was read (a registry call), not in an evaluator: read it again
                LOG.warn("evaluation request {}-{}@{} was still being read at its deadline of {}; trying again", r.topic(),
                        r.partition(), r.offset(), deadline);
                pools.get(costClass).submitLater(this, REGISTRY_RETRY);
                return;
            }
            String reason = "evaluation did not finish within its deadline of " + human(deadline) + " ("
                    + costClass.label() + " evaluations)";
            LOG.warn("{}: {} on {}", req.getEvaluator(), reason, SampleKeys.ref(k));
            try {
                // counted when the failure is what the job ends with: a request still being read at its deadline is
                // read again, and if that read's run also expires, the first of the two to complete is the one written
                if (job.complete(outputs(k, Evaluations.failed(k, req, reason, version, null, source(r), r.key(), r.value(),
                        deadline.toNanos() / 1000)))) {
                    deadlineFailures.get(costClass).increment();
                }
            } catch (RuntimeException e) {
                LOG.error("could not write the deadline failure of {}; it is evaluated again after a restart", SampleKeys.ref(k), e);
            }
        }
    }

    /** The records an outcome is written as: its result to cv-results (by sample), its dead letter. */
    private List<ProducerRecord<byte[], byte[]>> outputs(SampleKey key, Evaluations.Outcome outcome) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(2);
        DeterministicResult result = outcome.result();
        if (result != null && key != null) {
            String topic = topics.cvResults.name();
            int partition = SampleKeys.partition(key, loop.partitionCount(topic));
            out.add(new ProducerRecord<>(topic, partition, topics.cvResults.keySerde().serializer().serialize(topic, key),
                    topics.cvResults.valueSerde().serializer().serialize(topic, result)));
        }
        DeadLetter letter = outcome.letter();
        if (letter != null) {
            String topic = topics.deadLetter.name();
            out.add(new ProducerRecord<>(topic, letter.getOriginalKey() == null ? null : bytes(letter.getOriginalKey()),
                    topics.deadLetter.valueSerde().serializer().serialize(topic, letter)));
        }
        return out;
    }

    private static Evaluations.Source source(ConsumerRecord<byte[], byte[]> r) {
        return new Evaluations.Source(r.topic(), r.partition(), r.offset());
    }

    private static byte[] bytes(ByteBuffer buffer) {
        ByteBuffer b = buffer.duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** The pause before try {@code waits + 1} of an evaluation whose artifact's store could not be reached. */
    static Duration artifactRetry(int waits) {
        Duration d = ARTIFACT_RETRY_FIRST.multipliedBy(1L << Math.min(waits, 16));
        return d.compareTo(ARTIFACT_RETRY_MAX) > 0 ? ARTIFACT_RETRY_MAX : d;
    }

    /** 30 s, 2.5 s, 5 min: a deadline as a reason shows it (never the measured time, so replays agree). */
    static String human(Duration d) {
        long ms = d.toMillis();
        if (ms % 60_000 == 0) {
            return (ms / 60_000) + " min";
        }
        if (ms % 1000 == 0) {
            return (ms / 1000) + " s";
        }
        return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** Stops fetching, lets running evaluations finish within {@code grace}, writes them, and stops the pools. */
    public void close(Duration grace) {
        loop.close(grace);
        for (EvaluationPool p : pools.values()) {
            p.close();
        }
        watchdog.shutdownNow();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
