package io.mmgr.stream.topology.intake;

import io.mmgr.stream.tasks.EventValidator;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.contract.DeadLetters;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Deserializes and validates a raw generation event. The input limits are checked first (the record's
 * size before it is read, then every field), so that nothing, not even a key or a log line, is derived
 * from a field over its limit. Used when an event arrives and again when one that waited for its item
 * is released: the same bytes give the same result.
 */
final class EventReader {

    static final String STAGE = "intake";

    private final Deserializer<GenerationEvent> deserializer;
    private final EventValidator validator;
    private final InputCheck check;

    EventReader(Deserializer<GenerationEvent> deserializer, EventValidator validator, InputCheck check) {
        this.deserializer = deserializer;
        this.validator = validator;
        this.check = check;
    }

    /** {@link IntakeResult.Accepted} (without its item) or {@link IntakeResult.Rejected}. */
    IntakeResult read(RawRecord raw) {
        String topic = raw.source().map(m -> m.topic()).orElse("generations");
        InputReader.Read<GenerationEvent> read = InputReader.read(check, deserializer, topic, raw.value(), "event",
                check.limits().eventBytes(), "event-bytes", "GenerationEvent", check::check);
        if (read.unreadable() != null) {
            return reject(raw, read.unreadable(), read.error(), null);
        }
        GenerationEvent event = read.record();
        if (read.over() != null) {
            return rejectOver(raw, STAGE, read.over(), event == null ? null : shortRef(event));
        }
        Optional<String> problem = validator.problem(event);
        if (problem.isPresent()) {
            return reject(raw, problem.get(), null, refOf(event));
        }
        return new IntakeResult.Accepted(raw, event, generationId(raw.value()), null);
    }

    static IntakeResult.Rejected reject(RawRecord raw, String reason, Throwable error, String ref) {
        return new IntakeResult.Rejected(raw.fill(DeadLetters.of(raw.source(), STAGE, reason, error, raw.key(), raw.value(), ref)));
    }

    /** A record over an input limit: the reason, and the field, size and limit in their own fields. */
    static IntakeResult.Rejected rejectOver(RawRecord raw, String stage, InputCheck.Violation v, String ref) {
        return new IntakeResult.Rejected(raw.fill(DeadLetters.builder(stage, v.reason())
                .source(raw.source().map(m -> m.topic()).orElse(null), raw.source().map(m -> m.partition()).orElse(-1),
                        raw.source().map(m -> m.offset()).orElse(-1L))
                .sampleRef(ref).original(raw.key(), raw.value()).limit(v).build()));
    }

    static String refOf(GenerationEvent e) {
        return e.getRunId() + "/" + e.getCheckpointId() + "/" + e.getTask() + "/" + e.getSampleId() + "#" + e.getSeed();
    }

    /** The reference of an event whose identifiers may be over their limits: each cut short. */
    static String shortRef(GenerationEvent e) {
        return DeadLetters.shortRef(e.getRunId(), e.getCheckpointId(), e.getTask(), e.getSampleId(), e.getSeed());
    }

    /**
     * Digest of the Avro payload (after the 5-byte wire header, so the writer's schema id does not
     * matter): parts computed for another generation of the same sample are recognised by it.
     */
    static String generationId(byte[] value) {
        try {
            byte[] payload = value.length > 5 ? Arrays.copyOfRange(value, 5, value.length) : value;
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(payload);
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
