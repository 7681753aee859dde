package io.mmgr.stream.contract;

import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.limits.InputCheck;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Builds dead letters: where the record came from, at which stage it failed, and why. Every dead letter
 * is small whatever the record was: the original key and value are kept up to {@link #KEPT_KEY_BYTES} and
 * {@link #KEPT_VALUE_BYTES} with their full size and SHA-256, and reasons and references are cut, so a
 * dead letter always fits the dead-letter topic (at most {@link #MAX_LETTER_BYTES} serialized).
 */
public final class DeadLetters {

    /** Original key bytes kept; also the largest dead-letter record key. */
    public static final int KEPT_KEY_BYTES = DeadLetterKey.KEPT_BYTES;
    /** Original value bytes kept. */
    public static final int KEPT_VALUE_BYTES = 64 << 10;
    /** Characters of a reason kept. */
    public static final int MAX_REASON_CHARS = Reasons.MAX_CHARS;
    /** Characters of a sample reference, stage, topic or class name kept. */
    public static final int MAX_NAME_CHARS = 512;
    /** Upper bound of a serialized dead letter (kept bytes, cut strings, wire header, field overhead). */
    public static final int MAX_LETTER_BYTES = KEPT_KEY_BYTES + KEPT_VALUE_BYTES + 3 * MAX_REASON_CHARS
            + 3 * 6 * MAX_NAME_CHARS + 1_024;

    private DeadLetters() {
    }

    /** A dead letter of a record, its bytes kept up to the caps. */
    public static DeadLetter of(Optional<RecordMetadata> source, String stage, String reason, Throwable error,
                                byte[] key, byte[] value, String sampleRef) {
        return builder(stage, reason)
                .source(source.map(RecordMetadata::topic).orElse(null), source.map(RecordMetadata::partition).orElse(-1),
                        source.map(RecordMetadata::offset).orElse(-1L))
                .error(error)
                .sampleRef(sampleRef)
                .original(key, value)
                .build();
    }

    public static Builder builder(String stage, String reason) {
        return new Builder(stage, reason);
    }

    /** A dead letter under construction; {@link #build()} applies the caps. */
    public static final class Builder {
        private final DeadLetter.Builder b = DeadLetter.newBuilder();
        private boolean truncated;

        private Builder(String stage, String reason) {
            b.setStage(cut(stage, MAX_NAME_CHARS));
            b.setReason(cut(reason == null ? "" : reason, MAX_REASON_CHARS));
            truncated = reason != null && reason.length() > MAX_REASON_CHARS;
            b.setSourcePartition(-1).setSourceOffset(-1L).setFailedAt(Instant.now());
        }

        public Builder source(String topic, int partition, long offset) {
            b.setSourceTopic(topic == null ? null : cut(topic, MAX_NAME_CHARS)).setSourcePartition(partition).setSourceOffset(offset);
            return this;
        }

        public Builder error(Throwable error) {
            b.setErrorClass(error == null ? null : cut(error.getClass().getName(), MAX_NAME_CHARS));
            return this;
        }

        public Builder sampleRef(String ref) {
            if (ref != null && ref.length() > MAX_NAME_CHARS) {
                truncated = true;
            }
            b.setSampleRef(ref == null ? null : cut(ref, MAX_NAME_CHARS));
            return this;
        }

        /** The original bytes: kept up to their caps, with their full size and digest. */
        public Builder original(byte[] key, byte[] value) {
            if (key != null) {
                b.setOriginalKey(ByteBuffer.wrap(key.length <= KEPT_KEY_BYTES ? key : Arrays.copyOf(key, KEPT_KEY_BYTES)));
                b.setOriginalKeyBytes((long) key.length).setOriginalKeySha256(sha256(key));
                truncated |= key.length > KEPT_KEY_BYTES;
            }
            if (value != null) {
                b.setOriginalValue(ByteBuffer.wrap(value.length <= KEPT_VALUE_BYTES ? value : Arrays.copyOf(value, KEPT_VALUE_BYTES)));
                b.setOriginalValueBytes((long) value.length).setOriginalValueSha256(sha256(value));
                truncated |= value.length > KEPT_VALUE_BYTES;
            }
            return this;
        }

        /** Only the size and digest of the original bytes (a minimal dead letter). */
        public Builder fingerprint(byte[] key, byte[] value) {
            if (key != null) {
                b.setOriginalKeyBytes((long) key.length).setOriginalKeySha256(sha256(key));
            }
            if (value != null) {
                b.setOriginalValueBytes((long) value.length).setOriginalValueSha256(sha256(value));
            }
            return this;
        }

        /** The input limit the record broke. */
        public Builder limit(InputCheck.Violation v) {
            if (v != null && v.setting() != null) {
                b.setLimitField(cut(v.field(), MAX_NAME_CHARS)).setLimitSize(v.size()).setLimitMax(v.limit())
                        .setLimitSetting(v.setting());
            }
            return this;
        }

        public DeadLetter build() {
            b.setTruncated(truncated);
            return b.build();
        }
    }

    /** The record key to write a dead letter under: its kept copy of the original key (already cut). */
    public static byte[] recordKey(DeadLetter letter) {
        if (letter.getOriginalKey() == null) {
            return null;
        }
        ByteBuffer b = letter.getOriginalKey().duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** The record key of a dead letter: the original key, cut to {@link #KEPT_KEY_BYTES}. */
    public static byte[] recordKey(byte[] key) {
        return DeadLetterKey.of(key);
    }

    /** {@code s} cut to {@code max} characters, marked with the length it had. */
    public static String cut(String s, int max) {
        return Reasons.cut(s, max);
    }

    /** A sample reference built from identifiers cut to 64 characters each (identifiers may be over their limits). */
    public static String shortRef(CharSequence run, CharSequence checkpoint, CharSequence task, CharSequence sample, int seed) {
        return cut(String.valueOf(run), 64) + "/" + cut(String.valueOf(checkpoint), 64) + "/" + cut(String.valueOf(task), 64)
                + "/" + cut(String.valueOf(sample), 64) + "#" + seed;
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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

    /** The innermost message, without stack traces or class noise, for a user-facing reason (cut to its cap). */
    public static String describe(Throwable t) {
        return Reasons.describe(t);
    }
}
