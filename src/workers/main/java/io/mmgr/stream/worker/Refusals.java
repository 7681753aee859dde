package io.mmgr.stream.worker;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.KafkaException;

/**
 * The records of one transaction the broker or producer refused for what they are (too large, invalid),
 * told apart from the records that failed only beside them. A refusal puts the transaction in error, and
 * the producer's sender then fails every batch still waiting with that same exception object
 * ({@code RecordAccumulator.abortUndrainedBatches(transactionManager.lastError())} in kafka-clients):
 * only the first delivery of an exception, to the record it belongs to, is a refusal. Callbacks come from
 * the sending thread and the producer's I/O thread.
 */
final class Refusals<K> {

    private final Map<K, KafkaException> refused = new ConcurrentHashMap<>();
    private final Set<Throwable> seen = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    /** A send callback's outcome for {@code key}'s output. */
    void delivered(K key, Exception e) {
        if (e instanceof KafkaException k && WorkLoop.isRecordError(k) && seen.add(k)) {
            refused.putIfAbsent(key, k);
        }
    }

    /** Why {@code key}'s output was refused, or null when it was not. */
    KafkaException of(K key) {
        return refused.get(key);
    }
}
