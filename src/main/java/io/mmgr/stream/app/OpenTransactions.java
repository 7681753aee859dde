package io.mmgr.stream.app;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;

/**
 * The transactions a broker holds open, for a start that hangs: a task whose committed offsets "could not be
 * determined" waits on a transaction that wrote offsets for its group and never ended. Lists what the
 * transaction coordinators call open (id, state, age, partitions) and the producers the offsets topic itself
 * has an open transaction for; one the coordinators do not list is a hanging transaction (KIP-664's term),
 * which no timeout ends (the embedded stack's sweep ends it; on a team's own cluster its operator does).
 */
final class OpenTransactions {

    static final String OFFSETS_TOPIC = "__consumer_offsets";

    private OpenTransactions() {
    }

    /** One line; "none" when nothing is open, the error when the broker cannot say. */
    static String describe(Admin admin, Duration timeout) {
        try {
            long wait = timeout.toMillis();
            Collection<TransactionListing> listed = admin.listTransactions().all().get(wait, TimeUnit.MILLISECONDS);
            List<String> open = listed.stream()
                    .filter(t -> isOpen(t.state()))
                    .map(TransactionListing::transactionalId)
                    .sorted()
                    .toList();
            List<String> parts = new ArrayList<>();
            Set<Long> coordinated = new java.util.HashSet<>();
            if (!open.isEmpty()) {
                Map<String, TransactionDescription> described = admin.describeTransactions(open).all()
                        .get(wait, TimeUnit.MILLISECONDS);
                long now = System.currentTimeMillis();
                for (var e : new TreeMap<>(described).entrySet()) {
                    TransactionDescription d = e.getValue();
                    coordinated.add(d.producerId());
                    parts.add(e.getKey() + " " + d.state() + describeAge(d, now) + " (producer " + d.producerId()
                            + ", epoch " + d.producerEpoch() + ") on " + partitions(d.topicPartitions()));
                }
            }
            parts.addAll(hanging(admin, coordinated, wait));
            return parts.isEmpty() ? "none" : String.join("; ", parts);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown (interrupted)";
        } catch (Exception e) {
            return "unknown (" + e + ")";
        }
    }

    /** Producers with a transaction open on the offsets topic that no coordinator lists (none before any group commits). */
    private static List<String> hanging(Admin admin, Set<Long> coordinated, long wait) throws Exception {
        List<TopicPartition> offsets;
        try {
            offsets = admin.describeTopics(List.of(OFFSETS_TOPIC)).allTopicNames()
                    .get(wait, TimeUnit.MILLISECONDS).get(OFFSETS_TOPIC).partitions().stream()
                    .map(p -> new TopicPartition(OFFSETS_TOPIC, p.partition())).toList();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
                return List.of();
            }
            throw e;
        }
        List<String> out = new ArrayList<>();
        DescribeProducersResult producers = admin.describeProducers(offsets);
        Map<TopicPartition, DescribeProducersResult.PartitionProducerState> byPartition = new TreeMap<>(
                java.util.Comparator.comparing(TopicPartition::toString));
        byPartition.putAll(producers.all().get(wait, TimeUnit.MILLISECONDS));
        for (var e : byPartition.entrySet()) {
            for (ProducerState p : e.getValue().activeProducers()) {
                if (p.currentTransactionStartOffset().isPresent() && !coordinated.contains(p.producerId())) {
                    out.add("hanging on " + e.getKey() + ": producer " + p.producerId() + ", epoch " + p.producerEpoch()
                            + ", open since offset " + p.currentTransactionStartOffset().getAsLong()
                            + " (no coordinator lists it open)");
                }
            }
        }
        return out;
    }

    /** Whether a coordinator in this state still holds its transaction open: its markers are still to come. */
    static boolean isOpen(TransactionState s) {
        return s == TransactionState.ONGOING || s == TransactionState.PREPARE_COMMIT || s == TransactionState.PREPARE_ABORT
                || s == TransactionState.PREPARE_EPOCH_FENCE;
    }

    private static String describeAge(TransactionDescription d, long now) {
        return d.transactionStartTimeMs().isPresent()
                ? String.format(java.util.Locale.ROOT, " for %.1f s", (now - d.transactionStartTimeMs().getAsLong()) / 1000.0)
                : "";
    }

    private static String partitions(Set<TopicPartition> tps) {
        return tps.stream().map(TopicPartition::toString).sorted().collect(Collectors.joining(", ", "[", "]"));
    }
}
