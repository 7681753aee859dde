package io.mmgr.stream.embedded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the transactions that partitions of the scorer hold open after their coordinator has finished them
 * (KIP-664's "hanging transactions"), as their coordinator decided.
 *
 * <p>Kafka 4.4 makes them when a lone broker restarts after a kill -9 while a transaction was prepared: the
 * coordinator, loaded from the broker's own metadata before the controller has it back, resends the missing
 * markers, finds the partitions leaderless for a moment (the new incarnation is fenced until it registers
 * again), takes them for deleted partitions ({@code TransactionMarkerChannelManager}: "these partitions are
 * likely deleted already and hence can be skipped", since {@code KRaftMetadataCache#getPartitionLeaderEndpoint}
 * answers empty for a partition without a leader) and completes the transaction without them. Every partition
 * still unmarked then stays open: read_committed readers stop there, and a group whose offsets it held cannot
 * read them (a stream thread's tasks log that the committed offsets "could not be determined" for ever). Seen
 * 4 times in 30 kill -9 restarts of {@code bin/mmgr bench restart}, twice with some partitions already marked.
 *
 * <p>A sweep lists the open transactions on the scorer's partitions (its topics, and the offsets partitions of
 * its groups). One still open with the same producer, epoch and start offset after {@code endAfter} (longer
 * than any transaction of the scorer may live: 10 s and the coordinator's timeout check), which its coordinator
 * does not hold open on that partition, is hanging: {@code kafka-transactions.sh find-hanging}'s test (tools'
 * {@code TransactionsCommand}: the partition missing from the producer's transaction), with the epoch compared
 * too. It is ended as the coordinator decided, read back from its log ({@link TransactionOutcomes}): a commit
 * gets its commit marker ({@link CommitMarker}), an abort its abort; one whose producer no coordinator knows
 * is aborted, as the tool would. Aborting a committed transaction's unmarked partitions would undo part of it
 * (its offsets, with its outputs kept: the input scored twice). The sweeps run on their own thread, never a
 * stream thread.
 *
 * <p>It runs only beside the embedded broker, whose fault it works around: the lab hands it to a scorer on
 * that broker; a scorer on a cluster it is given has no sweep.
 */
public final class HangingTransactions implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);

    static final String OFFSETS_TOPIC = "__consumer_offsets";

    /** An open transaction as one partition sees it. */
    record Open(TopicPartition partition, long producerId, int producerEpoch, long startOffset) {
    }

    /** What the sweeps look at: topics by name, and the groups whose offsets partitions count too. */
    public record Scope(Predicate<String> topics, Set<String> groups) {
    }

    /** Ends a transaction open this long and not held open by its coordinator (0: never). */
    static final String END_AFTER = "mmgr.hanging-transactions.end-after-ms";
    static final Duration DEFAULT_END_AFTER = Duration.ofSeconds(30);
    static final Duration SWEEP_INTERVAL = Duration.ofSeconds(10);

    private final Admin admin;
    private final boolean ownsAdmin;
    private final Map<String, Object> clientConfig;
    private final TransactionOutcomes outcomes;
    private final Scope scope;
    private final Duration endAfter;
    private final Duration timeout;
    private final LongSupplier clock;
    private final AtomicInteger ended = new AtomicInteger();
    private Map<Open, Long> firstSeen = new HashMap<>();
    private Map<TopicPartition, Node> leaders = new HashMap<>();
    private final Set<Open> reported = new HashSet<>();
    private ScheduledExecutorService sweeper;

    HangingTransactions(Admin admin, Map<String, Object> clientConfig, Scope scope, Duration endAfter, Duration timeout,
                        LongSupplier clock) {
        this(admin, false, clientConfig, scope, endAfter, timeout, clock);
    }

    private HangingTransactions(Admin admin, boolean ownsAdmin, Map<String, Object> clientConfig, Scope scope,
                                Duration endAfter, Duration timeout, LongSupplier clock) {
        this.admin = admin;
        this.ownsAdmin = ownsAdmin;
        this.clientConfig = clientConfig;
        this.outcomes = new TransactionOutcomes(admin, clientConfig, timeout);
        this.scope = scope;
        this.endAfter = endAfter;
        this.timeout = timeout;
        this.clock = clock;
    }

    /**
     * Sweeps the scorer's partitions every 10 s with an admin client of its own, or returns null when the
     * setting turns it off (0).
     */
    public static HangingTransactions forScorer(Map<String, Object> adminConfig, Map<String, ?> settings, Scope scope) {
        Object v = settings.get(END_AFTER);
        Duration after = v == null ? DEFAULT_END_AFTER : Duration.ofMillis(parseMillis(v));
        if (after.isZero()) {
            return null;
        }
        LOG.info("sweeping the scorer's partitions for hanging transactions every {} s (embedded broker)",
                SWEEP_INTERVAL.toSeconds());
        return new HangingTransactions(Admin.create(adminConfig), true, adminConfig, scope, after, Duration.ofSeconds(10),
                System::currentTimeMillis).start(SWEEP_INTERVAL);
    }

    private static long parseMillis(Object v) {
        try {
            long ms = Long.parseLong(v.toString().trim());
            if (ms >= 0) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(END_AFTER + " must be a number of milliseconds, 0 or more (0: never): " + v);
    }

    /** Sweeps every {@code interval} on a daemon thread of its own until closed. */
    HangingTransactions start(Duration interval) {
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hanging-transactions");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                sweep();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // a broker restarting or unreachable: the next sweep asks again
                LOG.debug("hanging-transaction sweep failed: {}", e.toString());
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** Hanging transactions ended so far (committed or aborted). */
    int ended() {
        return ended.get();
    }

    /** One sweep: returns the transactions it ended. */
    synchronized List<Open> sweep() throws Exception {
        long now = clock.getAsLong();
        Map<Open, Long> seen = new HashMap<>();
        List<Open> candidates = new ArrayList<>();
        Map<Open, Integer> coordinatorEpochs = new HashMap<>();
        for (var e : describeProducers(partitions()).entrySet()) {
            for (ProducerState p : e.getValue().activeProducers()) {
                if (p.currentTransactionStartOffset().isEmpty()) {
                    continue;
                }
                Open o = new Open(e.getKey(), p.producerId(), p.producerEpoch(), p.currentTransactionStartOffset().getAsLong());
                long first = firstSeen.getOrDefault(o, now);
                seen.put(o, first);
                coordinatorEpochs.put(o, p.coordinatorEpoch().orElse(-1));
                if (now - first >= endAfter.toMillis()) {
                    candidates.add(o);
                }
            }
        }
        firstSeen = seen;
        if (candidates.isEmpty()) {
            return List.of();
        }
        Map<Long, View> byProducer = coordinatorViews(candidates);
        Map<String, Optional<TransactionOutcomes.Decision>> decisions = new HashMap<>();
        List<Open> done = new ArrayList<>();
        for (Open o : candidates) {
            View v = byProducer.get(o.producerId());
            if (v != null && holdsOpen(v.description(), o)) {
                continue;
            }
            // a coordinator that knows no such producer has nothing of its to commit: abort, as kafka-transactions.sh
            Optional<TransactionOutcomes.Decision> decision = v == null ? Optional.of(ABORT) : decisions.computeIfAbsent(
                    v.transactionalId() + "/" + o.producerId() + "/" + o.producerEpoch(), k -> decide(v, o));
            if (decision == null) {
                continue; // its coordinator's log could not be read this time: the next sweep asks again
            }
            if (decision.isEmpty() || (decision.get().commit() && !CommitMarker.canWrite(clientConfig))) {
                if (reported.add(o)) {
                    LOG.error("a hanging transaction on {}: producer {} ({}), epoch {}, open since offset {}; {}: it stops "
                            + "read_committed readers of that partition until it is ended", o.partition(), o.producerId(),
                            v.transactionalId(), o.producerEpoch(), o.startOffset(), decision.isEmpty()
                                    ? "its coordinator's log no longer says how it ended"
                                    : "it was committed, and its commit marker can only be written over a plain connection");
                }
                continue;
            }
            // an epoch below 0 is a transaction that never ended one before: 0 is at most any coordinator's
            // epoch, as kafka-transactions.sh takes it
            int coordinatorEpoch = Math.max(0, coordinatorEpochs.get(o));
            try {
                if (decision.get().commit()) {
                    Node leader = leaders.get(o.partition());
                    if (leader == null || leader.isEmpty()) {
                        throw new java.io.IOException("the partition has no leader now");
                    }
                    CommitMarker.write(leader, o.partition(), o.producerId(), decision.get(), coordinatorEpoch, timeout);
                } else {
                    admin.abortTransaction(new AbortTransactionSpec(o.partition(), o.producerId(), (short) o.producerEpoch(),
                            coordinatorEpoch)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (java.util.concurrent.ExecutionException | java.io.IOException e) {
                // another instance's sweep may have ended it first; the next sweep sees whether it is still open
                LOG.info("could not end the hanging transaction of producer {} on {}: {}", o.producerId(), o.partition(),
                        e instanceof java.util.concurrent.ExecutionException x ? x.getCause().toString() : e.toString());
                continue;
            }
            ended.incrementAndGet();
            long openFor = now - firstSeen.remove(o);
            done.add(o);
            LOG.warn("{} a hanging transaction on {} ({}): producer {}, epoch {}, open since offset {} for {} s",
                    decision.get().commit() ? "committed" : "aborted", o.partition(), v == null
                            ? "no coordinator knows its producer"
                            : "as its coordinator decided; it has " + v.description().state() + " at epoch "
                            + v.description().producerEpoch() + " without this partition",
                    o.producerId(), o.producerEpoch(), o.startOffset(), openFor / 1000);
        }
        return done;
    }

    private static final TransactionOutcomes.Decision ABORT = new TransactionOutcomes.Decision(false, (short) -1, (short) 0);

    /** The producer's transaction id and what its coordinator says of it now. */
    private record View(String transactionalId, TransactionDescription description) {
    }

    /** The decision; empty when the log does not have it, null when the log could not be read. */
    private Optional<TransactionOutcomes.Decision> decide(View v, Open o) {
        try {
            return outcomes.decision(v.transactionalId(), o.producerId(), o.producerEpoch());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            LOG.debug("cannot read how transaction {} ended: {}", v.transactionalId(), e.toString());
            return null;
        }
    }

    /**
     * Whether the coordinator still holds the transaction open on that partition: its markers are still to
     * come. A transaction prepared to end has its epoch raised by one (transaction version 2).
     */
    static boolean holdsOpen(TransactionDescription d, Open o) {
        boolean open = switch (d.state()) {
            case ONGOING, PREPARE_COMMIT, PREPARE_ABORT, PREPARE_EPOCH_FENCE -> true;
            default -> false;
        };
        return open && d.topicPartitions().contains(o.partition())
                && (d.producerEpoch() == o.producerEpoch() || d.producerEpoch() == o.producerEpoch() + 1);
    }

    private Map<Long, View> coordinatorViews(List<Open> candidates) throws Exception {
        Set<Long> producers = new HashSet<>();
        candidates.forEach(o -> producers.add(o.producerId()));
        Collection<TransactionListing> listed = admin.listTransactions(new ListTransactionsOptions()
                .filterProducerIds(producers)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<Long, View> out = new HashMap<>();
        for (TransactionListing l : listed) {
            if (!producers.contains(l.producerId())) {
                continue;
            }
            try {
                out.put(l.producerId(), new View(l.transactionalId(), admin.describeTransactions(List.of(l.transactionalId()))
                        .description(l.transactionalId()).get(timeout.toMillis(), TimeUnit.MILLISECONDS)));
            } catch (java.util.concurrent.ExecutionException e) {
                // gone since it was listed: the coordinator holds nothing open for it
            }
        }
        return out;
    }

    private Map<TopicPartition, DescribeProducersResult.PartitionProducerState> describeProducers(
            Collection<TopicPartition> partitions) throws Exception {
        if (partitions.isEmpty()) {
            return Map.of();
        }
        return admin.describeProducers(partitions).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The scorer's partitions: its topics' and the offsets partitions its groups commit to. */
    private List<TopicPartition> partitions() throws Exception {
        List<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).stream()
                .filter(t -> t.equals(OFFSETS_TOPIC) || scope.topics().test(t)).toList();
        List<TopicPartition> out = new ArrayList<>();
        Map<TopicPartition, Node> leaderOf = new HashMap<>();
        for (var e : admin.describeTopics(topics).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS).entrySet()) {
            int count = e.getValue().partitions().size();
            e.getValue().partitions().forEach(p -> leaderOf.put(new TopicPartition(e.getKey(), p.partition()), p.leader()));
            if (e.getKey().equals(OFFSETS_TOPIC)) {
                scope.groups().stream().map(g -> offsetsPartition(g, count)).distinct()
                        .forEach(p -> out.add(new TopicPartition(OFFSETS_TOPIC, p)));
            } else {
                e.getValue().partitions().forEach(p -> out.add(new TopicPartition(e.getKey(), p.partition())));
            }
        }
        leaders = leaderOf;
        return out;
    }

    /** The offsets partition a group commits to: Kafka's own rule (GroupCoordinatorService#partitionFor). */
    static int offsetsPartition(String group, int partitions) {
        return Utils.abs(group.hashCode()) % partitions;
    }

    @Override
    public void close() {
        Optional.ofNullable(sweeper).ifPresent(ScheduledExecutorService::shutdownNow);
        if (ownsAdmin) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
