package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.arc.ArcTruth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class EvalArcCommandTest {

    @TempDir
    Path dir;

    private String run(String... args) {
        return CliRun.stdout(args);
    }

    @Test
    void generatesThenScoresSingleAndBatch() throws Exception {
        // the families' ARC fixture as a directory, from the repository (tests run at its top level): on this
        // module's class path it is inside the families' test jar
        Path data = Path.of("src/families/test/resources/arc-agi");
        String wrote = run("bench", "generate", "arc", "--data", data.toString(), "--split", "training",
                "--out", dir.toString(), "--count", "2", "--seed", "5");
        assertThat(wrote).startsWith("wrote ");
        ObjectMapper mapper = new ObjectMapper();
        String line = Files.readAllLines(dir.resolve("benchmark-items.jsonl")).get(0);
        JsonNode item = mapper.readTree(line);
        // the grid and region are ARC's payload (base64 in the JSON line)
        ArcTruth truth = ArcTruth.of(JsonAvro.read(line, BenchmarkItem.class).getGroundTruth());
        String id = item.get("sampleId").asText();
        String taskId = item.get("groundTruth").get("extra").get("arcTaskId").asText();
        int index = item.get("groundTruth").get("extra").get("testIndex").asInt();
        Path task = dir.resolve(taskId + ".json");
        Path answer = dir.resolve(id + "-answer.png");
        List<Integer> region = truth.answerRegion();
        String regionArg = region.get(0) + "," + region.get(1) + "," + region.get(2) + "," + region.get(3);

        JsonNode good = mapper.readTree(run("eval", "arc", "--task", task.toString(), "--test-index", "" + index,
                "--output", answer.toString()));
        assertThat(good.get("grid_integrity").asDouble()).isEqualTo(1.0);
        assertThat(good.get("cell_accuracy").asDouble()).isEqualTo(1.0);
        assertThat(good.get("valid_solution").asDouble()).isEqualTo(1.0);
        assertThat(good.get("decoded_grid")).isEqualTo(mapper.valueToTree(truth.grid()));

        JsonNode canvas = mapper.readTree(run("eval", "arc", "--task", task.toString(), "--test-index", "" + index,
                "--output", dir.resolve(id + "-solution.png").toString(), "--answer-region", regionArg));
        assertThat(canvas.get("valid_solution").asDouble()).isEqualTo(1.0);

        Path cases = dir.resolve("cases.jsonl");
        Files.writeString(cases, String.join("\n",
                String.format("{\"id\": \"ok\", \"task\": \"%s\", \"test_index\": %d, \"output\": \"%s\"}", task, index, answer),
                String.format("{\"id\": \"empty\", \"task\": \"%s\", \"test_index\": %d, \"output\": \"%s\", \"answer_region\": [%s]}",
                        task, index, dir.resolve(id + "-problem.png"), regionArg),
                String.format("{\"id\": \"missing\", \"task\": \"%s\", \"test_index\": %d, \"output\": \"%s\"}",
                        task, index, dir.resolve("nope.png")),
                String.format("{\"id\": \"no-task\", \"output\": \"%s\"}", answer)) + "\n");
        List<JsonNode> out = run("eval", "arc", "--batch", cases.toString()).lines().map(l -> {
            try {
                return mapper.readTree(l);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        assertThat(out).hasSize(4);
        assertThat(out.get(0).get("id").asText()).isEqualTo("ok");
        assertThat(out.get(0).get("valid_solution").asDouble()).isEqualTo(1.0);
        assertThat(out.get(1).get("id").asText()).isEqualTo("empty");
        assertThat(out.get(1).get("valid_solution").asDouble()).isZero();
        assertThat(out.get(1).get("grid_integrity").asDouble()).isZero();
        assertThat(out.get(1).get("cell_accuracy").isNull()).isTrue();
        assertThat(out.get(2).get("id").asText()).isEqualTo("missing");
        assertThat(out.get(2).get("error").asText()).contains("not found");
        // a field error names the file and the line, as every eval command's batch errors do
        assertThat(out.get(3).get("error").asText()).startsWith(cases + " line 4: ").contains("'task'");
    }
}
