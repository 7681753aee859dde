package io.mmgr.stream.topology.intake;

import io.mmgr.stream.contract.DeadLetters;
import java.time.Duration;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An input record with a schema id not seen yet needs the registry. While the registry is out, intake
 * waits (retrying each second, well within the consumer's poll interval) rather than fail the task at
 * once: a replaced stream thread costs a rebalance that waits out the old member's session.
 */
final class RegistryPatience {

    /** How long intake waits for the registry before failing the task (the poll interval allows 5 minutes). */
    static final Duration PATIENCE = Duration.ofSeconds(60);

    private static final Logger LOG = LoggerFactory.getLogger(RegistryPatience.class);

    private RegistryPatience() {
    }

    /** Deserializes {@code value}; a registry outage is waited out, then rethrown (the task fails and retries). */
    static <T> T deserialize(Deserializer<T> deserializer, String topic, byte[] value) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            try {
                return deserializer.deserialize(topic, value);
            } catch (RuntimeException e) {
                if (!DeadLetters.isRegistryOutage(e) || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                LOG.warn("schema registry unavailable, waiting: {}", DeadLetters.describe(e));
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
