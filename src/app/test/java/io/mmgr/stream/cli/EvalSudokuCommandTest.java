package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.sudoku.SudokuPuzzle;
import io.mmgr.stream.tasks.sudoku.SudokuRenderer;
import io.mmgr.stream.tasks.sudoku.SudokuStyle;
import io.mmgr.stream.tasks.sudoku.SudokuTruth;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class EvalSudokuCommandTest {

    @TempDir
    Path dir;

    final ObjectMapper mapper = new ObjectMapper();

    private CliRun run(String... args) {
        return CliRun.of(args);
    }

    private JsonNode json(String line) throws Exception {
        return mapper.readTree(line);
    }

    @Test
    void generatesThenScoresSingleAndBatch() throws Exception {
        CliRun gen = run("bench", "generate", "sudoku", "--out", dir.toString(), "--count", "2", "--size", "all",
                "--band", "hard", "--seed", "4");
        assertThat(gen.exit()).isZero();
        List<String> items = Files.readAllLines(dir.resolve("benchmark-items.jsonl"));
        assertThat(items).hasSize(2);
        JsonNode four = json(items.get(0));
        JsonNode nine = json(items.get(1));
        // the ground truth is Sudoku's payload (base64 in the JSON line)
        SudokuTruth fourTruth = SudokuTruth.of(JsonAvro.read(items.get(0), BenchmarkItem.class).getGroundTruth());
        SudokuTruth nineTruth = SudokuTruth.of(JsonAvro.read(items.get(1), BenchmarkItem.class).getGroundTruth());
        assertThat(four.get("groundTruth").get("family").asText()).isEqualTo("sudoku");
        assertThat(fourTruth.size()).isEqualTo(4);
        assertThat(nineTruth.size()).isEqualTo(9);
        assertThat(nine.get("difficulty").asText()).isEqualTo("hard");
        String givens = nineTruth.givens();
        String solution = nineTruth.solution();
        Path solved = dir.resolve(nine.get("sampleId").asText() + "-solution.png");
        Path posed = dir.resolve(nine.get("sampleId").asText() + "-problem.png");

        CliRun single = run("eval", "sudoku", "--size", "9", "--givens", givens, "--solution", solution,
                "--output", solved.toString());
        assertThat(single.exit()).isZero();
        JsonNode good = json(single.out());
        assertThat(good.get("overall").asDouble()).isEqualTo(1.0);
        assertThat(good.get("clues_changed").asDouble()).isZero();
        assertThat(good.get("constraint_violation").asDouble()).isZero();
        assertThat(good.get("completion_accuracy").asDouble()).isEqualTo(1.0);
        assertThat(good.get("action_reflection").isNull()).isTrue();
        assertThat(good.get("grid").asText()).isEqualTo(solution);
        assertThat(good.get("diagnostics").get("cells_ocr").asInt()).isEqualTo(81);

        // a short video that writes the 4x4 solution in one go: scored, with Action Reflection
        SudokuPuzzle p4 = SudokuPuzzle.parse(4, fourTruth.givens(), fourTruth.solution());
        Path video = dir.resolve("four.mp4");
        try (VideoEncoder enc = VideoEncoder.open(video, 256, 256, 24, VideoEncoder.Container.MP4)) {
            for (int i = 0; i < 10; i++) {
                enc.write(i < 5 ? SudokuRenderer.problem(p4, SudokuStyle.standard(256))
                        : SudokuRenderer.solution(p4, SudokuStyle.standard(256)));
            }
        }

        Path cases = dir.resolve("cases.jsonl");
        Files.writeString(cases, String.join("\n",
                caseLine("ok", 9, givens, solution, solved),
                caseLine("none", 9, givens, solution, posed),
                caseLine("video", 4, p4.givensString(), p4.solutionString(), video),
                caseLine("missing", 9, givens, solution, dir.resolve("nope.png")),
                caseLine("wrong-size", 4, p4.givensString(), p4.solutionString(), solved),
                "{\"id\":\"incomplete\",\"size\":9,\"givens\":\"" + givens + "\"}") + "\n");
        CliRun batch = run("eval", "sudoku", "--batch", cases.toString());
        assertThat(batch.exit()).isEqualTo(1); // some cases failed
        List<String> lines = batch.out().lines().toList();
        assertThat(lines).hasSize(6);
        JsonNode ok = json(lines.get(0));
        assertThat(ok.get("id").asText()).isEqualTo("ok");
        assertThat(ok.get("overall").asDouble()).isEqualTo(1.0);
        JsonNode none = json(lines.get(1));
        assertThat(none.get("id").asText()).isEqualTo("none");
        assertThat(none.get("completion_accuracy").asDouble()).isZero();
        assertThat(none.get("overall").asDouble()).isZero();
        assertThat(none.get("failed_checks").get(0).asText()).isEqualTo("sudoku-ocr.completion_accuracy=1");
        JsonNode vid = json(lines.get(2));
        assertThat(vid.get("modality").asText()).isEqualTo("video");
        assertThat(vid.get("completion_accuracy").asDouble()).isEqualTo(1.0);
        assertThat(vid.get("action_reflection").asDouble()).isZero(); // every blank changed in one frame
        assertThat(vid.get("diagnostics").get("frames_analyzed").asInt()).isEqualTo(10);
        assertThat(json(lines.get(3)).get("error").asText()).contains("not found");
        assertThat(json(lines.get(4)).get("error").asText()).isEqualTo("sudoku output image: the grid has 9 columns, expected 4");
        assertThat(json(lines.get(5)).get("id").asText()).isEqualTo("incomplete");
        assertThat(json(lines.get(5)).get("error").asText()).isEqualTo("case is missing 'solution'");
    }

    @Test
    void missingArgumentsAndBadGroundTruthAreReported() throws Exception {
        CliRun missing = run("eval", "sudoku", "--size", "4");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("--givens");

        Path any = dir.resolve("any.png");
        Files.write(any, new byte[] {1});
        CliRun bad = run("eval", "sudoku", "--size", "4", "--givens", "1..4", "--solution", "1234", "--output", any.toString());
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(json(bad.out()).get("error").asText()).contains("givens have 4 cells, a 4x4 grid has 16");

        CliRun badSize = run("bench", "generate", "sudoku", "--out", dir.toString(), "--size", "6");
        assertThat(badSize.exit()).isEqualTo(2);
        assertThat(badSize.err()).contains("--size must be 4, 9 or all");
    }

    private static String caseLine(String id, int size, String givens, String solution, Path output) {
        return String.format("{\"id\":\"%s\",\"size\":%d,\"givens\":\"%s\",\"solution\":\"%s\",\"output\":\"%s\"}",
                id, size, givens, solution, output);
    }
}
