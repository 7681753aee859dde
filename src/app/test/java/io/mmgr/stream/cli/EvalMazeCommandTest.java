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
                String.format("{\"id\":\"grey\",\"maze\":\"%s\",\"output\":\"%s\",\"markers\":{\"agent\":\"grey\"}}", maze, video),
                String.format("{\"id\":\"badmaze\",\"maze\":\"%s\",\"output\":\"%s\"}", video, video)) + "\n");
        List<JsonNode> out = jsonLines(run("eval", "maze", "--batch", cases.toString()));
        assertThat(out.get(0).get("overall").asDouble()).isEqualTo(1.0);
        assertThat(out.get(1).get("error").asText()).contains("cannot be told apart");
        assertThat(out.get(2).get("error").asText()).contains("is not JSON");
    }

    /**
     * Black markers, told apart from the black walls by the maze's structure: a black star walking the
     * solution passes with {@code --markers agent=black}, and with the batch key {@code markers}; the
     * same video fails when the agent is said to be a colour nothing in it has; a black target turning
     * into a black trophy passes with the agent found as the marker that moves; a grey marker is refused.
     */
    @Test
    void acceptsBlackMarkersOnTheCommandLineAndInABatch() throws Exception {
        var agentCase = io.mmgr.stream.tasks.maze.MazePlotCorpus.cases(1, 5,
                io.mmgr.stream.tasks.maze.MazePlotCorpus.Markers.BLACK_AGENT).get(0);
        var targetCase = io.mmgr.stream.tasks.maze.MazePlotCorpus.cases(1, 6,
                io.mmgr.stream.tasks.maze.MazePlotCorpus.Markers.BLACK_TARGET).get(0);
        assertThat(agentCase.passes()).isTrue();
        assertThat(targetCase.passes()).isTrue();
        Path agentVideo = dir.resolve("black-agent.mp4");
        Path targetVideo = dir.resolve("black-target.mp4");
        agentCase.writeVideo(agentVideo);
        targetCase.writeVideo(targetVideo);
        Path agentMaze = dir.resolve("agent-maze.json");
        Path targetMaze = dir.resolve("target-maze.json");
        Files.writeString(agentMaze, io.mmgr.stream.tasks.maze.MazeStructure.of(agentCase.problem()).toJson().toString());
        Files.writeString(targetMaze, io.mmgr.stream.tasks.maze.MazeStructure.of(targetCase.problem()).toJson().toString());
        ObjectMapper mapper = new ObjectMapper();

        JsonNode black = mapper.readTree(run("eval", "maze", "--maze", agentMaze.toString(), "--output", agentVideo.toString(),
                "--markers", "agent=black,start=green,target=red"));
        assertThat(black.get("overall").asDouble()).isEqualTo(1.0);
        assertThat(black.get("cross_wall").asDouble()).isZero();
        assertThat(black.get("target_achievement").asDouble()).isEqualTo(1.0);
        // nothing purple moves in it: the agent is never seen to walk
        JsonNode purple = mapper.readTree(run("eval", "maze", "--maze", agentMaze.toString(), "--output", agentVideo.toString(),
                "--markers", "agent=purple"));
        assertThat(purple.get("overall").asDouble()).isZero();
        assertThat(purple.get("failed_checks").toString()).contains("target_achievement");

        Path cases = dir.resolve("black-cases.jsonl");
        Files.writeString(cases, String.join("\n",
                String.format("{\"id\":\"agent\",\"maze\":\"%s\",\"output\":\"%s\",\"markers\":{\"agent\":\"black\"}}",
                        agentMaze, agentVideo),
                String.format("{\"id\":\"target\",\"maze\":\"%s\",\"output\":\"%s\",\"markers\":{\"target\":\"#101010\"}}",
                        targetMaze, targetVideo),
                String.format("{\"id\":\"grey\",\"maze\":\"%s\",\"output\":\"%s\",\"markers\":{\"target\":\"#808080\"}}",
                        targetMaze, targetVideo)) + "\n");
        List<JsonNode> out = jsonLines(run("eval", "maze", "--batch", cases.toString(), "--threads", "1"));
        assertThat(out.get(0).get("id").asText()).isEqualTo("agent");
        assertThat(out.get(0).get("overall").asDouble()).isEqualTo(1.0);
        assertThat(out.get(1).get("id").asText()).isEqualTo("target");
        assertThat(out.get(1).get("overall").asDouble()).isEqualTo(1.0);
        assertThat(out.get(1).get("target_moved").asDouble()).isZero();
        assertThat(out.get(2).get("error").asText()).contains("too grey");
    }

    /**
     * {@code bench generate maze --look maze-dataset} writes videos in that look with their structure and
     * known verdicts (a right answer and one stopping short for each of the three marker colourings), and
     * {@code eval maze --batch} over its cases.jsonl reaches every one of them; an unknown look is refused.
     */
    @Test
    void generatesTheMazeDatasetLookWithItsLabels() throws Exception {
        Path corpus = dir.resolve("plot");
        run("bench", "generate", "maze", "--out", corpus.toString(), "--answers", "6", "--look", "maze-dataset", "--seed", "3");
        List<JsonNode> cases = jsonLines(Files.readString(corpus.resolve("cases.jsonl")));
        assertThat(cases).hasSize(6);
        assertThat(cases).extracting(c -> c.get("style").asText()).containsOnly("video-mazeplot-miniveo3",
                "video-mazeplot-miniveo3-black-agent", "video-mazeplot-miniveo3-black-target");
        assertThat(cases).anyMatch(c -> c.path("markers").path("agent").asText().equals("black"))
                .anyMatch(c -> c.path("markers").path("target").asText().equals("black"))
                .anyMatch(c -> c.get("expected").asInt() == 0).anyMatch(c -> c.get("expected").asInt() == 1);
        List<JsonNode> scored = jsonLines(run("eval", "maze", "--batch", corpus.resolve("cases.jsonl").toString(), "--threads", "1"));
        assertThat(scored).hasSize(6);
        for (int i = 0; i < 6; i++) {
            assertThat(scored.get(i).get("id").asText()).isEqualTo(cases.get(i).get("id").asText());
            assertThat(scored.get(i).get("overall").asDouble()).as(cases.get(i).get("id").asText())
                    .isEqualTo(cases.get(i).get("expected").asDouble());
        }
        CliRun unknown = CliRun.of("bench", "generate", "maze", "--out", corpus.toString(), "--answers", "1", "--look", "plot");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("--look must be mmgr or maze-dataset");
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
