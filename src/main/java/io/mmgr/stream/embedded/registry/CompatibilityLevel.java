package io.mmgr.stream.embedded.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/**
 * The compatibility levels of the Confluent Schema Registry, decided with Avro's own
 * {@link SchemaCompatibility} (the reader/writer resolution rules of the Avro specification).
 *
 * <p>BACKWARD: the new schema reads data written with the latest version; FORWARD: the latest
 * version reads data written with the new schema; FULL: both. The _TRANSITIVE variants check
 * every earlier version instead of the latest only. (Semantics as in Confluent's API reference,
 * docs.confluent.io/platform/current/schema-registry/develop/api.html, "Compatibility".)
 */
public enum CompatibilityLevel {
    NONE(false, false, false),
    BACKWARD(true, false, false),
    BACKWARD_TRANSITIVE(true, false, true),
    FORWARD(false, true, false),
    FORWARD_TRANSITIVE(false, true, true),
    FULL(true, true, false),
    FULL_TRANSITIVE(true, true, true);

    private final boolean backward;
    private final boolean forward;
    private final boolean transitive;

    CompatibilityLevel(boolean backward, boolean forward, boolean transitive) {
        this.backward = backward;
        this.forward = forward;
        this.transitive = transitive;
    }

    /** Case-insensitive; empty for anything that is not a level. */
    public static Optional<CompatibilityLevel> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(valueOf(text.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Why {@code candidate} may not follow the {@code earlier} versions (version number to schema)
     * under this level; empty when it may. Non-transitive levels look at the highest version only.
     */
    public List<String> problems(Schema candidate, SortedMap<Integer, Schema> earlier) {
        List<String> problems = new ArrayList<>();
        if (this == NONE || earlier.isEmpty()) {
            return problems;
        }
        SortedMap<Integer, Schema> checked = transitive ? earlier : earlier.tailMap(earlier.lastKey());
        for (Map.Entry<Integer, Schema> previous : checked.entrySet()) {
            String label = "version " + previous.getKey();
            if (backward) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(candidate, previous.getValue()),
                        "the new schema cannot read data written with " + label, problems);
            }
            if (forward) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(previous.getValue(), candidate),
                        label + " cannot read data written with the new schema", problems);
            }
        }
        return problems;
    }

    private static void describe(SchemaPairCompatibility result, String what, List<String> into) {
        if (result.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return;
        }
        for (Incompatibility i : result.getResult().getIncompatibilities()) {
            into.add(what + ": " + i.getType() + " at " + i.getLocation() + " (" + i.getMessage() + ")");
        }
    }
}
