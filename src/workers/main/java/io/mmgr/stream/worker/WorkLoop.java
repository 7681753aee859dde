package io.mmgr.stream.worker;

import io.mmgr.stream.contract.FailoverTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A consumer whose records are worked on elsewhere (bounded pools, remote calls) and finish in any
 * order, and a transactional producer that writes their outputs together with the consumer's offsets.
 * The parts every such worker needs, and nothing of what the work is:
 *
 * <ul>
 *   <li><b>The loop thread never works.</b> It polls, hands each record to the {@link Handler} as a
 *       {@link Job}, commits and pauses; so polls stay milliseconds apart whatever the work costs, and
 *       {@code max.poll.interval.ms} is never at risk from slow work.</li>
 *   <li><b>Outputs and offsets in one transaction.</b> Finished jobs are written in batches (every
 *       {@code commitInterval}); each batch's transaction also commits the offsets its jobs complete
 *       ({@code sendOffsetsToTransaction} with the group's metadata, so a member fenced by a rebalance
 *       cannot commit). An output is visible to read_committed readers exactly when its record's offset
 *       has moved past it: a crash replays only what was not written.</li>
 *   <li><b>Out-of-order commit.</b> A partition's committed offset is its lowest unfinished record;
 *       what finished above it goes into the commit's metadata and is skipped by the next owner
 *       ({@link PartitionProgress}).</li>
 *   <li><b>Back-pressure.</b> After every poll the handler says, per partition, whether to fetch more;
 *       the others are paused until it does.</li>
 *   <li><b>Rebalances.</b> Finished work is written before a partition is given up; jobs of a partition
 *       no longer owned are dropped ({@link Job#live()} tells them to stop).</li>
 *   <li><b>Restarts in seconds.</b> With a {@link MemberIdentity}, the consumer is a static member and the
 *       {@code transactional.id} is stable: a restarted process takes its partitions back at once and
 *       aborts the transaction its predecessor left open.</li>
 *   <li><b>Records that cannot be written</b> (over the topic's size limit, say) are replaced by what
 *       {@link Handler#unwritable} gives instead of failing the batch again and again.</li>
 *   <li>Any other failure closes both clients and starts a new session after a pause (or, as the
 *       {@link Hook} chooses, stops the loop); what was not committed is done again.</li>
 *   <li><b>Held records.</b> A job may write notices and stay open ({@link Job#hold}): it is handed
 *       back only once the transaction with its notices committed, so a later output never overtakes
 *       its notice, and never when its partition was given up meanwhile.</li>
 * </ul>
 *
 * <p>The evaluation worker is a {@link Handler}; the judge worker is a handler and a {@link Hook}.
 */
public final class WorkLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WorkLoop.class);
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration RESTART_PAUSE = Duration.ofSeconds(2);

    /** What the work is: called by the loop. */
    public interface Handler {

        /** A fetched record to work on. Called on the loop thread: hand it off, never block. */
        void accept(Job job);

        /** Whether to fetch more from this partition now; false pauses it. Called on the loop thread after every poll. */
        boolean fetchMore(TopicPartition partition);

        /**
         * What to write instead of {@code outputs}, which the producer refused for good ({@code error}:
         * too large, not serializable). Called on the loop thread; asked at most once per job (a
         * replacement that fails too is dropped, and the record's offset still moves).
         */
        List<ProducerRecord<byte[], byte[]>> unwritable(Job job, List<ProducerRecord<byte[], byte[]>> outputs,
                                                        KafkaException error);
    }

    /**
     * What a worker that holds records back does at the loop's steps, besides the work itself. Every
     * method runs on the loop thread and must not block.
     */
    public interface Hook {

        /** No hook: nothing is done at the loop's steps, and a failed session is followed by a new one. */
        Hook NONE = new Hook() {
        };

        /** After every poll, commit and pause: the loop's counters ({@link #openJobs()}, ...) are current. */
        default void polled() {
        }

        /**
         * After every rebalance callback (an assignment, empty or not, a revocation, a loss): the partitions
         * owned now. Jobs of partitions given up are no longer {@link Job#live() live}.
         */
        default void rebalanced(Set<TopicPartition> owned) {
        }

        /**
         * A session failed: true starts a new one after a pause, false stops the loop ({@link #isRunning()}
         * turns false, {@link #lastFailure()} tells why).
         */
        default boolean restart(Throwable failure) {
            return true;
        }
    }

    /**
     * @param name             the worker's name, in thread names and logs
     * @param groupId          its consumer group (its own, not the Streams application's)
     * @param topics           what it consumes
     * @param identity         instance id: static membership and a stable transactional.id
     * @param clientConfig     extra client properties (security, tuning), applied to both clients first
     * @param maxPollRecords   records per poll: what the handler may take in before it pauses
     * @param maxPollInterval  the consumer's {@code max.poll.interval.ms}: only the loop's own stalls count
     * @param commitInterval   how often finished work is written
     */
    public record Config(String name, String bootstrapServers, String groupId, List<String> topics, MemberIdentity identity,
                         Map<String, Object> clientConfig, int maxPollRecords, Duration maxPollInterval,
                         Duration commitInterval) {
        public Config {
            topics = List.copyOf(topics);
            clientConfig = Map.copyOf(clientConfig);
        }
    }

    /** One fetched record, handed to the handler; finished by {@link #complete}. */
    public final class Job {
        private final ConsumerRecord<byte[], byte[]> record;
        private final PartitionProgress progress;
        private final AtomicBoolean completed = new AtomicBoolean();
        private volatile boolean replaced;

        private Job(ConsumerRecord<byte[], byte[]> record, PartitionProgress progress) {
            this.record = record;
            this.progress = progress;
        }

        public ConsumerRecord<byte[], byte[]> record() {
            return record;
        }

        public TopicPartition partition() {
            return progress.partition();
        }

        /** False once the partition was given up or the worker stops: the outputs would be dropped. */
        public boolean live() {
            return running && !progress.revoked();
        }

        /**
         * Finishes the job: the outputs are written with the record's offset, in one transaction. Only the
         * first call counts (a deadline and a late result may race); returns whether this one did.
         */
        public boolean complete(List<ProducerRecord<byte[], byte[]>> outputs) {
            return complete(outputs, null);
        }

        /** As {@link #complete(List)}; {@code written}, if given, runs on the loop thread once they are committed. */
        public boolean complete(List<ProducerRecord<byte[], byte[]>> outputs, Runnable written) {
            if (!completed.compareAndSet(false, true)) {
                return false;
            }
            completions.add(new Completion(this, List.copyOf(outputs), true, written));
            return true;
        }

        /**
         * Writes {@code notices} (none, or a word that the record waits) and leaves the record open. Once the
         * transaction that wrote them committed, {@code resume} runs on the loop thread: from then on the job
         * may be worked on again (hand it to a timer or a pool; never block there). Not run when the
         * partition was given up before the commit: the next owner does the record.
         */
        public void hold(List<ProducerRecord<byte[], byte[]>> notices, Runnable resume) {
            if (!completed.get()) {
                completions.add(new Completion(this, List.copyOf(notices), false, resume));
            }
        }

        public boolean completed() {
            return completed.get();
        }
    }

    /** @param written run on the loop thread after the transaction that wrote the outputs committed; may be null */
    private record Completion(Job job, List<ProducerRecord<byte[], byte[]>> outputs, boolean finishes, Runnable written) {
    }

    private final Config config;
    private final Handler handler;
    private final Hook hook;
    private final Queue<Completion> completions = new ConcurrentLinkedQueue<>();
    private final Map<TopicPartition, PartitionProgress> progress = new HashMap<>();
    private final Set<TopicPartition> paused = new HashSet<>();
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch opened = new CountDownLatch(1);
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong aborts = new AtomicLong();
    private final AtomicLong sessions = new AtomicLong();
    private volatile boolean running = true;
    private volatile Duration grace = Duration.ZERO;
    private volatile KafkaProducer<byte[], byte[]> producer;
    private volatile int openJobs;
    private volatile int pausedCount;
    private volatile Throwable lastFailure;
    private KafkaConsumer<byte[], byte[]> consumer;
    private long lastCommit;

    private WorkLoop(Config config, Handler handler, Hook hook) {
        this.config = config;
        this.handler = handler;
        this.hook = hook;
        this.thread = new Thread(this::run, config.name() + "-loop");
        this.thread.setDaemon(true);
    }

    /** Starts a loop without a hook; its first session opens the clients and joins the group. */
    public static WorkLoop start(Config config, Handler handler) {
        return create(config, handler, Hook.NONE).start();
    }

    /** A loop not started yet: its owner can keep it before the hook is first called. */
    public static WorkLoop create(Config config, Handler handler, Hook hook) {
        return new WorkLoop(config, handler, hook);
    }

    /** Starts the loop thread; its first session opens the clients and joins the group. */
    public WorkLoop start() {
        thread.start();
        return this;
    }

    /** Partitions of a topic the outputs go to (from the producer's metadata; may block while it loads). */
    public int partitionCount(String topic) {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p == null) {
            throw new IllegalStateException(config.name() + " has no producer (between sessions)");
        }
        return p.partitionsFor(topic).size();
    }

    /** Records taken in and not finished yet, on the partitions owned now. */
    public int openJobs() {
        return openJobs;
    }

    public int pausedPartitions() {
        return pausedCount;
    }

    /** Whether a partition is paused now. Only on the loop thread (from {@link Handler#fetchMore}). */
    public boolean paused(TopicPartition partition) {
        return paused.contains(partition);
    }

    public long commits() {
        return commits.get();
    }

    public long aborts() {
        return aborts.get();
    }

    /** Sessions started: more than one means a failure restarted the clients. */
    public long sessions() {
        return sessions.get();
    }

    /**
     * Waits until the first session's clients are open: the producer's transactions initialised (what a
     * predecessor with the same transactional.id left open is aborted by then) and the consumer subscribed.
     * False when the loop stopped first ({@link #lastFailure()} says why).
     */
    public boolean awaitOpen() throws InterruptedException {
        opened.await();
        return isRunning();
    }

    public Throwable lastFailure() {
        return lastFailure;
    }

    public boolean isRunning() {
        return stopped.getCount() > 0;
    }

    private void run() {
        try {
            while (running) {
                try {
                    session();
                } catch (Throwable t) {
                    lastFailure = t;
                    if (!running || !hook.restart(t)) {
                        break;
                    }
                    if (t instanceof ProducerFencedException) {
                        LOG.error("{}: fenced by another producer with transactional.id {}; is a second process using "
                                + "instance id {}? Starting a new session", config.name(),
                                config.identity().transactionalId(config.groupId()), config.identity().id(), t);
                    } else {
                        LOG.error("{}: session failed; uncommitted records are done again in a new session", config.name(), t);
                    }
                    sleep(RESTART_PAUSE);
                }
            }
        } finally {
            stopped.countDown();
            opened.countDown();
        }
    }

    private void session() {
        sessions.incrementAndGet();
        Map<String, Object> c = new HashMap<>(config.clientConfig());
        c.put("bootstrap.servers", config.bootstrapServers());
        c.put("group.id", config.groupId());
        config.identity().groupInstanceId().ifPresent(id -> c.put("group.instance.id", id));
        c.put("client.id", config.groupId() + "-" + config.identity().id());
        c.put("enable.auto.commit", "false");
        c.put("isolation.level", "read_committed");
        c.put("auto.offset.reset", "earliest");
        c.put("max.poll.records", String.valueOf(config.maxPollRecords()));
        c.put("max.poll.interval.ms", String.valueOf(config.maxPollInterval().toMillis()));
        // a worker lost for good frees its partitions in seconds (docs/operations.md, "Failover timing")
        c.putIfAbsent("session.timeout.ms", String.valueOf(FailoverTiming.SESSION_TIMEOUT.toMillis()));
        c.putIfAbsent("heartbeat.interval.ms", String.valueOf(FailoverTiming.HEARTBEAT_INTERVAL.toMillis()));
        Map<String, Object> p = new HashMap<>(config.clientConfig());
        p.put("bootstrap.servers", config.bootstrapServers());
        p.put("client.id", config.groupId() + "-" + config.identity().id() + "-producer");
        p.put("transactional.id", config.identity().transactionalId(config.groupId()));
        // a transaction spans one batch write (milliseconds); a killed process's open one blocks
        // read_committed readers until a restart with the same id aborts it, or until this timeout, which
        // must outlast a broker failover (docs/operations.md, "Failover timing")
        p.putIfAbsent("transaction.timeout.ms", String.valueOf(FailoverTiming.TRANSACTION_TIMEOUT.toMillis()));
        p.put("enable.idempotence", "true");
        p.put("acks", "all");
        p.putIfAbsent("linger.ms", "5");
        KafkaProducer<byte[], byte[]> prod = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        boolean clean = false;
        try {
            prod.initTransactions(); // aborts whatever a predecessor with this transactional.id left open
            producer = prod;
            consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            consumer.subscribe(config.topics(), new Rebalance());
            opened.countDown();
            LOG.info("{}: consuming {} in group {} as {} ({} membership)", config.name(), config.topics(), config.groupId(),
                    config.identity().id(), config.identity().staticMembership() ? "static" : "dynamic");
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                    accept(r);
                }
                commit(false);
                flowControl();
                hook.polled();
            }
            drain();
            clean = true;
        } finally {
            forget(new ArrayList<>(progress.keySet()));
            if (consumer != null) {
                try {
                    // a clean stop hands the partitions over at once, static member or not
                    consumer.close(CloseOptions.groupMembershipOperation(clean
                            ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                            : CloseOptions.GroupMembershipOperation.DEFAULT).withTimeout(Duration.ofSeconds(5)));
                } catch (RuntimeException e) {
                    LOG.debug("{}: consumer close", config.name(), e);
                }
                consumer = null;
            }
            producer = null;
            try {
                prod.close(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.debug("{}: producer close", config.name(), e);
            }
        }
    }

    private void accept(ConsumerRecord<byte[], byte[]> r) {
        PartitionProgress p = progress.get(new TopicPartition(r.topic(), r.partition()));
        if (p == null || !p.fetched(r.offset())) {
            return; // not ours any more, or finished by an earlier owner
        }
        openJobs++;
        handler.accept(new Job(r, p));
    }

    /**
     * Writes the finished jobs' outputs and the offsets they complete in one transaction. {@code force}:
     * now, whatever the interval (before a partition is given up, at the end).
     */
    private void commit(boolean force) {
        long now = System.nanoTime();
        if (!force && now - lastCommit < config.commitInterval().toNanos()) {
            return;
        }
        List<Completion> batch = new ArrayList<>();
        for (Completion c; (c = completions.poll()) != null; ) {
            if (progress.get(c.job().partition()) == c.job().progress) {
                batch.add(c);
            }
        }
        if (batch.isEmpty() && progress.values().stream().noneMatch(PartitionProgress::needsCommit)) {
            return;
        }
        lastCommit = now;
        Refusals<Completion> refused = new Refusals<>();
        List<Completion> finished = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        try {
            producer.beginTransaction();
            for (Completion c : batch) {
                for (ProducerRecord<byte[], byte[]> out : c.outputs()) {
                    producer.send(out, (meta, e) -> refused.delivered(c, e));
                }
                if (c.finishes()) {
                    c.job().progress.finished(c.job().record().offset());
                    finished.add(c);
                }
            }
            for (PartitionProgress p : progress.values()) {
                if (p.needsCommit()) {
                    offsets.put(p.partition(), new OffsetAndMetadata(p.committable(), p.metadata()));
                }
            }
            if (!offsets.isEmpty()) {
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            }
            producer.commitTransaction();
        } catch (ProducerFencedException e) {
            throw e;
        } catch (KafkaException e) {
            aborts.incrementAndGet();
            LOG.warn("{}: transaction aborted ({}); {} completions are written again", config.name(), e.toString(), batch.size());
            producer.abortTransaction(); // when this fails too, the session restarts
            for (Completion c : finished) {
                c.job().progress.reopen(c.job().record().offset());
            }
            for (Completion c : batch) {
                KafkaException why = refused.of(c);
                completions.add(why == null ? c : replacement(c, why));
            }
            return;
        }
        commits.incrementAndGet();
        offsets.forEach((tp, o) -> progress.get(tp).committed(o.offset(), o.metadata()));
        openJobs -= finished.size();
        for (Completion c : batch) {
            if (c.written() != null) {
                c.written().run();
            }
        }
    }

    private Completion replacement(Completion c, KafkaException why) {
        Job job = c.job();
        if (job.replaced) {
            LOG.error("{}: the replacement outputs of {}-{}@{} were refused too ({}); the record completes without outputs",
                    config.name(), job.record().topic(), job.record().partition(), job.record().offset(), why.toString());
            return new Completion(job, List.of(), c.finishes(), c.written());
        }
        job.replaced = true;
        LOG.warn("{}: outputs of {}-{}@{} refused by the broker ({}); writing the handler's replacement",
                config.name(), job.record().topic(), job.record().partition(), job.record().offset(), why.toString());
        return new Completion(job, List.copyOf(handler.unwritable(job, c.outputs(), why)), c.finishes(), c.written());
    }

    /** Errors that come from the record itself and would come back on every attempt. */
    public static boolean isRecordError(KafkaException e) {
        return e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException
                || e instanceof InvalidRecordException || e instanceof SerializationException;
    }

    private void flowControl() {
        Set<TopicPartition> toPause = new HashSet<>();
        Set<TopicPartition> toResume = new HashSet<>();
        for (TopicPartition tp : consumer.assignment()) {
            boolean more = running && handler.fetchMore(tp);
            if (!more && !paused.contains(tp)) {
                toPause.add(tp);
            } else if (more && paused.contains(tp)) {
                toResume.add(tp);
            }
        }
        if (!toPause.isEmpty()) {
            consumer.pause(toPause);
            paused.addAll(toPause);
        }
        if (!toResume.isEmpty()) {
            consumer.resume(toResume);
            paused.removeAll(toResume);
        }
        pausedCount = paused.size();
    }

    /** On a clean stop: fetch nothing more, and write what finishes within the grace period. */
    private void drain() {
        consumer.pause(consumer.assignment());
        long deadline = System.nanoTime() + grace.toNanos();
        while (openJobs > 0 && System.nanoTime() < deadline) {
            consumer.poll(POLL); // stays in the group (and runs rebalance callbacks) while jobs finish
            commit(false);
        }
        commit(true);
    }

    private void forget(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            PartitionProgress p = progress.remove(tp);
            if (p != null) {
                p.revoke();
                openJobs -= p.openCount();
            }
            paused.remove(tp);
        }
        pausedCount = paused.size();
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            try {
                commit(true); // what is finished is written before another member takes over
            } catch (KafkaException e) {
                LOG.warn("{}: could not write finished work before giving partitions up ({}); it is done again",
                        config.name(), e.toString());
            }
            forget(partitions);
            hook.rebalanced(Set.copyOf(progress.keySet()));
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
                for (TopicPartition tp : partitions) {
                    OffsetAndMetadata o = committed.get(tp);
                    progress.put(tp, o == null ? new PartitionProgress(tp, -1, null)
                            : new PartitionProgress(tp, o.offset(), o.metadata()));
                }
            }
            hook.rebalanced(Set.copyOf(progress.keySet()));
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            forget(partitions);
            hook.rebalanced(Set.copyOf(progress.keySet()));
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops at once: what is not finished is done again by the next owner. */
    @Override
    public void close() {
        close(Duration.ZERO);
    }

    /** Stops fetching, writes what finishes within {@code grace}, leaves the group and closes the clients. */
    public void close(Duration grace) {
        this.grace = grace;
        running = false;
        try {
            if (!stopped.await(grace.toMillis() + 30_000, TimeUnit.MILLISECONDS)) {
                LOG.warn("{}: the loop did not stop in time", config.name());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
