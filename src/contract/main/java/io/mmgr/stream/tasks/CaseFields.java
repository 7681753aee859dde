package io.mmgr.stream.tasks;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Typed access to the fields of a case's JSON object (the case itself or an object nested in it), whose
 * errors are the case's own ({@link EvalCase#error}): the CLI prefixes them with the file and line.
 * The messages are those the {@code eval} commands print for a bad line.
 */
public final class CaseFields {

    private CaseFields() {
    }

    /** A present, non-null field. */
    public static JsonNode required(EvalCase c, JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            throw c.error("'" + field + "' is missing");
        }
        return v;
    }

    /** A present object field. */
    public static JsonNode object(EvalCase c, JsonNode obj, String field) {
        JsonNode v = required(c, obj, field);
        if (!v.isObject()) {
            throw c.error("'" + field + "' must be an object");
        }
        return v;
    }

    /** A string or number field as text; null when absent. */
    public static String text(EvalCase c, JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual() && !v.isNumber()) {
            throw c.error("'" + field + "' must be a string");
        }
        return v.asText();
    }

    /** A present, non-blank text field. */
    public static String requiredText(EvalCase c, JsonNode obj, String field) {
        String v = text(c, obj, field);
        if (v == null || v.isBlank()) {
            throw c.error("'" + field + "' is missing");
        }
        return v;
    }

    /** A present integer field. */
    public static int requiredInt(EvalCase c, JsonNode obj, String field) {
        JsonNode v = required(c, obj, field);
        if (!v.canConvertToInt() || !v.isIntegralNumber()) {
            throw c.error("'" + field + "' must be an integer");
        }
        return v.intValue();
    }

    /** An integer field; null when absent. */
    public static Integer optionalInt(EvalCase c, JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        return v == null || v.isNull() ? null : requiredInt(c, obj, field);
    }

    /** A present boolean field. */
    public static boolean requiredBoolean(EvalCase c, JsonNode obj, String field) {
        JsonNode v = required(c, obj, field);
        if (!v.isBoolean()) {
            throw c.error("'" + field + "' must be true or false");
        }
        return v.booleanValue();
    }

    /** An array of finite numbers; null when absent. */
    public static List<Double> numbers(EvalCase c, JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        return numberArray(c, v, field);
    }

    /** {@code v} (the value of {@code field}) as an array of finite numbers. */
    public static List<Double> numberArray(EvalCase c, JsonNode v, String field) {
        if (!v.isArray()) {
            throw c.error("'" + field + "' must be an array of numbers");
        }
        List<Double> out = new ArrayList<>(v.size());
        for (JsonNode n : v) {
            if (!n.isNumber()) {
                throw c.error("'" + field + "' must be an array of numbers");
            }
            if (!Double.isFinite(n.doubleValue())) {
                throw c.error("'" + field + "' holds " + n.asText() + ", which is not a finite number");
            }
            out.add(n.doubleValue());
        }
        return out;
    }

    /** Runs a conversion into the metric types; their validation errors become the case's, under {@code where}. */
    public static <T> T convert(EvalCase c, String where, Supplier<T> conversion) {
        try {
            return conversion.get();
        } catch (EvalCaseException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw c.error(where + ": " + e.getMessage());
        }
    }
}
