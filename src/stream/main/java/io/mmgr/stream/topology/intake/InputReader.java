package io.mmgr.stream.topology.intake;

import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.contract.DeadLetters;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads one raw input record the way every intake path must: its size against its limit before it is
 * read, then the bytes (a registry outage is waited out, then rethrown so the task retries), then every
 * field. Nothing is derived from the record before this returns it as {@link Read#ok()}.
 */
final class InputReader {

    private InputReader() {
    }

    /**
     * What reading gave: the record (also when a field is over its limit, so a short reference can be
     * built), the limit it broke, or why it could not be read.
     */
    record Read<T>(T record, InputCheck.Violation over, String unreadable, Throwable error) {
        boolean ok() {
            return over == null && unreadable == null;
        }
    }

    /**
     * @param what   "event", "item" or "label", for the size reason
     * @param type   the record type's name, for the unreadable reason
     * @param fields the field check ({@link InputCheck#check}, or the label's)
     */
    static <T> Read<T> read(InputCheck check, Deserializer<T> deserializer, String topic, byte[] value, String what,
                            int limit, String limitName, String type, Function<T, Optional<InputCheck.Violation>> fields) {
        if (value == null || value.length == 0) {
            return new Read<>(null, null, "empty record value (a " + type + " was expected)", null);
        }
        Optional<InputCheck.Violation> tooBig = check.size(what, value.length, limit, limitName);
        if (tooBig.isPresent()) {
            return new Read<>(null, tooBig.get(), null, null);
        }
        T record;
        try {
            record = RegistryPatience.deserialize(deserializer, topic, value);
        } catch (RuntimeException e) {
            if (DeadLetters.isRegistryOutage(e)) {
                // not this record's fault: fail the task, which reads it again once the registry answers
                throw e;
            }
            return new Read<>(null, null, "not a readable " + type + ": " + DeadLetters.describe(e), e);
        }
        if (record == null) {
            return new Read<>(null, null, "empty record value (a " + type + " was expected)", null);
        }
        return new Read<>(record, fields.apply(record).orElse(null), null, null);
    }
}
