package io.mmgr.stream.topology.intake;

import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** The bytes and coordinates of an input record, kept until intake is done so a dead letter can quote them. */
public record RawRecord(byte[] key, byte[] value, Optional<RecordMetadata> source) {
}
