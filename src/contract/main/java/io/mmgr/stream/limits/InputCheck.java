package io.mmgr.stream.limits;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * Checks an input record against {@link InputLimits}, driven by its Avro schema so that every string,
 * array, map and bytes field is covered, fields added later included: strings by their UTF-8 size,
 * arrays and maps by their count, and every double or float for being finite. Nothing is derived
 * from a field (no key, reference or log line) before it passed; reasons quote at most the first
 * characters of a name.
 */
public final class InputCheck {

    /** Names and identifiers: {@link InputLimits#idBytes()}. */
    static final Set<String> ID_FIELDS = Set.of("eventId", "runId", "model", "checkpointId", "task", "sampleId",
            "modality", "role", "sha256", "mediaType", "benchmark", "version", "difficulty", "elementKind",
            "physicsFocus", "annotator", "element", "op");
    /** Arrays of steps or trials: {@link InputLimits#steps()}. */
    static final Set<String> STEP_ARRAYS = Set.of("uiActions", "uiSteps", "trials");
    /** String maps whose values are attributes: {@link InputLimits#attributeBytes()}. */
    static final Set<String> ATTRIBUTE_MAPS = Set.of("attributes", "extra");

    /** How a limit was broken: the field's path, its size, the limit and the setting that changes it. */
    public record Violation(String field, long size, long limit, String setting, String reason) {
    }

    /**
     * Reads a record nested as bytes: a benchmark item's family-owned ground truth ({@code groundTruth.family} +
     * {@code payload}), so that its fields are held to the same limits as the shared ones they replaced. Empty when
     * the family has no payload schema or the bytes do not read: the family's precheck names that per event.
     */
    @FunctionalInterface
    public interface PayloadReader {
        Optional<IndexedRecord> read(String family, ByteBuffer payload);

        PayloadReader NONE = (family, payload) -> Optional.empty();
    }

    private final InputLimits limits;
    private final PayloadReader payloads;

    public InputCheck(InputLimits limits) {
        this(limits, PayloadReader.NONE);
    }

    private InputCheck(InputLimits limits, PayloadReader payloads) {
        this.limits = limits;
        this.payloads = payloads;
    }

    /** This check, also descending into the family payloads {@code payloads} reads. */
    public InputCheck withPayloads(PayloadReader payloads) {
        return new InputCheck(limits, payloads);
    }

    public InputLimits limits() {
        return limits;
    }

    /** A serialized record over its size limit ({@code what}: "event", "item", "label"), checked before it is read. */
    public Optional<Violation> size(String what, int bytes, int limit, String name) {
        if (bytes <= limit) {
            return Optional.empty();
        }
        return Optional.of(new Violation(what, bytes, limit, InputLimits.setting(name), "the " + what + " is "
                + InputLimits.show(bytes, true) + ", over the limit of " + InputLimits.show(limit, true)
                + " (" + InputLimits.setting(name) + ")"));
    }

    /** The first field of {@code record} over a limit or not finite, or empty when all are within. */
    public Optional<Violation> check(IndexedRecord record) {
        return record(record, record.getSchema(), "");
    }

    /** Human labels also bound how many metrics one label may carry. */
    public Optional<Violation> checkLabel(IndexedRecord label, Map<?, ?> metrics) {
        if (metrics != null && metrics.size() > limits.labelMetrics()) {
            return Optional.of(count("metrics", metrics.size(), limits.labelMetrics(), "label-metrics", "entries"));
        }
        return check(label);
    }

    private Optional<Violation> record(IndexedRecord r, Schema schema, String path) {
        for (Schema.Field f : schema.getFields()) {
            Optional<Violation> v = value(r.get(f.pos()), f.schema(), join(path, f.name()), f.name(), null);
            if (v.isPresent()) {
                return v;
            }
        }
        return payload(r, schema, path);
    }

    /** A record with a {@code family} and a {@code payload} (GroundTruth): the payload's own fields, once read. */
    private Optional<Violation> payload(IndexedRecord r, Schema schema, String path) {
        Schema.Field family = schema.getField("family");
        Schema.Field payload = schema.getField("payload");
        if (family == null || payload == null || !(r.get(family.pos()) instanceof CharSequence name)
                || !(r.get(payload.pos()) instanceof ByteBuffer bytes)) {
            return Optional.empty();
        }
        // the size of the bytes was checked above; the reader gets its own view, the record keeps its position
        Optional<IndexedRecord> inner = payloads.read(name.toString(), bytes.duplicate());
        return inner.isEmpty() ? Optional.empty() : record(inner.get(), inner.get().getSchema(), join(path, payload.name()));
    }

