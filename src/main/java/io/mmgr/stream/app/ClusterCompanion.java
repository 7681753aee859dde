package io.mmgr.stream.app;

import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What runs beside a scorer on the cluster it joined, from the broker's first answer until the scorer closes.
 * The embedded stack brings one ({@link LocalStack.Starting#companion()}: its hanging-transaction sweep, which
 * works around a fault of a lone embedded broker); a scorer on a team's own cluster runs {@link #NONE}.
 */
@FunctionalInterface
public interface ClusterCompanion {

    /** Nothing beside the scorer. */
    ClusterCompanion NONE = (clientConfig, kafkaOverrides, partitions) -> null;

    /**
     * Starts it; returns what the scorer closes when it closes, or null when there is nothing to run.
     *
     * @param clientConfig   the scorer's Kafka client properties, with its bootstrap servers
     * @param kafkaOverrides the {@code -P} settings as given (a companion may read its own {@code mmgr.*} keys there)
     * @param partitions     what the scorer's transactions write
     */
    AutoCloseable start(Map<String, Object> clientConfig, Map<String, String> kafkaOverrides, ScorerPartitions partitions);

    /** The partitions a scorer's transactions write: its topics by name, and the groups whose offsets partitions count too. */
    record ScorerPartitions(Predicate<String> topics, Set<String> groups) {
        public ScorerPartitions {
            groups = Set.copyOf(groups);
        }
    }
}
