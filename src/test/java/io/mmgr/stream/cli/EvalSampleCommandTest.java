package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.cli.JsonOutput;
import io.mmgr.stream.tasks.maze.MazeBand;
import io.mmgr.stream.tasks.maze.MazeBenchmarkGenerator;
import io.mmgr.stream.tasks.sudoku.SudokuBand;
import io.mmgr.stream.tasks.sudoku.SudokuBenchmarkGenerator;
import io.mmgr.stream.topology.TopologyFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code eval --event --item} against the stream itself: generated maze and sudoku items (known ground
 * truth) and answers (right ones, faulty ones, one the intake refuses) go through the whole scorer on
 * TopologyTestDriver without a judge, and through the command; both must say the same of each.
 */
@Tag("topology")
class EvalSampleCommandTest {

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        java.io.StringWriter err = new java.io.StringWriter();
        System.setOut(new PrintStream(out, true));
        try {
            var cl = Main.commandLine();
            cl.setErr(new PrintWriter(err, true));
            int exit = cl.execute(args);
            return new Run(exit, out.toString(), err.toString());
        } finally {
            System.setOut(old);
        }
    }

    private Run eval(GenerationEvent event, BenchmarkItem item, String name) throws Exception {
        Path e = Files.writeString(dir.resolve(name + "-event.json"), JsonAvro.toJson(event).toString());
        Path i = Files.writeString(dir.resolve(name + "-item.json"), JsonAvro.toJson(item).toString());
        return run("eval", "--event", e.toString(), "--item", i.toString());
    }

    private static GenerationEvent event(BenchmarkItem item, int seed, String outputUri) {
        List<ArtifactRef> artifacts = outputUri == null ? List.of() : List.of(ArtifactRef.newBuilder().setRole("output")
                .setUri(outputUri).setMediaType("image/png").build());
        return GenerationEvent.newBuilder()
                .setRunId("run").setModel("model-x").setCheckpointId("c1").setTrainingStep(1)
                .setTask(item.getTask()).setSampleId(item.getSampleId()).setSeed(seed).setModality("image")
                .setArtifacts(artifacts).setProducedAt(Instant.ofEpochMilli(1_700_000_000_000L))
                .build();
    }

    private static String uri(BenchmarkItem item, String role) {
        return item.getArtifacts().stream().filter(a -> a.getRole().equals(role)).findFirst().orElseThrow().getUri();
    }

    @Test
    void scoresEachSampleAsTheStreamDoes() throws Exception {
        BenchmarkItem maze = MazeBenchmarkGenerator.generate(dir.resolve("maze"), 1, List.of(MazeBand.MEDIUM), 21).items().get(0);
        BenchmarkItem sudoku = SudokuBenchmarkGenerator.generate(dir.resolve("sudoku"), 1, List.of(4), List.of(SudokuBand.EASY), 5)
                .items().get(0);
        Path sudokuSolution = Path.of(java.net.URI.create(uri(sudoku, "solution")));
        Path corrupt = dir.resolve("corrupt.png");
        byte[] png = Files.readAllBytes(sudokuSolution);
        Files.write(corrupt, Arrays.copyOf(png, png.length / 2));

        List<GenerationEvent> scored = List.of(
                event(maze, 0, uri(maze, "solution")),          // the right path
                event(maze, 1, uri(maze, "problem")),           // the maze unsolved: no path drawn
                event(sudoku, 0, sudokuSolution.toUri().toString()),
                event(sudoku, 1, corrupt.toUri().toString()));  // a truncated PNG: the evaluator fails
        GenerationEvent refused = event(sudoku, 2, null);       // no output: intake's precheck refuses it

        Map<SampleKey, SampleScore> stream;
        List<DeadLetter> letters;
        try (TopologyFixture fx = TopologyFixture.builder("t.", dir).settings(s -> s.withJudge(false))
                .context(c -> c.tasks(TaskCatalog.load(), EvaluatorRegistry.load())
                        .artifacts(new LocalArtifactResolver(List.of(dir), 1 << 24, dir.resolve("spill")))).scorer()) {
            TestOutputTopic<SampleKey, SampleScore> scores = fx.output(fx.topics.sampleScores);
            fx.item(maze);
            fx.item(sudoku);
            for (GenerationEvent e : scored) {
                fx.publish(e);
            }
            fx.publish(refused);
            stream = scores.readKeyValuesToMap();
            letters = new ArrayList<>(fx.deadLetters().readValuesToList());
        }
        assertThat(stream).hasSize(4);

        List<String> statuses = new ArrayList<>();
        for (GenerationEvent e : scored) {
            SampleScore expected = stream.get(SampleKeys.of(e));
            Run r = eval(e, e.getTask().equals("maze") ? maze : sudoku, e.getTask() + "-" + e.getSeed());
            JsonNode out = JsonOutput.parse(r.out());
            String what = e.getTask() + " seed " + e.getSeed();
            assertThat(out.get("status").asText()).as(what).isEqualTo(expected.getStatus());
            assertThat(r.exit()).as(what + " exit").isEqualTo(expected.getStatus().equals("FAILED") ? 1 : 0);
            assertThat(out.get("primary").isNull() ? null : out.get("primary").asDouble()).as(what).isEqualTo(expected.getPrimary());
            assertThat(out.get("primary_source").isNull() ? null : out.get("primary_source").asText()).as(what)
                    .isEqualTo(expected.getPrimarySource());
            assertThat(map(out.get("metrics"), Double.class)).as(what).isEqualTo(expected.getMetrics());
            assertThat(map(out.get("gates"), Double.class)).as(what).isEqualTo(expected.getGates());
            assertThat(list(out.get("failed_checks"))).as(what).isEqualTo(expected.getFailedChecks());
            assertThat(list(out.get("missing_checks"))).as(what).isEqualTo(expected.getMissingChecks());
            assertThat(map(out.get("errors"), String.class)).as(what).isEqualTo(expected.getErrors());
            assertThat(map(out.get("unavailable"), String.class)).as(what).isEqualTo(expected.getPending());
            assertThat(list(out.get("parts_used"))).as(what).isEqualTo(expected.getPartsUsed());
            statuses.add(what + " " + expected.getStatus() + " " + expected.getPrimary());
        }
        // the fixtures' ground truth, so the agreement above is not two identical mistakes
        assertThat(statuses).containsExactly("maze seed 0 PARTIAL 1.0", "maze seed 1 PARTIAL 0.0",
                "sudoku seed 0 PARTIAL 1.0", "sudoku seed 1 FAILED null");

        Run r = eval(refused, sudoku, "refused");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        DeadLetter letter = letters.stream().filter(l -> l.getStage().equals("intake")).findFirst().orElseThrow();
        assertThat(r.err().trim()).isEqualTo("error: the stream would reject this event: " + letter.getReason());
    }

    @Test
    void badInputIsAClearErrorWithExitTwo() throws Exception {
        Path item = Files.writeString(dir.resolve("item.json"), "{\"task\": \"echo\", \"sampleId\": \"a\", \"groundTruth\": {}}");
        Path event = Files.writeString(dir.resolve("event.json"), "{\"runId\": \"r\", \"model\": \"m\", \"checkpointId\": \"c\","
                + " \"trainingStep\": 1, \"task\": \"maze\", \"sampleId\": \"b\", \"modality\": \"image\", \"producedAt\": 0}");
        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"task\": ");

        Run mismatch = run("eval", "--event", event.toString(), "--item", item.toString());
        assertThat(mismatch.exit()).isEqualTo(2);
        assertThat(mismatch.err()).contains("the item is echo/a, the event is for maze/b");

        Run unreadable = run("eval", "--event", event.toString(), "--item", broken.toString());
        assertThat(unreadable.exit()).isEqualTo(2);
        assertThat(unreadable.err()).startsWith("error: " + broken);

        Run alone = run("eval", "--event", event.toString());
        assertThat(alone.exit()).isEqualTo(2);
        assertThat(alone.err()).contains("--event and --item go together");
    }

    private static <V> Map<String, V> map(JsonNode node, Class<V> type) {
        return JsonOutput.MAPPER.convertValue(node, JsonOutput.MAPPER.getTypeFactory().constructMapType(Map.class, String.class, type));
    }

    private static List<String> list(JsonNode node) {
        return JsonOutput.MAPPER.convertValue(node, new TypeReference<List<String>>() { });
    }
}
