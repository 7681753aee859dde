package io.mmgr.stream.judge;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.contract.VerdictStatus;
import io.mmgr.stream.worker.MemberIdentity;
import io.mmgr.stream.worker.WorkLoop;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The judge worker: judge requests from their topic, judged on a bounded pool, as verdicts. The
 * consuming, the transactions and the rebalances are the {@link WorkLoop}'s, as for the evaluation
 * worker; this class is what the judge does with one request, and its hook into the loop: requests it
 * holds back and lets go again, and the quota share it takes by its partitions.
 *
 * <p><b>Start-up does not wait for the cache.</b> The verdict cache is on disk and the cache follower
 * reads only the topic's tail; until it has, hits are served and misses wait ({@link JudgeEngine.Resume#CACHE}).
 *
 * <p><b>The quota is shared by partitions.</b> On every rebalance the worker takes the share of the
 * quota that belongs to its assigned judge-request partitions ({@link QuotaSettings#requestShare}), so
 * any number of workers in the group together stay within it.
 *
 * <p><b>Offsets only after the verdict.</b> Each verdict (and its cache entry) is written with the
 * request's offset in one transaction, so a verdict is visible exactly when its request's offset has moved
 * past it; a crash replays the uncommitted requests, which the verdict cache answers without calling the
 * judge when the verdict had been written; a zombie worker left over from a rebalance is fenced by its
 * group generation. Manual commits after acks would also never lose a request, but could publish a
 * verdict twice and could not tie the cache entry, the verdict and the offset together.
 *
 * <p><b>Auto binds at intake.</b> With {@code --judge-lane auto} each request is bound to the realtime or the batch
 * lane as it is taken in, not when a pool thread gets to it ({@link LaneIntake}).
 *
 * <p><b>Nothing is dropped.</b> A request the engine cannot judge yet (a transient failure, circuit
 * open, quota or budget, endpoint misconfigured) is held open ({@link WorkLoop.Job#hold}): a PENDING
 * verdict tells the score why, and once that is written the request waits for its backoff, or for the
 * circuit to let calls through, or for the cache to be complete ({@link WaitingRoom}); past its deadline it
 * ends FAILED. The partitions pause while the circuit is open or the backlog is full. A worker that fails
 * (fenced by a second process with its transactional.id, say) stops rather than start over, so that
 * whoever runs it sees it ({@link #isRunning()}) and restarts the process.
 */
public final class JudgeWorker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JudgeWorker.class);
    static final String HEADER_RUN = "mmgr-run";
    static final String HEADER_CHECKPOINT = "mmgr-checkpoint";
    static final String HEADER_WORKER = "mmgr-worker";
    /** A verdict that cannot be serialized now (the registry unreachable) is tried again after this. */
    static final Duration WRITE_RETRY = Duration.ofSeconds(5);
    /** How long a clean stop waits for calls in flight before it leaves their requests to the next owner. */
    static final Duration DRAIN = Duration.ofSeconds(10);

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
    private final CacheFollower follower;
    private final String workerId = UUID.randomUUID().toString();
    private final ExecutorService pool;
    private final ScheduledExecutorService later;
    private final WaitingRoom waiting;
    private final LaneIntake intake;
    private final WorkLoop loop;
    private volatile boolean closed;

    /** One request while it is judged: its job in the loop, and what its tries so far did and announced. */
    private static final class Request {
        final WorkLoop.Job job;
        final SampleKey key;
        final JudgeRequest request;
        final JudgeEngine.Tries tries = new JudgeEngine.Tries();
        final LaneIntake.Ticket ticket;
        /** the reason of the PENDING verdict written last: a wait for the same reason writes none */
        volatile String announced;

        Request(WorkLoop.Job job, SampleKey key, JudgeRequest request) {
            this.job = job;
            this.key = key;
            this.request = request;
            this.ticket = new LaneIntake.Ticket(job::live);
        }
    }

    private JudgeWorker(JudgeEngine engine, JudgeMetrics metrics, Topic<SampleKey, JudgeRequest> requests,
                        Topic<SampleKey, JudgeVerdict> verdicts, Topic<String, JudgeVerdict> cacheTopic, Config config) {
        this.engine = engine;
        this.metrics = metrics;
        this.requests = requests;
        this.verdicts = verdicts;
        this.cacheTopic = cacheTopic;
        this.follower = new CacheFollower(config, cacheTopic, engine.cache(), engine.ledger(), workerId);
        int threads = engine.settings().concurrency() + 2;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(threads, r -> daemon(r, "judge-call-" + n.incrementAndGet()));
        this.later = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "judge-retry-later"));
        this.waiting = WaitingRoom.of(later, engine, follower);
        this.intake = new LaneIntake(engine, pool);
        engine.lane().onAnswersReady(() -> waiting.release(JudgeEngine.Resume.BATCH));
        // without an identity: an id per start, which also tells this start's spend from earlier ones in the cache
        MemberIdentity identity = config.identity() != null ? config.identity() : new MemberIdentity(workerId, false);
        this.loop = WorkLoop.create(new WorkLoop.Config("judge-worker", config.bootstrapServers(), config.groupId(),
                List.of(requests.name()), identity, config.clientConfig(), 200, Duration.ofMinutes(5), Duration.ZERO),
                new Judging(), new Holding());
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
        w.loop.start();
        try {
            // as a constructor opening its clients: started means its transactions are initialised, or it throws
            if (!w.loop.awaitOpen()) {
                Throwable failure = w.loop.lastFailure();
                w.close();
                throw failure instanceof RuntimeException e ? e : new IllegalStateException("the judge worker did not start", failure);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            w.close();
            throw new IllegalStateException("interrupted while the judge worker started", e);
        }
        LOG.info("judge worker {} started: {} {} at {} ({}; group {}, cache holds about {} verdicts)", w.workerId,
                engine.settings().protocol(), engine.settings().model(), engine.settings().baseUrl(),
                engine.settings().profile().describe(), config.groupId(), engine.cache().size());
        return w;
    }

    /** This start's id: on its cache entries and its cost projections. */
    public String workerId() {
        return workerId;
    }

    /** Cache-topic records this worker's follower has read since it started (after a restart, only the tail). */
    public long cacheRecordsRead() {
        return follower.recordsRead();
    }

    /** What the judge does with a request: judge it on the pool, and write what came of it. */
    private final class Judging implements WorkLoop.Handler {

        @Override
        public void accept(WorkLoop.Job job) {
            ConsumerRecord<byte[], byte[]> r = job.record();
            Request request;
            try {
                request = new Request(job, requests.keySerde().deserializer().deserialize(r.topic(), r.key()),
                        requests.valueSerde().deserializer().deserialize(r.topic(), r.value()));
            } catch (RuntimeException e) {
                LOG.error("skipping an unreadable judge request at {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.toString());
                job.complete(List.of());
                return;
            }
            submit(request);
        }

        /** Every partition pauses while the circuit is open or the backlog is full; they resume at half of it. */
        @Override
        public boolean fetchMore(TopicPartition partition) {
            int max = engine.settings().maxInFlight();
            if (engine.resilience().circuit() == CircuitBreaker.State.OPEN || loop.openJobs() >= max) {
                return false;
            }
            return loop.openJobs() <= max / 2 || !loop.paused(partition);
        }

        /**
         * A verdict the broker refuses (a topic whose limit is below a verdict's bounded size) ends FAILED
         * saying so, without its cache entry; a refused PENDING notice is left out.
         */
        @Override
        public List<ProducerRecord<byte[], byte[]>> unwritable(WorkLoop.Job job, List<ProducerRecord<byte[], byte[]>> outputs,
                                                                KafkaException error) {
            if (!job.completed()) {
                return List.of();
            }
            ConsumerRecord<byte[], byte[]> r = job.record();
            SampleKey key = requests.keySerde().deserializer().deserialize(r.topic(), r.key());
            JudgeRequest request = requests.valueSerde().deserializer().deserialize(r.topic(), r.value());
            return List.of(verdict(key, engine.unwritable(request, error.getClass().getSimpleName())));
        }
    }

    private void submit(Request r) {
        if (!r.job.live()) {
            intake.release(r.ticket);
            return; // stopping, or the partition is another worker's now: it judges the request
        }
        intake.submit(r.request, r.ticket, () -> {
            JudgeEngine.Outcome outcome;
            try {
                outcome = engine.judge(r.request, r.tries);
            } catch (RuntimeException e) {
                LOG.error("judging {} failed unexpectedly", r.request.getRequestId(), e);
                outcome = new JudgeEngine.Outcome.Wait("judging failed unexpectedly (" + e + "); retrying", Duration.ofSeconds(10),
                        JudgeEngine.Resume.LATER);
            }
            if (outcome instanceof JudgeEngine.Outcome.Done) {
                intake.release(r.ticket);
            }
            write(r, outcome);
        });
    }

    /**
     * A verdict finishes the request; a wait writes a PENDING verdict when its reason is new and holds the
     * request until that is committed, then parks it until its retry.
     */
    private void write(Request r, JudgeEngine.Outcome outcome) {
        try {
            if (outcome instanceof JudgeEngine.Outcome.Done d) {
                List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(2);
                out.add(verdict(r.key, d.verdict()));
                if (d.fresh()) {
                    out.add(cacheEntry(r.request, d.verdict()));
                }
                r.job.complete(out, () -> metrics.verdict(d.verdict().getStatus(), d.verdict().getCachedFrom() != null));
            } else if (outcome instanceof JudgeEngine.Outcome.Wait w) {
                boolean announce = !w.reason().equals(r.announced);
                r.job.hold(announce ? List.of(verdict(r.key, engine.pending(r.request, w.reason()))) : List.of(), () -> {
                    if (announce) {
                        metrics.verdict(VerdictStatus.PENDING.name(), false);
                        r.announced = w.reason();
                    }
                    waiting.park(w, () -> submit(r));
                });
            }
        } catch (RuntimeException e) {
            if (!r.job.live()) {
                intake.release(r.ticket);
                return;
            }
            // the outcome is kept: a verdict paid for is written once it can be, not judged again
            LOG.warn("the verdict of {} cannot be written yet ({}); trying again in {} s", r.request.getRequestId(), e.toString(),
                    WRITE_RETRY.toSeconds());
            later.schedule(() -> write(r, outcome), WRITE_RETRY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private ProducerRecord<byte[], byte[]> verdict(SampleKey key, JudgeVerdict verdict) {
        String topic = verdicts.name();
        int partition = SampleKeys.partition(key, loop.partitionCount(topic));
        return new ProducerRecord<>(topic, partition, verdicts.keySerde().serializer().serialize(topic, key),
                verdicts.valueSerde().serializer().serialize(topic, verdict));
    }

    private ProducerRecord<byte[], byte[]> cacheEntry(JudgeRequest request, JudgeVerdict verdict) {
        String topic = cacheTopic.name();
        RecordHeaders headers = new RecordHeaders();
        headers.add(HEADER_RUN, request.getEvent().getRunId().getBytes(StandardCharsets.UTF_8));
        headers.add(HEADER_CHECKPOINT, request.getEvent().getCheckpointId().getBytes(StandardCharsets.UTF_8));
        headers.add(HEADER_WORKER, workerId.getBytes(StandardCharsets.UTF_8));
        return new ProducerRecord<>(topic, null, verdict.getCacheKey().getBytes(StandardCharsets.UTF_8),
                cacheTopic.valueSerde().serializer().serialize(topic, verdict), headers);
    }

    /** The judge's hook into the loop: its gauges, its share of the quota, and a failure stopping it. */
    private final class Holding implements WorkLoop.Hook {

        @Override
        public void polled() {
            metrics.backlog().set(loop.openJobs());
            metrics.pausedPartitions().set(loop.pausedPartitions());
        }

        /** This worker's share of the quota: that of the judge-request partitions it holds now. */
        @Override
        public void rebalanced(Set<TopicPartition> owned) {
            polled();
            int total = loop.partitionCount(requests.name());
            List<Integer> mine = owned.stream().filter(tp -> tp.topic().equals(requests.name()))
                    .map(TopicPartition::partition).sorted().toList();
            engine.share(mine, total);
            intake.sweep();
            LOG.info("judge worker {} holds {} of {} judge-request partitions: {} requests per {} s of the quota", workerId,
                    mine.size(), total, engine.resilience().requestShare(), engine.settings().quota().window().toSeconds());
        }

        @Override
        public boolean restart(Throwable failure) {
            LOG.error("judge worker stopped on an error; uncommitted requests will be judged again after a restart", failure);
            return false;
        }
    }

    /** The failure that stopped the worker; null while it runs. */
    public Throwable failure() {
        return loop.isRunning() ? null : loop.lastFailure();
    }

    public boolean isRunning() {
        return !closed && loop.isRunning();
    }

    @Override
    public void close() {
        closed = true;
        loop.close(DRAIN);
        later.shutdownNow();
        intake.close();
        pool.shutdownNow();
        follower.close();
    }
}
