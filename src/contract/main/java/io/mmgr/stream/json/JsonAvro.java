package io.mmgr.stream.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Plain JSON to and from our Avro records, driven by the schema: field names as in the .avsc files,
 * optional fields as plain values or null (not Avro's {"type": value} union wrapping), timestamps as
 * epoch milliseconds or ISO-8601, bytes as base64. Unknown fields are refused so typos show up.
 */
public final class JsonAvro {

    /** Shared, thread-safe once configured. */
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonAvro() {
    }

    public static <T extends SpecificRecord> T read(String json, Class<T> type) {
        return read(readTree(json), type);
    }

    /**
     * Parses JSON text keeping decimal literals exact, so that one a double cannot hold (1e400, which
     * would silently become Infinity) is named in the error.
     */
    public static JsonNode readTree(String json) {
        try {
            return EXACT.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectReader EXACT = MAPPER.reader()
            .with(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    public static <T extends SpecificRecord> T read(JsonNode node, Class<T> type) {
        Schema schema = SpecificData.get().getSchema(type);
        Object generic = convert(node, schema, schema.getName());
        // through binary, so that logical types (timestamps) get their Java types on the way in
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            org.apache.avro.io.BinaryEncoder enc = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
            new org.apache.avro.generic.GenericDatumWriter<Object>(schema).write(generic, enc);
            enc.flush();
            org.apache.avro.io.BinaryDecoder dec = org.apache.avro.io.DecoderFactory.get().binaryDecoder(out.toByteArray(), null);
            return new org.apache.avro.specific.SpecificDatumReader<T>(type).read(null, dec);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot convert to " + type.getSimpleName(), e);
        }
    }

    private static Object convert(JsonNode node, Schema schema, String path) {
        switch (schema.getType()) {
            case RECORD -> {
                if (!node.isObject()) {
                    throw error(path, "an object");
                }
                GenericRecord r = new GenericData.Record(schema);
                for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                    String name = it.next();
                    if (schema.getField(name) == null) {
                        throw new IllegalArgumentException("unknown field '" + cut(name) + "' in " + path);
                    }
                }
                for (Schema.Field f : schema.getFields()) {
                    JsonNode v = node.get(f.name());
                    if (v == null) {
                        if (!f.hasDefaultValue()) {
                            throw new IllegalArgumentException("missing required field '" + f.name() + "' in " + path);
                        }
                        r.put(f.name(), GenericData.get().deepCopy(f.schema(), GenericData.get().getDefaultValue(f)));
                    } else {
                        r.put(f.name(), convert(v, f.schema(), path + "." + f.name()));
                    }
                }
                return r;
            }
            case UNION -> {
                if (node.isNull()) {
                    for (Schema s : schema.getTypes()) {
                        if (s.getType() == Schema.Type.NULL) {
                            return null;
                        }
                    }
                    throw error(path, "a value (null is not allowed)");
                }
                IllegalArgumentException last = null;
                for (Schema s : schema.getTypes()) {
                    if (s.getType() == Schema.Type.NULL) {
                        continue;
                    }
                    try {
                        return convert(node, s, path);
                    } catch (IllegalArgumentException e) {
                        last = e;
                    }
                }
                throw last != null ? last : error(path, "a value");
            }
            case STRING -> {
                if (!node.isTextual()) {
                    throw error(path, "a string");
                }
                return node.asText();
            }
            case ENUM -> {
                if (!node.isTextual() || !schema.hasEnumSymbol(node.asText())) {
                    throw error(path, "one of " + schema.getEnumSymbols());
                }
                return new GenericData.EnumSymbol(schema, node.asText());
            }
            case INT -> {
                if (!node.canConvertToInt() || !node.isIntegralNumber()) {
                    throw error(path, "an integer");
                }
                return node.intValue();
            }
            case LONG -> {
                if (schema.getLogicalType() instanceof LogicalTypes.TimestampMillis && node.isTextual()) {
                    try {
                        return Instant.parse(node.asText()).toEpochMilli();
                    } catch (DateTimeParseException e) {
                        throw error(path, "an ISO-8601 instant or epoch milliseconds");
                    }
                }
                if (!node.isIntegralNumber() || !node.canConvertToLong()) {
                    throw error(path, "an integer");
                }
                return node.longValue();
            }
            case DOUBLE, FLOAT -> {
                if (!node.isNumber()) {
                    throw error(path, "a number");
                }
                double d = node.doubleValue();
                float f = node.floatValue();
                if (!Double.isFinite(d) || schema.getType() == Schema.Type.FLOAT && !Float.isFinite(f)) {
                    // 1e400 parses as Infinity: refused like NaN and Infinity, which no metric means
                    throw error(path, "a finite number (" + cut(node.asText()) + " overflows a "
                            + (schema.getType() == Schema.Type.FLOAT ? "float" : "double") + ")");
                }
                return schema.getType() == Schema.Type.FLOAT ? (Object) f : (Object) d;
            }
            case BOOLEAN -> {
                if (!node.isBoolean()) {
                    throw error(path, "true or false");
                }
                return node.booleanValue();
            }
            case BYTES -> {
                if (!node.isTextual()) {
                    throw error(path, "base64 text");
                }
                try {
                    return ByteBuffer.wrap(Base64.getDecoder().decode(node.asText()));
                } catch (IllegalArgumentException e) {
                    throw error(path, "base64 text");
                }
            }
            case ARRAY -> {
                if (!node.isArray()) {
                    throw error(path, "an array");
                }
                List<Object> out = new ArrayList<>();
                int i = 0;
                for (JsonNode e : node) {
                    out.add(convert(e, schema.getElementType(), path + "[" + i++ + "]"));
                }
                return new GenericData.Array<>(schema, out);
            }
            case MAP -> {
                if (!node.isObject()) {
                    throw error(path, "an object");
                }
                Map<String, Object> out = new HashMap<>();
                node.fields().forEachRemaining(e -> out.put(e.getKey(),
                        convert(e.getValue(), schema.getValueType(), path + "." + cut(e.getKey()))));
                return out;
            }
            case NULL -> {
                if (!node.isNull()) {
                    throw error(path, "null");
                }
                return null;
            }
            default -> throw new IllegalArgumentException("unsupported schema type " + schema.getType() + " at " + path);
        }
    }

    /** A value or name quoted in an error, cut to 40 characters: errors are printed whatever the input. */
    static String cut(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…(" + s.length() + " chars)";
    }

    private static IllegalArgumentException error(String path, String expected) {
        return new IllegalArgumentException(path + " must be " + expected);
    }

    /** A record as plain JSON (the inverse of {@link #read}). */
    public static ObjectNode toJson(SpecificRecord record) {
        return (ObjectNode) write(record, record.getSchema());
    }

    private static JsonNode write(Object value, Schema schema) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (value == null) {
            return f.nullNode();
        }
        switch (schema.getType()) {
            case RECORD -> {
                ObjectNode o = f.objectNode();
                org.apache.avro.generic.IndexedRecord r = (org.apache.avro.generic.IndexedRecord) value;
                for (Schema.Field field : schema.getFields()) {
                    o.set(field.name(), write(r.get(field.pos()), field.schema()));
                }
                return o;
            }
            case UNION -> {
                int branch = SpecificData.get().resolveUnion(schema, value);
                return write(value, schema.getTypes().get(branch));
            }
            case ARRAY -> {
                ArrayNode a = f.arrayNode();
                for (Object e : (Iterable<?>) value) {
                    a.add(write(e, schema.getElementType()));
                }
                return a;
            }
            case MAP -> {
                ObjectNode o = f.objectNode();
                new java.util.TreeMap<>((Map<?, ?>) value).forEach((k, v) -> o.set(k.toString(), write(v, schema.getValueType())));
                return o;
            }
            case LONG -> {
                return value instanceof Instant i ? f.textNode(i.toString()) : f.numberNode((Long) value);
            }
            case INT -> {
                return f.numberNode((Integer) value);
            }
            case DOUBLE -> {
                return f.numberNode((Double) value);
            }
            case FLOAT -> {
                return f.numberNode((Float) value);
            }
            case BOOLEAN -> {
                return f.booleanNode((Boolean) value);
            }
            case BYTES -> {
                ByteBuffer b = ((ByteBuffer) value).duplicate();
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                return f.textNode(Base64.getEncoder().encodeToString(bytes));
            }
            default -> {
                return f.textNode(value.toString());
            }
        }
    }
}
