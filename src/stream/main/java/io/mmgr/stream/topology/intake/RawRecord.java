package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.DeadLetter;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The bytes and coordinates of an input record, kept until intake is done so a dead letter can quote them.
 *
 * @param cutKey set when {@code key} holds only the first bytes of the record's key (an event that waited
 *               for its item keeps no more than a dead letter would): the whole key's size and digest
 */
public record RawRecord(byte[] key, byte[] value, Optional<RecordMetadata> source, KeyPrint cutKey) {

    public RawRecord(byte[] key, byte[] value, Optional<RecordMetadata> source) {
        this(key, value, source, null);
    }

    /** Size and SHA-256 of a whole key. */
    public record KeyPrint(long bytes, String sha256) {
    }

    /** Where a record came from, for a record read back from a store rather than from its topic. */
    record Source(String topic, int partition, long offset) implements RecordMetadata {
    }

    /** {@code letter}, built from this record's bytes, with the whole key's size and digest when only its start was kept. */
    DeadLetter fill(DeadLetter letter) {
        if (cutKey != null) {
            letter.setOriginalKeyBytes(cutKey.bytes());
            letter.setOriginalKeySha256(cutKey.sha256());
            letter.setTruncated(true);
        }
        return letter;
    }
}
