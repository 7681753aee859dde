package io.mmgr.stream.embedded;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.coordinator.transaction.TransactionState;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogKey;
import org.apache.kafka.coordinator.transaction.generated.TransactionLogValue;

/**
 * How a transaction coordinator decided a producer's transaction, read back from the coordinator's own log
 * ({@code __transaction_state}, in the coordinator's record format): the first commit or abort it recorded
 * after the transaction's {@code Ongoing} state at that epoch. The coordinator keeps only a producer's current
 * state, and once a new incarnation of the producer has started that no longer says how the transaction
 * before it ended; its log does, until the log cleaner compacts it (never in the active segment).
 */
final class TransactionOutcomes {

    static final String LOG_TOPIC = "__transaction_state";

    /** The outcome, and the epoch and transaction version its markers carry (raised by one in version 2). */
    record Decision(boolean commit, short markerEpoch, short transactionVersion) {
    }

    private final Admin admin;
    private final Map<String, Object> consumerConfig;
    private final Duration timeout;

    TransactionOutcomes(Admin admin, Map<String, Object> clientConfig, Duration timeout) {
        this.admin = admin;
        this.consumerConfig = new HashMap<>(clientConfig);
        consumerConfig.remove("group.id");
        consumerConfig.put("enable.auto.commit", "false");
        this.timeout = timeout;
    }

    /** The decision on {@code transactionalId}'s transaction of producer {@code producerId} at {@code epoch}, if logged. */
    Optional<Decision> decision(String transactionalId, long producerId, int epoch) throws Exception {
        int partitions = admin.describeTopics(List.of(LOG_TOPIC)).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .get(LOG_TOPIC).partitions().size();
        // the coordinator's rule (TransactionStateManager#partitionFor)
        TopicPartition tp = new TopicPartition(LOG_TOPIC, Utils.abs(transactionalId.hashCode()) % partitions);
        try (KafkaConsumer<byte[], byte[]> log = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            log.assign(List.of(tp));
            log.seekToBeginning(List.of(tp));
            long end = log.endOffsets(List.of(tp), timeout).get(tp);
            long deadline = System.nanoTime() + timeout.toNanos();
            boolean open = false;
            Decision decided = null;
            while (log.position(tp, timeout) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : log.poll(Duration.ofMillis(200))) {
                    TransactionLogValue v = valueOf(r, transactionalId);
                    if (v == null || v.producerId() != producerId) {
                        continue;
                    }
                    TransactionState s = TransactionState.fromId(v.transactionStatus());
                    if (s == TransactionState.ONGOING && v.producerEpoch() == epoch) {
                        open = true;
                        decided = null;
                    } else if (open && (s == TransactionState.PREPARE_COMMIT || s == TransactionState.COMPLETE_COMMIT)) {
                        decided = new Decision(true, v.producerEpoch(), v.clientTransactionVersion());
                        open = false;
                    } else if (open && (s == TransactionState.PREPARE_ABORT || s == TransactionState.COMPLETE_ABORT
                            || s == TransactionState.PREPARE_EPOCH_FENCE)) {
                        decided = new Decision(false, v.producerEpoch(), v.clientTransactionVersion());
                        open = false;
                    }
                }
            }
            return Optional.ofNullable(decided);
        }
    }

    /** The record's value when its key is {@code transactionalId}'s; null for other keys, tombstones, unknown versions. */
    private static TransactionLogValue valueOf(ConsumerRecord<byte[], byte[]> r, String transactionalId) {
        if (r.key() == null || r.value() == null) {
            return null;
        }
        try {
            ByteBuffer k = ByteBuffer.wrap(r.key());
            short keyVersion = k.getShort();
            if (!new TransactionLogKey(new ByteBufferAccessor(k), keyVersion).transactionalId().equals(transactionalId)) {
                return null;
            }
            ByteBuffer v = ByteBuffer.wrap(r.value());
            short valueVersion = v.getShort();
            return new TransactionLogValue(new ByteBufferAccessor(v), valueVersion);
        } catch (RuntimeException e) {
            return null; // a format this client does not know
        }
    }
}
