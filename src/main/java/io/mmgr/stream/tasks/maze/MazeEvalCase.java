package io.mmgr.stream.tasks.maze;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code mmgr eval maze}'s case: the reference as {@code problem} and {@code solution} images (the item's
 * artifacts) with {@code rows} and {@code cols}, or as {@code maze}, a JSON file of the maze's structure
 * in maze-dataset's names ({@link MazeStructure}; its size, lattice and solution become the item's ground
 * truth and no image is needed); optional {@code markers}, the colour of each marker role
 * ({@link MarkerRoles}: an object such as {@code {"agent": "blue", "start": "green", "target": "red"}});
 * {@code output} (image or video file) and optional {@code model} (it picks the video frame budget).
 */
final class MazeEvalCase {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MazeEvalCase() {
    }

    static EvalSample sample(EvalCase c) throws IOException {
        Path output = c.path("output");
        Integer rows;
        Integer cols;
        List<String> lattice = null;
        List<List<Integer>> path = null;
        List<ArtifactRef> artifacts = new ArrayList<>();
        if (c.fields().hasNonNull("maze")) {
            MazeStructure maze = structure(c.path("maze"));
            rows = maze.rows();
            cols = maze.cols();
            lattice = maze.lattice().toStrings();
            path = maze.solutionPath();
            for (String size : new String[] {"rows", "cols"}) {
                int given = c.integer(size, -1);
                int actual = size.equals("rows") ? maze.rows() : maze.cols();
                if (given != -1 && given != actual) {
                    throw new IllegalArgumentException("case's '" + size + "' " + given + " is not the maze's " + actual
                            + " (its grid_shape)");
                }
            }
            // images given beside the structure are still read: a problem image then fixes the placement
            if (c.fields().hasNonNull("problem")) {
                artifacts.add(EvalSample.artifact("problem", c.path("problem")));
            }
        } else {
            artifacts.add(EvalSample.artifact("problem", c.path("problem")));
            artifacts.add(EvalSample.artifact("solution", c.path("solution")));
            // the size is checked where the stream checks it (the evaluator), so errors read the same
            rows = c.fields().path("rows").asInt();
            cols = c.fields().path("cols").asInt();
        }
        GroundTruth gt = new MazeTruth(rows, cols, lattice, path, markers(c)).into(GroundTruth.newBuilder()).build();
        BenchmarkItem item = BenchmarkItem.newBuilder().setTask(MazeTasks.TASK).setSampleId(EvalSample.CLI)
                .setArtifacts(artifacts).setGroundTruth(gt).build();
        return new EvalSample(EvalSample.event(MazeTasks.TASK, c.text("model", ""), output), item);
    }

    /**
     * The case's {@code markers}: an object of role to colour, or the CLI's {@code agent=blue,...} text;
     * checked here so a bad one is the case's error (null when absent).
     */
    private static java.util.Map<String, String> markers(EvalCase c) {
        JsonNode m = c.fields().get("markers");
        if (m == null || m.isNull()) {
            return null;
        }
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        if (m.isTextual()) {
            out.putAll(MarkerRoles.split(m.asText()));
        } else if (m.isObject()) {
            m.fields().forEachRemaining(e -> {
                if (!e.getValue().isTextual()) {
                    throw new IllegalArgumentException("case's 'markers'." + e.getKey() + " must be a colour name or #rrggbb");
                }
                out.put(e.getKey(), e.getValue().asText());
            });
        } else {
            throw new IllegalArgumentException("case's 'markers' must be an object of role to colour");
        }
        MarkerRoles.of(out);
        return out;
    }

    private static MazeStructure structure(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("maze file not found: " + file);
        }
        JsonNode json;
        try {
            json = JSON.readTree(file.toFile());
        } catch (IOException e) {
            // a parse error, or bytes that are not text at all (Jackson's charset detection gives up)
            throw new IllegalArgumentException("maze file " + file + " is not JSON: "
                    + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()));
        }
        try {
            return MazeStructure.parse(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("maze file " + file + ": " + e.getMessage());
        }
    }
}
