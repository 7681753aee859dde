package io.mmgr.stream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Avro records as plain JSON with the schema's field names (unions written as their bare value,
 * not Avro's {"type": value} wrapping), for JSONL files a Python job or {@code mmgr publish} reads.
 */
public final class PlainJson {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private PlainJson() {
    }

    public static ObjectNode of(GenericRecord record) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        for (Schema.Field f : record.getSchema().getFields()) {
            node.set(f.name(), value(record.get(f.pos())));
        }
        return node;
    }

    public static String line(GenericRecord record) {
        return of(record).toString();
    }

    private static JsonNode value(Object v) {
        JsonNodeFactory n = JsonNodeFactory.instance;
        if (v == null) {
            return n.nullNode();
        }
        if (v instanceof GenericRecord r) {
            return of(r);
        }
        if (v instanceof Map<?, ?> m) {
            ObjectNode o = n.objectNode();
            m.forEach((k, val) -> o.set(k.toString(), value(val)));
            return o;
        }
        if (v instanceof Collection<?> c) {
            ArrayNode a = n.arrayNode();
            c.forEach(x -> a.add(value(x)));
            return a;
        }
        if (v instanceof Integer i) {
            return n.numberNode(i);
        }
        if (v instanceof Long l) {
            return n.numberNode(l);
        }
        if (v instanceof Double d) {
            return n.numberNode(d);
        }
        if (v instanceof Float f) {
            return n.numberNode(f);
        }
        if (v instanceof Boolean b) {
            return n.booleanNode(b);
        }
        if (v instanceof java.time.Instant t) {
            return n.numberNode(t.toEpochMilli());
        }
        return n.textNode(v.toString());
    }
}
