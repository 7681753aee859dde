package io.mmgr.stream.tasks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificRecord;

/**
 * Plain Java values of a {@link FamilyPayload}'s generic record, and back: a family reads its payload as
 * {@code String}, {@code List}, {@code Map} and the contract's record classes, as it read the shared fields.
 *
 * <p>A payload schema carries its own copy of a shared record type (say {@code Pose}) in the family's
 * namespace rather than naming {@code io.mmgr.stream.avro.Pose}: the single-object encoding identifies
 * the writer schema by a fingerprint over the whole schema, nested types included, so a payload schema
 * naming a shared type would change its released fingerprints whenever that type evolved, and payloads
 * written before could no longer be read. The copy is converted to and from the contract's class by
 * field name ({@link #specific}, {@link #generic}).
 */
public final class PayloadValues {

    private PayloadValues() {
    }

    /**
     * The field's value as plain Java: Avro's {@code Utf8} as {@code String}, arrays as {@code List}, maps
     * as {@code Map<String, ...>}, records as they are; null when the record has no such field (a payload
     * written by an older version) or the value is null.
     */
    @SuppressWarnings("unchecked")
    public static <T> T get(GenericRecord r, String field) {
        return r.hasField(field) ? (T) plain(r.get(field)) : null;
    }

    /** The field's records (an array of records) as instances of the contract's class, copied by field name. */
    public static <T extends SpecificRecord> List<T> records(GenericRecord r, String field, Supplier<T> empty) {
        Object v = r.hasField(field) ? r.get(field) : null;
        if (v == null) {
            return null;
        }
        List<T> out = new ArrayList<>();
        for (Object o : (Collection<?>) v) {
            out.add(o == null ? null : specific((IndexedRecord) o, empty.get()));
        }
        return out;
    }

    /** {@code to}, with each of its fields that {@code from} has set from {@code from}'s value of that name. */
    public static <T extends SpecificRecord> T specific(IndexedRecord from, T to) {
        Schema source = from.getSchema();
        for (Schema.Field f : to.getSchema().getFields()) {
            Schema.Field s = source.getField(f.name());
            if (s != null) {
                to.put(f.pos(), plain(from.get(s.pos())));
            }
        }
        return to;
    }

    /**
     * The records of the contract's class as records of the array field {@code field} of {@code schema} (a
     * payload schema), copied by field name; null stays null.
     */
    public static List<GenericRecord> generic(Schema schema, String field, List<? extends IndexedRecord> values) {
        if (values == null) {
            return null;
        }
        Schema item = arrayItems(schema.getField(field).schema());
        List<GenericRecord> out = new ArrayList<>(values.size());
        for (IndexedRecord v : values) {
            GenericData.Record r = new GenericData.Record(item);
            for (Schema.Field f : item.getFields()) {
                Schema.Field s = v.getSchema().getField(f.name());
                r.put(f.pos(), s == null ? GenericData.get().getDefaultValue(f) : v.get(s.pos()));
            }
            out.add(r);
        }
        return out;
    }

    private static Schema arrayItems(Schema s) {
        if (s.getType() == Schema.Type.UNION) {
            for (Schema branch : s.getTypes()) {
                if (branch.getType() == Schema.Type.ARRAY) {
                    return branch.getElementType();
                }
            }
        }
        if (s.getType() != Schema.Type.ARRAY) {
            throw new IllegalArgumentException(s + " is not an array");
        }
        return s.getElementType();
    }

    private static Object plain(Object v) {
        if (v instanceof CharSequence s) {
            return s.toString(); // Avro's generic strings are Utf8
        }
        if (v instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>(c.size());
            c.forEach(o -> out.add(plain(o)));
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(k.toString(), plain(x)));
            return out;
        }
        return v;
    }
}
