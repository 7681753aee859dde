package io.mmgr.stream.tasks;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One case of an {@code eval} command as its family's {@link EvalAdapter} reads it: a JSON object, with
 * field access whose errors ({@link IllegalArgumentException}) name the field.
 *
 * @param fields the case
 * @param line   its 1-based line in the file it came from, which {@link #error} carries; 0 for the flags
 */
public record EvalCase(JsonNode fields, int line) {

    /** A case that is not a line of a file (the command's flags). */
    public EvalCase(JsonNode fields) {
        this(fields, 0);
    }

    /** An error in this case, for the CLI to prefix with the file and line. */
    public EvalCaseException error(String message) {
        return new EvalCaseException(line, message);
    }

    /** A present, non-null field. */
    public JsonNode required(String field) {
        if (!fields.hasNonNull(field)) {
            throw new IllegalArgumentException("case is missing '" + field + "'");
        }
        return fields.get(field);
    }

    /** A string or number field as text; {@code fallback} when absent or null. */
    public String text(String field, String fallback) {
        return fields.path(field).asText(fallback);
    }

    /** A present, non-blank field as text. */
    public String requiredText(String field) {
        String v = required(field).asText();
        if (v.isBlank()) {
            throw new IllegalArgumentException("case is missing '" + field + "'");
        }
        return v;
    }

    /** A file the case names. */
    public Path path(String field) {
        return Path.of(requiredText(field));
    }

    /** An integer field; {@code fallback} when absent or null. */
    public int integer(String field, int fallback) {
        if (!fields.hasNonNull(field)) {
            return fallback;
        }
        JsonNode v = fields.get(field);
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new IllegalArgumentException("case's '" + field + "' must be an integer");
        }
        return v.intValue();
    }

    /** An array of integers (numbers, truncated); null when absent. */
    public List<Integer> integers(String field) {
        if (!fields.hasNonNull(field)) {
            return null;
        }
        JsonNode v = fields.get(field);
        List<Integer> out = new ArrayList<>();
        if (v.isArray()) {
            for (JsonNode n : v) {
                if (!n.isNumber() || !Double.isFinite(n.doubleValue())) {
                    break;
                }
                out.add(n.intValue());
            }
        }
        if (!v.isArray() || out.size() != v.size()) {
            throw new IllegalArgumentException("case's '" + field + "' must be an array of numbers");
        }
        return out;
    }
}