    /**
     * @param field   the name of the record field the value belongs to (arrays' and maps' elements keep it)
     * @param mapName the field of the map a string value is in, or null
     */
    private Optional<Violation> value(Object value, Schema schema, String path, String field, String mapName) {
        if (value == null) {
            return Optional.empty();
        }
        switch (schema.getType()) {
            case UNION -> {
                for (Schema s : schema.getTypes()) {
                    if (s.getType() != Schema.Type.NULL && fits(value, s)) {
                        return value(value, s, path, field, mapName);
                    }
                }
                return Optional.empty();
            }
            case RECORD -> {
                return record((IndexedRecord) value, schema, path);
            }
            case STRING -> {
                return string((CharSequence) value, path, field, mapName);
            }
            case BYTES -> {
                int n = ((ByteBuffer) value).remaining();
                return n > limits.textBytes() ? Optional.of(bytes(path, n, limits.textBytes(), "text-bytes")) : Optional.empty();
            }
            case DOUBLE, FLOAT -> {
                double d = ((Number) value).doubleValue();
                return Double.isFinite(d) ? Optional.empty() : Optional.of(new Violation(path, 0, 0, null,
                        "field " + path + " is " + d + ": non-finite numbers (NaN, Infinity, overflowing literals) are refused"));
            }
            case ARRAY -> {
                Collection<?> items = (Collection<?>) value;
                boolean steps = STEP_ARRAYS.contains(field);
                boolean artifacts = "artifacts".equals(field) && path.indexOf('[') < 0;
                int limit = steps ? limits.steps() : artifacts ? limits.artifacts() : limits.points();
                String name = steps ? "steps" : artifacts ? "artifacts" : "points";
                if (items.size() > limit) {
                    return Optional.of(count(path, items.size(), limit, name, "items"));
                }
                int i = 0;
                for (Object item : items) {
                    Optional<Violation> v = value(item, schema.getElementType(), path + "[" + i++ + "]", field, null);
                    if (v.isPresent()) {
                        return v;
                    }
                }
                return Optional.empty();
            }
            case MAP -> {
                Map<?, ?> map = (Map<?, ?>) value;
                if (map.size() > limits.mapEntries()) {
                    return Optional.of(count(path, map.size(), limits.mapEntries(), "map-entries", "entries"));
                }
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    CharSequence key = (CharSequence) e.getKey();
                    int keyBytes = utf8Length(key);
                    if (keyBytes > limits.idBytes()) {
                        return Optional.of(bytes("a key of " + path, keyBytes, limits.idBytes(), "id-bytes"));
                    }
                    Optional<Violation> v = value(e.getValue(), schema.getValueType(), path + "['" + quote(key) + "']",
                            field, field);
                    if (v.isPresent()) {
                        return v;
                    }
                }
                return Optional.empty();
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    private Optional<Violation> string(CharSequence s, String path, String field, String mapName) {
        int n = utf8Length(s);
        if (mapName != null && ATTRIBUTE_MAPS.contains(mapName)) {
            return n > limits.attributeBytes() ? Optional.of(bytes(path, n, limits.attributeBytes(), "attribute-bytes")) : Optional.empty();
        }
        if ("uri".equals(field)) {
            boolean inline = startsWithIgnoreCase(s, "data:");
            int limit = inline ? limits.inlineArtifactBytes() : limits.uriBytes();
            return n > limit ? Optional.of(bytes(path, n, limit, inline ? "inline-artifact-bytes" : "uri-bytes")) : Optional.empty();
        }
        if (ID_FIELDS.contains(field) && mapName == null) {
            return n > limits.idBytes() ? Optional.of(bytes(path, n, limits.idBytes(), "id-bytes")) : Optional.empty();
        }
        return n > limits.textBytes() ? Optional.of(bytes(path, n, limits.textBytes(), "text-bytes")) : Optional.empty();
    }

    private static Violation bytes(String path, long size, long limit, String name) {
        return new Violation(path, size, limit, InputLimits.setting(name), "field " + path + " is "
                + InputLimits.show(size, true) + ", over the limit of " + InputLimits.show(limit, true)
                + " (" + InputLimits.setting(name) + ")");
    }

    private static Violation count(String path, long size, long limit, String name, String unit) {
        return new Violation(path, size, limit, InputLimits.setting(name), "field " + path + " has " + size + " " + unit
                + ", over the limit of " + limit + " (" + InputLimits.setting(name) + ")");
    }

    private static boolean fits(Object value, Schema s) {
        return switch (s.getType()) {
            case RECORD -> value instanceof IndexedRecord r && r.getSchema().getFullName().equals(s.getFullName());
            case STRING -> value instanceof CharSequence;
            case BYTES -> value instanceof ByteBuffer;
            case ARRAY -> value instanceof Collection;
            case MAP -> value instanceof Map;
            case DOUBLE, FLOAT -> value instanceof Double || value instanceof Float;
            case INT -> value instanceof Integer;
            case LONG -> value instanceof Long;
            case BOOLEAN -> value instanceof Boolean;
            default -> true;
        };
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** A map key in a path: its first 32 characters, so that a reason stays short whatever the key. */
    static String quote(CharSequence key) {
        return key.length() <= 32 ? key.toString() : key.subSequence(0, 32) + "…";
    }

    private static boolean startsWithIgnoreCase(CharSequence s, String prefix) {
        if (s.length() < prefix.length()) {
            return false;
        }
        return s.subSequence(0, prefix.length()).toString().equalsIgnoreCase(prefix);
    }

    /** UTF-8 size without encoding (Avro's Utf8 knows it already). */
    public static int utf8Length(CharSequence s) {
        if (s instanceof org.apache.avro.util.Utf8 u) {
            return u.getByteLength();
        }
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** The limits in force, one {@code name=value} each, for the start-up banner and logs. */
    public static List<String> describe(InputLimits limits) {
        return limits.asMap().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    }
}
