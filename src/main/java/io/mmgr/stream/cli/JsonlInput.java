package io.mmgr.stream.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a JSONL file for the {@code eval} commands: one JSON object per non-blank line, with typed
 * field access whose errors name the file and the line.
 */
final class JsonlInput {

    /** One parsed line: its 1-based number in the file and its object. */
    record Line(Path file, int number, JsonNode node) {
        CliInputException error(String message) {
            return new CliInputException(file + " line " + number + ": " + message);
        }
    }

    private JsonlInput() {
    }

    static List<Line> read(Path file) {
        return read(file, false);
    }

    /** As {@link #read(Path)}, also accepting lines that are JSON arrays (feature vectors). */
    static List<Line> read(Path file, boolean allowArrays) {
        List<String> raw;
        try {
            raw = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new CliInputException(file + ": no such file");
        } catch (IOException e) {
            throw new CliInputException(file + ": cannot read: " + e.getMessage());
        }
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            String text = raw.get(i);
            if (text.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = JsonOutput.MAPPER.readTree(text);
            } catch (JsonProcessingException e) {
                throw new CliInputException(file + " line " + (i + 1) + ": not valid JSON: " + e.getOriginalMessage());
            }
            if (node == null || !(node.isObject() || allowArrays && node.isArray())) {
                throw new CliInputException(file + " line " + (i + 1) + ": expected a JSON object");
            }
            lines.add(new Line(file, i + 1, node));
        }
        if (lines.isEmpty()) {
            throw new CliInputException(file + ": no lines to score");
        }
        return lines;
    }

    /** A present, non-null field, or an error naming it. */
    static JsonNode required(Line line, JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            throw line.error("'" + field + "' is missing");
        }
        return v;
    }

    static JsonNode object(Line line, JsonNode obj, String field) {
        JsonNode v = required(line, obj, field);
        if (!v.isObject()) {
            throw line.error("'" + field + "' must be an object");
        }
        return v;
    }

    /** A string or number field as text; null when absent. */
    static String text(Line line, JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual() && !v.isNumber()) {
            throw line.error("'" + field + "' must be a string");
        }
        return v.asText();
    }

    static String requiredText(Line line, JsonNode obj, String field) {
        String v = text(line, obj, field);
        if (v == null || v.isBlank()) {
            throw line.error("'" + field + "' is missing");
        }
        return v;
    }

    static int requiredInt(Line line, JsonNode obj, String field) {
        JsonNode v = required(line, obj, field);
        if (!v.canConvertToInt() || !v.isIntegralNumber()) {
            throw line.error("'" + field + "' must be an integer");
        }
        return v.intValue();
    }

    static Integer optionalInt(Line line, JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        return v == null || v.isNull() ? null : requiredInt(line, obj, field);
    }

    static boolean requiredBoolean(Line line, JsonNode obj, String field) {
        JsonNode v = required(line, obj, field);
        if (!v.isBoolean()) {
            throw line.error("'" + field + "' must be true or false");
        }
        return v.booleanValue();
    }

    /** An array of numbers; null when absent. */
    static List<Double> numbers(Line line, JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        return numberArray(line, v, field);
    }

    static List<Double> numberArray(Line line, JsonNode v, String field) {
        if (!v.isArray()) {
            throw line.error("'" + field + "' must be an array of numbers");
        }
        List<Double> out = new ArrayList<>(v.size());
        for (JsonNode n : v) {
            if (!n.isNumber()) {
                throw line.error("'" + field + "' must be an array of numbers");
            }
            if (!Double.isFinite(n.doubleValue())) {
                throw line.error("'" + field + "' holds " + n.asText() + ", which is not a finite number");
            }
            out.add(n.doubleValue());
        }
        return out;
    }

    /** Runs a conversion into the metric types; their validation errors get the line's position. */
    static <T> T convert(Line line, String where, java.util.function.Supplier<T> conversion) {
        try {
            return conversion.get();
        } catch (IllegalArgumentException e) {
            throw line.error(where + ": " + e.getMessage());
        }
    }
}
