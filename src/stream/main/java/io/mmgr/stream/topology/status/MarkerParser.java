package io.mmgr.stream.topology.status;

import io.mmgr.stream.avro.CheckpointDone;
import io.mmgr.stream.contract.DeadLetters;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Deserializes and checks checkpoint-done markers; an unusable one becomes a dead letter with its reason. */
final class MarkerParser implements FixedKeyProcessor<byte[], byte[], SpecificRecord> {

    static final String STAGE = "checkpoint-done";

    private final Deserializer<CheckpointDone> deserializer;
    private FixedKeyProcessorContext<byte[], SpecificRecord> context;

    MarkerParser(Deserializer<CheckpointDone> deserializer) {
        this.deserializer = deserializer;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], SpecificRecord> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], byte[]> record) {
        Optional<RecordMetadata> source = context.recordMetadata();
        SpecificRecord out;
        if (record.value() == null || record.value().length == 0) {
            out = DeadLetters.of(source, STAGE, "empty record value (a CheckpointDone marker was expected)", null,
                    record.key(), record.value(), null);
        } else {
            CheckpointDone done = null;
            String reason;
            try {
                done = deserializer.deserialize(source.map(RecordMetadata::topic).orElse(STAGE), record.value());
                reason = problem(done);
            } catch (RuntimeException e) {
                if (DeadLetters.isRegistryOutage(e)) {
                    throw e; // not the marker's fault: the task fails and reads it again once the registry answers
                }
                reason = "not a readable CheckpointDone: " + DeadLetters.describe(e);
            }
            out = reason == null ? done : DeadLetters.of(source, STAGE, reason, null, record.key(), record.value(),
                    done == null ? null : done.getRunId() + "/" + done.getCheckpointId());
        }
        context.forward(record.withValue(out));
    }

    /** Why a marker cannot be answered, or null. */
    static String problem(CheckpointDone d) {
        if (blank(d.getRunId()) || blank(d.getCheckpointId()) || blank(d.getDoneId())) {
            return "a CheckpointDone marker needs runId, checkpointId and doneId";
        }
        if (d.getExpected() != null && d.getExpected() < 1) {
            return "expected must be at least 1 when given (null: the benchmark's items x seeds), not " + d.getExpected();
        }
        if (d.getTimeoutMs() != null && d.getTimeoutMs() < 1) {
            return "timeoutMs must be positive when given (null: the scorer's default), not " + d.getTimeoutMs();
        }
        if (d.getTasks().stream().anyMatch(MarkerParser::blank)) {
            return "tasks must not hold blank names";
        }
        return null;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
