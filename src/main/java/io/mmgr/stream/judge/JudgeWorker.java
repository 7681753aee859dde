package io.mmgr.stream.judge;

import io.mmgr.stream.contract.VerdictStatus;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.worker.MemberIdentity;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The judge worker: a consumer of judge requests in its own group that judges them on a bounded pool
 * and writes verdicts.
 *
 * <p><b>Start-up does not wait for the cache.</b> The verdict cache is on disk and the cache follower
 * reads only the topic's tail; until it has, hits are served and misses wait ({@link JudgeEngine.Resume#CACHE}).
 *
 * <p><b>The quota is shared by partitions.</b> On every rebalance the worker takes the share of the
 * quota that belongs to its assigned judge-request partitions ({@link QuotaSettings#requestShare}), so
 * any number of workers in the group together stay within it.
 *
 * <p><b>Offsets only after the verdict.</b> A transactional producer writes each batch of verdicts
 * (and their cache entries) and commits the consumer offsets in the same transaction
 * ({@code sendOffsetsToTransaction} with the consumer's group metadata). A verdict is therefore
 * visible exactly when its request's offset has moved past it; a crash replays the uncommitted
 * requests, which the verdict cache answers without calling the judge when the verdict had been
 * written; and a zombie worker left over from a rebalance is fenced by its group generation. Manual
 * commits after acks would also never lose a request, but could publish a verdict twice and could
 * not tie the cache entry, the verdict and the offset together. Requests finish out of order, so the
 * committed offset of a partition is its lowest unfinished request.
 *
 * <p><b>Nothing is dropped.</b> A request the engine cannot judge yet (a transient failure, circuit
 * open, quota or budget, endpoint misconfigured) stays unfinished: a PENDING verdict tells the score
 * why, and the request is tried again after its backoff, or as soon as the circuit lets calls through,
 * or once the cache is complete ({@link WaitingRoom}); past its deadline it ends FAILED. The partitions
 * pause while the circuit is open or the backlog is full.
 */
public final class JudgeWorker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JudgeWorker.class);
    static final String HEADER_RUN = "mmgr-run";
    static final String HEADER_CHECKPOINT = "mmgr-checkpoint";
    static final String HEADER_WORKER = "mmgr-worker";

    /**
     * @param bootstrapServers Kafka
     * @param groupId          the worker's consumer group (its own, not the scorer's)
     * @param clientConfig     extra client properties (security), applied to every client
     * @param identity         the process's instance id: static membership and a stable transactional.id, so a
     *                         restarted worker takes its partitions back at once and aborts the transaction its
     *                         killed predecessor left open; null: dynamic membership, an id per start
     */
    public record Config(String bootstrapServers, String groupId, Map<String, Object> clientConfig, MemberIdentity identity) {
        public Config(String bootstrapServers, String groupId, Map<String, Object> clientConfig) {
            this(bootstrapServers, groupId, clientConfig, null);
        }
    }

    private final JudgeEngine engine;
    private final JudgeMetrics metrics;
    private final Topic<SampleKey, JudgeRequest> requests;
    private final Topic<SampleKey, JudgeVerdict> verdicts;
    private final Topic<String, JudgeVerdict> cacheTopic;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final CacheFollower follower;
    private final String workerId = UUID.randomUUID().toString();
    private final ExecutorService pool;
    private final ScheduledExecutorService later;
    private final WaitingRoom waiting;
    private final Queue<Completion> completions = new ConcurrentLinkedQueue<>();
    private final Map<TopicPartition, Progress> progress = new HashMap<>();
    private final Set<TopicPartition> paused = new HashSet<>();
    private final AtomicInteger outstanding;
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile Throwable failure;

    /** Unfinished offsets of one assigned partition; replaced on every assignment. */
    private static final class Progress {
        final TreeSet<Long> open = new TreeSet<>();
        long next = -1;
        long committed = -1;
        /** set when the partition is revoked or lost: its waiting requests are another worker's now */
        volatile boolean gone;
    }

    private record Job(TopicPartition tp, long offset, Progress progress, SampleKey key, JudgeRequest request,
                       String[] announced, JudgeEngine.Tries tries) {
    }

    private record Completion(Job job, JudgeEngine.Outcome outcome) {
    }

    private JudgeWorker(JudgeEngine engine, JudgeMetrics metrics, Topic<SampleKey, JudgeRequest> requests,
                        Topic<SampleKey, JudgeVerdict> verdicts, Topic<String, JudgeVerdict> cacheTopic, Config config) {
        this.engine = engine;
        this.metrics = metrics;
        this.requests = requests;
        this.verdicts = verdicts;
        this.cacheTopic = cacheTopic;
        this.outstanding = metrics.backlog();

        Map<String, Object> c = new HashMap<>(config.clientConfig());
        c.put("bootstrap.servers", config.bootstrapServers());
        c.put("group.id", config.groupId());
        c.put("enable.auto.commit", "false");
        c.put("isolation.level", "read_committed");
        c.put("auto.offset.reset", "earliest");
        c.put("max.poll.records", "200");
        // the instance id is the process's; workerId stays per start, as the cache follower tells this start's
        // spend from earlier ones by it
        String instance = config.identity() != null ? config.identity().id() : workerId.substring(0, 8);
        if (config.identity() != null) {
            config.identity().groupInstanceId().ifPresent(id -> c.put("group.instance.id", id));
        }
        c.put("client.id", config.groupId() + "-" + instance);
        this.consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());

        Map<String, Object> p = new HashMap<>(config.clientConfig());
        p.put("bootstrap.servers", config.bootstrapServers());
        p.put("transactional.id", config.identity() != null ? config.identity().transactionalId(config.groupId())
                : config.groupId() + "-" + workerId);
        p.put("enable.idempotence", "true");
        p.put("acks", "all");
        p.put("linger.ms", "5");
        this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        this.producer.initTransactions();

        this.follower = new CacheFollower(config, cacheTopic, engine.cache(), engine.ledger(), workerId);
        int threads = engine.settings().concurrency() + 2;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(threads, r -> daemon(r, "judge-call-" + n.incrementAndGet()));
        this.later = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "judge-retry-later"));
        this.waiting = new WaitingRoom(later, Map.of(
                // closed, not merely half-open: half-open lets only its probes through, the rest would spin
                JudgeEngine.Resume.CIRCUIT, () -> engine.resilience().circuit() == CircuitBreaker.State.CLOSED,
                JudgeEngine.Resume.CACHE, () -> engine.cache().complete()));
        engine.resilience().onCallsPermitted(state -> {
            waiting.release(JudgeEngine.Resume.CIRCUIT);
            if (state == CircuitBreaker.State.CLOSED) {
                waiting.release(JudgeEngine.Resume.BACKOFF); // the provider answers again: no need to sit out a backoff
            }
        });
        follower.onComplete(() -> waiting.release(JudgeEngine.Resume.CACHE));
        this.thread = daemon(this::loop, "judge-worker");
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * Starts a worker: the cache follower reads the cache topic's tail while the worker already consumes
     * requests (hits are served at once; misses wait until the cache is complete).
     */
    public static JudgeWorker start(JudgeEngine engine, JudgeMetrics metrics, Topic<SampleKey, JudgeRequest> requests,
                                    Topic<SampleKey, JudgeVerdict> verdicts, Topic<String, JudgeVerdict> cacheTopic,
                                    Config config) {
        JudgeWorker w = new JudgeWorker(engine, metrics, requests, verdicts, cacheTopic, config);
        w.follower.start();
        w.thread.start();
        LOG.info("judge worker {} started: {} {} at {} ({}; group {}, cache holds about {} verdicts)", w.workerId,
                engine.settings().protocol(), engine.settings().model(), engine.settings().baseUrl(),
                engine.settings().profile().describe(), config.groupId(), engine.cache().size());
        return w;
    }

    /** Cache-topic records this worker's follower has read since it started (after a restart, only the tail). */
    public long cacheRecordsRead() {
        return follower.recordsRead();
    }

    private void loop() {
        boolean clean = false;
        try {
            consumer.subscribe(List.of(requests.name()), new Rebalance());
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                    accept(r);
                }
                commit();
                flowControl();
            }
            drainBeforeClose(Duration.ofSeconds(10));
            clean = true;
        } catch (Throwable t) {
            failure = t;
            LOG.error("judge worker stopped on an error; uncommitted requests will be judged again after a restart", t);
        } finally {
            try {
                // a clean stop hands the partitions over at once, static member or not
                consumer.close(CloseOptions.groupMembershipOperation(clean ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                        : CloseOptions.GroupMembershipOperation.DEFAULT).withTimeout(Duration.ofSeconds(5)));
            } catch (RuntimeException e) {
                LOG.debug("consumer close", e);
            }
            producer.close(Duration.ofSeconds(5));
            stopped.countDown();
        }
    }

    private void accept(ConsumerRecord<byte[], byte[]> r) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        Progress p = progress.get(tp);
        if (p == null) {
            return;
        }
        p.open.add(r.offset());
        p.next = Math.max(p.next, r.offset() + 1);
        outstanding.incrementAndGet();
        SampleKey key;
        JudgeRequest request;
        try {
            key = requests.keySerde().deserializer().deserialize(r.topic(), r.key());
            request = requests.valueSerde().deserializer().deserialize(r.topic(), r.value());
        } catch (RuntimeException e) {
            LOG.error("skipping an unreadable judge request at {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.toString());
            completions.add(new Completion(new Job(tp, r.offset(), p, null, null, new String[1], null), null));
            return;
        }
        submit(new Job(tp, r.offset(), p, key, request, new String[1], new JudgeEngine.Tries()));
    }

    private void submit(Job job) {
        if (!running || job.progress().gone) {
            return; // stopping, or the partition is another worker's now: it judges the request
        }
        pool.execute(() -> {
            JudgeEngine.Outcome outcome;
            try {
                outcome = engine.judge(job.request(), job.tries());
            } catch (RuntimeException e) {
                LOG.error("judging {} failed unexpectedly", job.request().getRequestId(), e);
                outcome = new JudgeEngine.Outcome.Wait("judging failed unexpectedly (" + e + "); retrying", Duration.ofSeconds(10),
                        JudgeEngine.Resume.LATER);
            }
            completions.add(new Completion(job, outcome));
        });
    }

    /** Writes finished verdicts and PENDING notices and commits the offsets they complete, atomically. */
    private void commit() {
        List<Completion> batch = new ArrayList<>();
        for (Completion c; (c = completions.poll()) != null; ) {
            if (progress.get(c.job().tp()) == c.job().progress()) {
                batch.add(c);
            }
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        List<Job> finished = new ArrayList<>();
        List<Job> waiting = new ArrayList<>();
        if (batch.isEmpty() && !anyCommittable()) {
            return;
        }
        try {
            producer.beginTransaction();
            for (Completion c : batch) {
                Job job = c.job();
                if (c.outcome() == null) {
                    finished.add(job);
                } else if (c.outcome() instanceof JudgeEngine.Outcome.Done d) {
                    sendVerdict(job.key(), d.verdict());
                    if (d.fresh()) {
                        sendCacheEntry(job, d.verdict());
                    }
                    metrics.verdict(d.verdict().getStatus(), d.verdict().getCachedFrom() != null);
                    finished.add(job);
                } else if (c.outcome() instanceof JudgeEngine.Outcome.Wait w) {
                    if (!w.reason().equals(job.announced()[0])) {
                        sendVerdict(job.key(), engine.pending(job.request(), w.reason()));
                        metrics.verdict(VerdictStatus.PENDING.name(), false);
                    }
                    waiting.add(job);
                }
            }
            for (Job job : finished) {
                job.progress().open.remove(job.offset());
            }
            for (var e : progress.entrySet()) {
                Progress p = e.getValue();
                long low = p.open.isEmpty() ? p.next : p.open.first();
                if (low > p.committed && low >= 0) {
                    offsets.put(e.getKey(), new OffsetAndMetadata(low));
                }
            }
            if (!offsets.isEmpty()) {
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            }
            producer.commitTransaction();
        } catch (ProducerFencedException e) {
            throw e;
        } catch (KafkaException e) {
            LOG.warn("judge verdict transaction aborted ({}); the batch is retried", e.toString());
            try {
                producer.abortTransaction();
            } catch (KafkaException abort) {
                throw abort;
            }
            for (Job job : finished) {
                job.progress().open.add(job.offset());
            }
            completions.addAll(batch);
            return;
        }
        offsets.forEach((tp, o) -> progress.get(tp).committed = o.offset());
        outstanding.addAndGet(-finished.size());
        for (Job job : waiting) {
            JudgeEngine.Outcome.Wait w = (JudgeEngine.Outcome.Wait) batch.stream().filter(c -> c.job() == job)
                    .findFirst().orElseThrow().outcome();
            job.announced()[0] = w.reason();
            this.waiting.park(w, () -> submit(job));
        }
    }

    private boolean anyCommittable() {
        for (Progress p : progress.values()) {
            long low = p.open.isEmpty() ? p.next : p.open.first();
            if (low > p.committed && low >= 0) {
                return true;
            }
        }
        return false;
    }

    private void sendVerdict(SampleKey key, JudgeVerdict verdict) {
        String topic = verdicts.name();
        int partition = SampleKeys.partition(key, producer.partitionsFor(topic).size());
        producer.send(new ProducerRecord<>(topic, partition, verdicts.keySerde().serializer().serialize(topic, key),
                verdicts.valueSerde().serializer().serialize(topic, verdict)));
    }

    private void sendCacheEntry(Job job, JudgeVerdict verdict) {
        String topic = cacheTopic.name();
        RecordHeaders headers = new RecordHeaders();
        headers.add(HEADER_RUN, job.request().getEvent().getRunId().getBytes(StandardCharsets.UTF_8));
        headers.add(HEADER_CHECKPOINT, job.request().getEvent().getCheckpointId().getBytes(StandardCharsets.UTF_8));
        headers.add(HEADER_WORKER, workerId.getBytes(StandardCharsets.UTF_8));
        producer.send(new ProducerRecord<>(topic, null, verdict.getCacheKey().getBytes(StandardCharsets.UTF_8),
                cacheTopic.valueSerde().serializer().serialize(topic, verdict), headers));
    }

    /** Pauses every partition while the circuit is open or the backlog is full; resumes below half. */
    private void flowControl() {
        Set<TopicPartition> assigned = consumer.assignment();
        boolean open = engine.resilience().circuit() == CircuitBreaker.State.OPEN;
        int max = engine.settings().maxInFlight();
        if (open || outstanding.get() >= max) {
            Set<TopicPartition> toPause = new HashSet<>(assigned);
            toPause.removeAll(paused);
            if (!toPause.isEmpty()) {
                consumer.pause(toPause);
                paused.addAll(toPause);
            }
        } else if (!paused.isEmpty() && outstanding.get() <= max / 2) {
            Set<TopicPartition> toResume = new HashSet<>(paused);
            toResume.retainAll(assigned);
            consumer.resume(toResume);
            paused.clear();
        }
        metrics.pausedPartitions().set(paused.size());
    }

    private void drainBeforeClose(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            commit();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        commit();
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            commit(); // what is finished is written before another worker takes over
            forget(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            for (TopicPartition tp : partitions) {
                progress.put(tp, new Progress());
            }
            reshare();
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            forget(partitions);
        }

        private void forget(Collection<TopicPartition> partitions) {
            for (TopicPartition tp : partitions) {
                Progress p = progress.remove(tp);
                if (p != null) {
                    p.gone = true;
                    outstanding.addAndGet(-p.open.size());
                }
                paused.remove(tp);
            }
            metrics.pausedPartitions().set(paused.size());
            reshare();
        }

        /** This worker's share of the quota: that of the judge-request partitions it holds now. */
        private void reshare() {
            int total = consumer.partitionsFor(requests.name()).size();
            List<Integer> mine = progress.keySet().stream().filter(tp -> tp.topic().equals(requests.name()))
                    .map(TopicPartition::partition).toList();
            engine.resilience().share(mine, total);
            LOG.info("judge worker {} holds {} of {} judge-request partitions: {} requests per {} s of the quota", workerId,
                    mine.size(), total, engine.resilience().requestShare(), engine.settings().quota().window().toSeconds());
        }
    }

    /** True while the loop runs; the failure that stopped it otherwise. */
    public Throwable failure() {
        return failure;
    }

    public boolean isRunning() {
        return running && stopped.getCount() > 0;
    }

    @Override
    public void close() {
        running = false;
        try {
            if (!stopped.await(30, TimeUnit.SECONDS)) {
                LOG.warn("judge worker did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        later.shutdownNow();
        pool.shutdownNow();
        follower.close();
    }

}
