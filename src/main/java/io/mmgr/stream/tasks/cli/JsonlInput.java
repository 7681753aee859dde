package io.mmgr.stream.tasks.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.tasks.CaseFields;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalCaseException;
import io.mmgr.stream.tasks.EvaluationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads a JSONL file for the {@code eval} commands: one JSON object per non-blank line, read as the
 * cases of a family's input adapter or with typed field access, whose errors name the file and the line.
 */
public final class JsonlInput {

    /** One parsed line: its 1-based number in the file and its object. */
    public record Line(Path file, int number, JsonNode node) {
        public CliInputException error(String message) {
            return new CliInputException(file + " line " + number + ": " + message);
        }

        /** The line as a family adapter's case, whose errors carry this line's number. */
        public EvalCase asCase() {
            return new EvalCase(node, number);
        }
    }

    private JsonlInput() {
    }

    public static List<Line> read(Path file) {
        return read(file, false);
    }

    /** As {@link #read(Path)}, also accepting lines that are JSON arrays (feature vectors). */
    public static List<Line> read(Path file, boolean allowArrays) {
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

    /**
     * The file's samples as its family's adapter reads them from its lines, in the adapter's order; an
     * error of a case names the file and its line.
     */
    public static List<EvalAdapter.Group> samples(EvalAdapter adapter, Path file) {
        List<EvalAdapter.Group> out = new ArrayList<>();
        samples(adapter, file, out::add);
        return out;
    }

    /** As {@link #samples(EvalAdapter, Path)}, each handed to {@code out} as the adapter reads it. */
    public static void samples(EvalAdapter adapter, Path file, Consumer<EvalAdapter.Group> out) {
        List<EvalCase> cases = read(file).stream().map(Line::asCase).toList();
        try {
            adapter.samples(cases, out);
        } catch (EvalCaseException e) {
            throw located(file, e);
        } catch (EvaluationException | IOException e) {
            throw new CliInputException(file + ": " + e.getMessage());
        }
    }

    /** A string or number field as text; null when absent. */
    public static String text(Line line, JsonNode obj, String field) {
        return located(line, () -> CaseFields.text(line.asCase(), obj, field));
    }

    public static List<Double> numberArray(Line line, JsonNode v, String field) {
        return located(line, () -> CaseFields.numberArray(line.asCase(), v, field));
    }

    /** A case's field error, with the file and the case's line named first. */
    public static CliInputException located(Path file, EvalCaseException e) {
        return new CliInputException(file + " line " + e.line() + ": " + e.getMessage());
    }

    private static <T> T located(Line line, java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (EvalCaseException e) {
            throw located(line.file(), e);
        }
    }
}
