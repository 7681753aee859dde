package io.mmgr.stream.topology;

import io.mmgr.stream.avro.DeadLetter;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Builds dead letters: where the record came from, at which stage it failed, and why. */
public final class DeadLetters {

    private DeadLetters() {
    }

    public static DeadLetter of(Optional<RecordMetadata> source, String stage, String reason, Throwable error,
                                byte[] key, byte[] value, String sampleRef) {
        return DeadLetter.newBuilder()
                .setSourceTopic(source.map(RecordMetadata::topic).orElse(null))
                .setSourcePartition(source.map(RecordMetadata::partition).orElse(-1))
                .setSourceOffset(source.map(RecordMetadata::offset).orElse(-1L))
                .setStage(stage)
                .setReason(reason)
                .setErrorClass(error == null ? null : error.getClass().getName())
                .setSampleRef(sampleRef)
                .setOriginalKey(key == null ? null : ByteBuffer.wrap(key))
                .setOriginalValue(value == null ? null : ByteBuffer.wrap(value))
                .setFailedAt(Instant.now())
                .build();
    }

    /**
     * Whether the failure is the schema registry's, not the record's: unreachable, failing (5xx),
     * refusing our credentials or throttling. Such records must not be dead-lettered: the task fails
     * and retries them once the registry answers.
     */
    public static boolean isRegistryOutage(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof io.mmgr.stream.registry.RegistryException r) {
                int status = r.status();
                return status == io.mmgr.stream.registry.RegistryException.NO_RESPONSE || status >= 500
                        || status == 401 || status == 403 || status == 429;
            }
        }
        return false;
    }

    /** The innermost message, without stack traces or class noise, for a user-facing reason. */
    public static String describe(Throwable t) {
        Throwable root = t;
        StringBuilder sb = new StringBuilder(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage());
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            if (root.getMessage() != null && !sb.toString().contains(root.getMessage())) {
                sb.append(": ").append(root.getMessage());
            }
        }
        return sb.toString();
    }
}
