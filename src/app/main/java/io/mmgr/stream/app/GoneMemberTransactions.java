package io.mmgr.stream.app;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends at once the open transactions of scorers that left the group for good, instead of leaving them to
 * {@code transaction.timeout.ms}.
 *
 * <p>Why: a scorer killed for good leaves each of its transactional producers with a transaction open. Nobody
 * reuses its {@code transactional.id} (Kafka Streams' is {@code <application>-<process id>-<thread>}, and the
 * process id lives in the dead scorer's state directory), so the coordinator aborts it only when it times out,
 * 20 s after it began ({@code FailoverTiming}). Until then every read_committed reader of the partitions it
 * wrote stops at it: the survivor's restore of the dead scorer's tasks (which waits for the changelogs' ends)
 * and everyone reading the scores. In a cluster run the survivor's rebalance began 15 s after a kill, and
 * its restore of a few dozen records ended only at 20 s, with the timeout (docs/operations.md, "Failover
 * timing"); in another, the survivor, leading the group's rebalance, waited in the assignment itself for the
 * committed offsets the open transaction held ("unstable offsets") until its own session ran out, and scored
 * again only 26 s after the kill. The member leaves the group when its session ends; fencing its
 * transactional ids then (KIP-618's {@code fenceProducers}, what a restarted producer's {@code initTransactions}
 * does to its predecessor) aborts its transaction at once.
 *
 * <p>What counts as gone: a Kafka Streams transaction of this application open for at least {@link #MIN_AGE}
 * whose process id is in no member's client id. A live stream thread commits every 50 ms, a starting scorer
 * joins the group before it is given tasks (and so before it opens a transaction), and one that lost its
 * session is a zombie whose tasks have moved: fencing it is what exactly-once wants anyway (Kafka Streams
 * takes the fenced producer as a migrated task, rejoins and makes a new one). The workers' transactions are
 * left to their timeout: a fenced judge worker stops for good, which a worker that was only paused past its
 * session must not.
 *
 * <p>When: every second once the scorer has run (not while it starts: a dead peer's transactions then end at
 * their timeout, as before). Not only around the rebalances Kafka Streams reports: the survivor above stayed
 * RUNNING, as its stream thread was held inside the rebalance it led, until that rebalance failed 15 s later.
 * A check costs one request per broker (transactions open for {@link #MIN_AGE} or more: none while every
 * member lives) and, only when there is one, a description of the group.
 */
final class GoneMemberTransactions implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GoneMemberTransactions.class);

    /** How long a transaction must have been open before its owner's absence counts (two heartbeats of a session). */
    static final Duration MIN_AGE = Duration.ofSeconds(5);

    private static final Pattern PROCESS_ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private final Map<String, Object> adminConfig;
    private final String applicationId;
    /** Kafka Streams' exactly-once v2 ids of this application: {@code <application>-<process id>-<thread index>}. */
    private final Pattern streamsIds;
    private final Duration minAge;
    private final ScheduledExecutorService timer;
    private volatile boolean ran;
    private volatile boolean unsupported;
    private Admin admin; // made at the first check, kept: one per check would log its whole configuration each time

    /**
     * @param adminConfig   the scorer's client properties, with its bootstrap servers
     * @param applicationId the Kafka Streams application id (its group)
     * @param minAge        how long a transaction must be open before its owner's absence counts
     */
    GoneMemberTransactions(Map<String, Object> adminConfig, String applicationId, Duration minAge) {
        this.adminConfig = Map.copyOf(adminConfig);
        this.applicationId = applicationId;
        this.streamsIds = Pattern.compile("^" + Pattern.quote(applicationId) + "-(" + PROCESS_ID.pattern() + ")-\\d+$");
        this.minAge = minAge;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gone-member-transactions");
            t.setDaemon(true);
            return t;
        });
    }

    /** Checks once a second from the first time {@code state} (a field read) says RUNNING. */
    GoneMemberTransactions watch(Supplier<KafkaStreams.State> state) {
        timer.scheduleWithFixedDelay(() -> {
            try {
                if (!ran && state.get() == KafkaStreams.State.RUNNING) {
                    ran = true;
                }
                if (!unsupported && ran) {
                    fenceGone();
                }
            } catch (RuntimeException e) {
                LOG.debug("gone members' transactions not checked: {}", e.toString());
            }
        }, 1, 1, TimeUnit.SECONDS);
        return this;
    }

    /** One check: fences the gone members' transactional ids with a transaction open; returns them. */
    synchronized Set<String> fenceGone() {
        try {
            if (admin == null) {
                admin = Admin.create(adminConfig);
            }
            Set<String> gone = gone(admin);
            if (!gone.isEmpty()) {
                admin.fenceProducers(gone).all().get(30, TimeUnit.SECONDS);
                LOG.info("aborted the open transactions of {} (their members left the group; otherwise they would block "
                        + "read_committed readers until transaction.timeout.ms)", gone);
            }
            return gone;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnsupportedVersionException) {
                // a broker before Kafka 3.8 cannot list transactions by age: the timeout ends them, as before
                unsupported = true;
                LOG.info("the brokers cannot list transactions by age; a lost scorer's transactions end at their timeout");
            } else {
                LOG.debug("gone members' transactions not checked: {}", e.getCause().toString());
            }
            return Set.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Set.of();
        } catch (java.util.concurrent.TimeoutException e) {
            LOG.debug("gone members' transactions not checked: no answer within 30 s");
            return Set.of();
        }
    }

    private Set<String> gone(Admin admin) throws ExecutionException, InterruptedException, java.util.concurrent.TimeoutException {
        Collection<TransactionListing> open = admin.listTransactions(new ListTransactionsOptions()
                        .filterStates(List.of(TransactionState.ONGOING)).filterOnDuration(minAge.toMillis()))
                .all().get(30, TimeUnit.SECONDS);
        Map<String, String> owner = new HashMap<>();
        for (TransactionListing t : open) {
            Matcher m = streamsIds.matcher(t.transactionalId());
            if (m.matches()) {
                owner.put(t.transactionalId(), m.group(1));
            }
        }
        if (owner.isEmpty()) {
            return Set.of();
        }
        ConsumerGroupDescription group;
        try {
            group = admin.describeConsumerGroups(List.of(applicationId)).describedGroups().get(applicationId)
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return Set.of();
            }
            throw e;
        }
        Set<String> live = new HashSet<>();
        for (MemberDescription m : group.members()) {
            Matcher pid = PROCESS_ID.matcher(m.clientId());
            while (pid.find()) {
                live.add(pid.group());
            }
        }
        // no process id in any member's client id (none joined yet, or a client.id set with -P): owners cannot be told
        if (live.isEmpty()) {
            return Set.of();
        }
        Set<String> gone = new TreeSet<>();
        owner.forEach((id, process) -> {
            if (!live.contains(process)) {
                gone.add(id);
            }
        });
        return gone;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            if (!timer.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.debug("a check of gone members' transactions still runs at close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
        }
    }
}
