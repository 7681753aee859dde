package io.mmgr.stream.tasks.arc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A task in the ARC-AGI JSON format: {@code {"train": [{"input": grid, "output": grid}, ...],
 * "test": [{"input": grid, "output": grid}, ...]}} (fchollet/ARC-AGI, data/training and
 * data/evaluation). The id is the file name without {@code .json}.
 */
public record ArcTask(String id, List<Pair> train, List<Pair> test) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** One demonstration or test pair; a test pair's output is its ground truth. */
    public record Pair(ArcGrid input, ArcGrid output) {
    }

    public ArcTask {
        train = List.copyOf(train);
        test = List.copyOf(test);
    }

    public static ArcTask read(Path file) throws IOException {
        String name = file.getFileName().toString();
        String id = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new IOException(file + ": no such file", e);
        } catch (IOException e) {
            throw new IOException(file + ": not valid JSON: " + e.getMessage(), e);
        }
        try {
            return parse(id, root);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    public static ArcTask parse(String id, JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("an ARC task is a JSON object with 'train' and 'test'");
        }
        List<Pair> train = pairs(root, "train", true);
        List<Pair> test = pairs(root, "test", false);
        if (train.isEmpty()) {
            throw new IllegalArgumentException("task has no 'train' pairs");
        }
        if (test.isEmpty()) {
            throw new IllegalArgumentException("task has no 'test' pairs");
        }
        return new ArcTask(id, train, test);
    }

    /** The test pair at {@code index}, with a reason when there is none. */
    public Pair test(int index) {
        if (index < 0 || index >= test.size()) {
            throw new IllegalArgumentException("task " + id + " has " + test.size() + " test pair(s); index "
                    + index + " does not exist");
        }
        return test.get(index);
    }

    private static List<Pair> pairs(JsonNode root, String field, boolean outputRequired) {
        JsonNode arr = root.get(field);
        if (arr == null || !arr.isArray()) {
            throw new IllegalArgumentException("'" + field + "' must be an array of {input, output} pairs");
        }
        List<Pair> out = new ArrayList<>();
        for (int i = 0; i < arr.size(); i++) {
            JsonNode p = arr.get(i);
            String where = field + "[" + i + "]";
            ArcGrid in = grid(p.get("input"), where + ".input");
            JsonNode o = p.get("output");
            if (o == null || o.isNull()) {
                if (outputRequired) {
                    throw new IllegalArgumentException(where + " has no output");
                }
                out.add(new Pair(in, null));
            } else {
                out.add(new Pair(in, grid(o, where + ".output")));
            }
        }
        return out;
    }

    static ArcGrid grid(JsonNode node, String where) {
        if (node == null || !node.isArray()) {
            throw new IllegalArgumentException(where + " must be an array of rows");
        }
        int[][] rows = new int[node.size()][];
        for (int r = 0; r < node.size(); r++) {
            JsonNode row = node.get(r);
            if (!row.isArray()) {
                throw new IllegalArgumentException(where + " row " + r + " must be an array of integers");
            }
            rows[r] = new int[row.size()];
            for (int c = 0; c < row.size(); c++) {
                JsonNode v = row.get(c);
                if (!v.isIntegralNumber()) {
                    throw new IllegalArgumentException(where + " cell (" + r + ", " + c + ") must be an integer 0..9");
                }
                rows[r][c] = v.intValue();
            }
        }
        try {
            return ArcGrid.of(rows);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }
}
