package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.maze.MazeTruth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class EvalMazeCommandTest {

    @TempDir
    Path dir;

    private String run(String... args) {
        return CliRun.stdout(args);
    }

    @Test
    void generatesThenScoresSingleAndBatch() throws Exception {
        run("bench", "generate", "maze", "--out", dir.toString(), "--count", "2", "--band", "easy", "--seed", "4");
        List<String> items = Files.readAllLines(dir.resolve("benchmark-items.jsonl"));
        assertThat(items).hasSize(2);
        ObjectMapper mapper = new ObjectMapper();
        JsonNode a = mapper.readTree(items.get(0));
        String id = a.get("sampleId").asText();
        MazeTruth truth = MazeTruth.of(JsonAvro.read(items.get(0), BenchmarkItem.class).getGroundTruth());
        String rows = truth.rows().toString();
        String cols = truth.cols().toString();
        Path problem = dir.resolve(id + "-problem.png");
        Path solution = dir.resolve(id + "-solution.png");

        // the reference solution itself is a perfect answer; the bare problem is no answer
        JsonNode good = mapper.readTree(run("eval", "maze", "--problem", problem.toString(), "--solution", solution.toString(),
                "--rows", rows, "--cols", cols, "--output", solution.toString()));
        assertThat(good.get("overall").asDouble()).isEqualTo(1.0);
        assertThat(good.get("maze_changed").asDouble()).isZero();
        assertThat(good.get("cross_wall").asDouble()).isZero();
        assertThat(good.get("target_achievement").asDouble()).isEqualTo(1.0);
        assertThat(good.get("action_reflection").isNull()).isTrue();
        assertThat(good.has("layout_iou") && good.has("crossing_ratio") && good.has("path_iou")
                && good.has("path_precision") && good.has("path_recall") && good.has("path_length_ratio")).isTrue();

        Path cases = dir.resolve("cases.jsonl");
        Files.writeString(cases, String.join("\n",
                caseLine("ok", problem, solution, rows, cols, solution),
                caseLine("none", problem, solution, rows, cols, problem),
                caseLine("missing", problem, solution, rows, cols, dir.resolve("nope.png"))) + "\n");
        List<JsonNode> out = jsonLines(run("eval", "maze", "--batch", cases.toString()));
        assertThat(out).hasSize(3);
        assertThat(out.get(0).get("id").asText()).isEqualTo("ok");
        assertThat(out.get(0).get("overall").asDouble()).isEqualTo(1.0);
        assertThat(out.get(1).get("id").asText()).isEqualTo("none");
        assertThat(out.get(1).get("overall").asDouble()).isZero();
        assertThat(out.get(1).get("target_achievement").asDouble()).isZero();
        assertThat(out.get(2).get("error").asText()).contains("not found");
    }

    /**
     * A maze given as structure and a video in maze-dataset's look (row 0 at the bottom, a green start
     * disc, a blue star agent): right with the roles named and found, wrong with the roles swapped, and
     * clear errors for a malformed structure or a marker colour that cannot be told apart.
     */
    @Test
    void scoresAVideoAgainstTheMazesStructureWithAnyMarkerRoles() throws Exception {
        io.mmgr.stream.tasks.maze.MazePlotCorpus.Case c = io.mmgr.stream.tasks.maze.MazePlotCorpus.cases(1, 5).get(0);
        assertThat(c.passes()).isTrue();
        Path video = dir.resolve("answer.mp4");
        c.writeVideo(video);
        Path maze = dir.resolve("maze.json");
        Files.writeString(maze, io.mmgr.stream.tasks.maze.MazeStructure.of(c.problem()).toJson().toString());
        ObjectMapper mapper = new ObjectMapper();

        JsonNode found = mapper.readTree(run("eval", "maze", "--maze", maze.toString(), "--output", video.toString()));
        assertThat(found.get("overall").asDouble()).isEqualTo(1.0);
        JsonNode named = mapper.readTree(run("eval", "maze", "--maze", maze.toString(), "--output", video.toString(),
                "--markers", "agent=blue,start=green,target=red"));
        assertThat(named.get("overall").asDouble()).isEqualTo(1.0);
        // the disc named the agent: it never moves, so the answer does not reach the target
        JsonNode swapped = mapper.readTree(run("eval", "maze", "--maze", maze.toString(), "--output", video.toString(),
                "--markers", "agent=green,start=blue,target=red"));
        assertThat(swapped.get("overall").asDouble()).isZero();
        assertThat(swapped.get("failed_checks").toString()).contains("target_achievement");

        Path cases = dir.resolve("structure-cases.jsonl");
        Files.writeString(cases, String.join("\n",
                String.format("{\"id\":\"obj\",\"maze\":\"%s\",\"output\":\"%s\",\"markers\":{\"agent\":\"#00a2e8\"}}", maze, video),
                String.format("{\"id\":\"black\",\"maze\":\"%s\",\"output\":\"%s\",\"markers\":{\"agent\":\"black\"}}", maze, video),
                String.format("{\"id\":\"badmaze\",\"maze\":\"%s\",\"output\":\"%s\"}", video, video)) + "\n");
        List<JsonNode> out = jsonLines(run("eval", "maze", "--batch", cases.toString()));
        assertThat(out.get(0).get("overall").asDouble()).isEqualTo(1.0);
        assertThat(out.get(1).get("error").asText()).contains("cannot be told apart");
        assertThat(out.get(2).get("error").asText()).contains("is not JSON");
    }

    private static List<JsonNode> jsonLines(String out) {
        ObjectMapper mapper = new ObjectMapper();
        return out.lines().map(l -> {
            try {
                return mapper.readTree(l);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    private static String caseLine(String id, Path problem, Path solution, String rows, String cols, Path output) {
        return String.format("{\"id\":\"%s\",\"problem\":\"%s\",\"solution\":\"%s\",\"rows\":%s,\"cols\":%s,\"output\":\"%s\"}",
                id, problem, solution, rows, cols, output);
    }
}
