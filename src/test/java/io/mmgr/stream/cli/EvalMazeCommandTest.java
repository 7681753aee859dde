package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
        String rows = a.get("groundTruth").get("mazeRows").asText();
        String cols = a.get("groundTruth").get("mazeCols").asText();
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
        List<JsonNode> out = run("eval", "maze", "--batch", cases.toString()).lines().map(l -> {
            try {
                return mapper.readTree(l);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        assertThat(out).hasSize(3);
        assertThat(out.get(0).get("id").asText()).isEqualTo("ok");
        assertThat(out.get(0).get("overall").asDouble()).isEqualTo(1.0);
        assertThat(out.get(1).get("id").asText()).isEqualTo("none");
        assertThat(out.get(1).get("overall").asDouble()).isZero();
        assertThat(out.get(1).get("target_achievement").asDouble()).isZero();
        assertThat(out.get(2).get("error").asText()).contains("not found");
    }

    private static String caseLine(String id, Path problem, Path solution, String rows, String cols, Path output) {
        return String.format("{\"id\":\"%s\",\"problem\":\"%s\",\"solution\":\"%s\",\"rows\":%s,\"cols\":%s,\"output\":\"%s\"}",
                id, problem, solution, rows, cols, output);
    }
}
