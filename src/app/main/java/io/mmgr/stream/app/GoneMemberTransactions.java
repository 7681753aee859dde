package io.mmgr.stream.app;

import java.time.Duration;
import java.util.ArrayList;
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
 * timing"). The member left the group when its session ended, which the rebalance tells us; fencing its
 * transactional ids (KIP-618's {@code fenceProducers}, what a restarted producer's {@code initTransactions}
 * does to its predecessor) aborts its transaction then.
 *
 * <p>What counts as gone: a transaction open for at least {@link #MIN_AGE} whose owner is not a member of the
 * group it belongs to. A live producer of ours commits every 50 ms, a starting scorer joins the group before
 * it is given tasks (and so before it opens a transaction), and one that lost its session is a zombie whose
 * tasks have moved: fencing it is what exactly-once wants anyway (its thread rejoins with a new producer).
 * Streams' ids are matched to members by the process id in the members' client ids; a worker's
 * ({@code <group>-<instance id>}) by the members' {@code group.instance.id}, so a worker group with any dynamic
 * member is left alone (its ids cannot be told apart).
 *
 * <p>When: only around rebalances. A check every second while Kafka Streams is rebalancing and for
 * {@link #AFTER_REBALANCE} after it; nothing at all while it just runs.
 */
final class GoneMemberTransactions implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GoneMemberTransactions.class);

    /** How long a transaction must have been open before its owner's absence counts (two heartbeats of a session). */
    static final Duration MIN_AGE = Duration.ofSeconds(5);

    /** How long after a rebalance the checks go on: a transaction younger than {@link #MIN_AGE} then is caught later. */
    static final Duration AFTER_REBALANCE = Duration.ofSeconds(25);

    private static final Pattern PROCESS_ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private final Map<String, Object> adminConfig;
    private final String applicationId;
    private final Collection<String> workerGroups;
    private final Duration minAge;
    private final ScheduledExecutorService timer;
    private volatile long checkUntil;
    private volatile boolean unsupported;
    private Admin admin; // made at the first check, kept: one per check would log its whole configuration each time

    /**
     * @param adminConfig   the scorer's client properties, with its bootstrap servers
     * @param applicationId the Kafka Streams application id (its group)
     * @param workerGroups  the groups of the workers whose transactional ids are {@code <group>-<instance id>}
     * @param minAge        how long a transaction must be open before its owner's absence counts
     */
    GoneMemberTransactions(Map<String, Object> adminConfig, String applicationId, Collection<String> workerGroups, Duration minAge) {
        this.adminConfig = Map.copyOf(adminConfig);
        this.applicationId = applicationId;
        this.workerGroups = List.copyOf(workerGroups);
        this.minAge = minAge;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gone-member-transactions");
            t.setDaemon(true);
            return t;
        });
    }

    /** Watches {@code state} once a second (a field read) and checks around each rebalance it sees. */
    GoneMemberTransactions watch(Supplier<KafkaStreams.State> state) {
        timer.scheduleWithFixedDelay(() -> {
            try {
                long now = System.nanoTime();
                if (state.get() == KafkaStreams.State.REBALANCING) {
                    checkUntil = now + AFTER_REBALANCE.toNanos();
                }
                if (!unsupported && now - checkUntil < 0) {
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
        // the owner each open transaction would have: a Streams process id, or a worker group's instance id
        Map<String, String> streamsOwner = new HashMap<>();
        Map<String, Map<String, String>> workerOwner = new HashMap<>();
        String streamsPrefix = applicationId + "-";
        for (TransactionListing t : open) {
            String id = t.transactionalId();
            String worker = workerGroups.stream().filter(g -> id.startsWith(g + "-")).findFirst().orElse(null);
            if (worker != null) {
                workerOwner.computeIfAbsent(worker, g -> new HashMap<>()).put(id, id.substring(worker.length() + 1));
            } else if (id.startsWith(streamsPrefix)) {
                Matcher m = Pattern.compile("^(" + PROCESS_ID.pattern() + ")-\\d+$").matcher(id.substring(streamsPrefix.length()));
                if (m.matches()) {
                    streamsOwner.put(id, m.group(1));
                }
            }
        }
        if (streamsOwner.isEmpty() && workerOwner.isEmpty()) {
            return Set.of();
        }
        List<String> groups = new ArrayList<>();
        if (!streamsOwner.isEmpty()) {
            groups.add(applicationId);
        }
        groups.addAll(workerOwner.keySet());
        Map<String, ConsumerGroupDescription> described = describe(admin, groups);
        Set<String> gone = new TreeSet<>();
        ConsumerGroupDescription streamsGroup = described.get(applicationId);
        if (!streamsOwner.isEmpty() && streamsGroup != null && !streamsGroup.members().isEmpty()) {
            Set<String> live = new HashSet<>();
            for (MemberDescription m : streamsGroup.members()) {
                Matcher pid = PROCESS_ID.matcher(m.clientId());
                while (pid.find()) {
                    live.add(pid.group());
                }
            }
            // no process id in any member's client id (a client.id set by -P): the owners cannot be told, leave them
            if (!live.isEmpty()) {
                streamsOwner.forEach((id, process) -> {
                    if (!live.contains(process)) {
                        gone.add(id);
                    }
                });
            }
        }
        workerOwner.forEach((group, owners) -> {
            ConsumerGroupDescription d = described.get(group);
            if (d == null || d.members().isEmpty() || d.members().stream().anyMatch(m -> m.groupInstanceId().isEmpty())) {
                return; // dynamic members: their transactional ids cannot be matched to them
            }
            Set<String> live = new HashSet<>();
            d.members().forEach(m -> live.add(m.groupInstanceId().get()));
            owners.forEach((id, instance) -> {
                if (!live.contains(instance)) {
                    gone.add(id);
                }
            });
        });
        return gone;
    }

    private static Map<String, ConsumerGroupDescription> describe(Admin admin, List<String> groups)
            throws InterruptedException, java.util.concurrent.TimeoutException {
        Map<String, ConsumerGroupDescription> out = new HashMap<>();
        var futures = admin.describeConsumerGroups(groups).describedGroups();
        for (String g : groups) {
            try {
                out.put(g, futures.get(g).get(30, TimeUnit.SECONDS));
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                    LOG.debug("group {} not described: {}", g, e.getCause().toString());
                }
            }
        }
        return out;
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
