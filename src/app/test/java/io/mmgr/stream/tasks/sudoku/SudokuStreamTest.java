package io.mmgr.stream.tasks.sudoku;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.topology.EvaluationBridge;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sudoku-ocr evaluator inside the scoring topology: a scored sample, and bad input in the dead-letter topic. */
@Tag("topology")
class SudokuStreamTest {

    @TempDir
    Path dir;

    @Test
    void goodOutputsAreScoredAndBadOnesFailIntoTheDeadLetterTopic() throws Exception {
        BenchmarkItem item = SudokuBenchmarkGenerator.generate(dir, 1, List.of(4), List.of(SudokuBand.EASY), 5).items().get(0);
        Path solution = dir.resolve(item.getSampleId() + "-solution.png");
        Path corrupt = dir.resolve("corrupt.png");
        byte[] png = Files.readAllBytes(solution);
        Files.write(corrupt, Arrays.copyOf(png, png.length / 2));

        EvaluatorRegistry evaluators = new EvaluatorRegistry(Map.of(SudokuOcrEvaluator.ID, SudokuOcrEvaluator::new));
        var artifacts = new LocalArtifactResolver(List.of(dir), 1 << 24, dir.resolve("spill"));
        try (TopologyFixture fx = TopologyFixture.builder("t.", dir).settings(s -> s.withJudge(false))
                .context(c -> c.tasks(TaskCatalog.load(), evaluators).artifacts(artifacts)).scorer()) {
            Topics topics = fx.topics;
            EvaluationBridge evaluation = fx.evaluation();
            TestInputTopic<String, BenchmarkItem> benchmark = fx.input(topics.benchmark);
            TestInputTopic<byte[], byte[]> generations = fx.rawInput(topics.generations);
            TestOutputTopic<?, SampleScore> scores = fx.output(topics.sampleScores);
            TestOutputTopic<byte[], DeadLetter> dead = fx.deadLetters();

            benchmark.pipeInput(SampleKeys.itemKey("sudoku", item.getSampleId()), item);
            var serializer = topics.generations.valueSerde().serializer();
            for (GenerationEvent e : List.of(event(item, 0, solution), event(item, 1, corrupt), event(item, 2, null))) {
                generations.pipeInput("k".getBytes(StandardCharsets.UTF_8), serializer.serialize(topics.generations.name(), e));
            }
            assertThat(evaluation.drain()).as("requests evaluated").isEqualTo(2);
            assertThat(evaluation.evaluated(CostClass.IMAGE)).as("images go to the image queue").isEqualTo(2);

            List<SampleScore> out = scores.readValuesToList();
            assertThat(out).hasSize(2);
            SampleScore good = out.stream().filter(s -> s.getSeed() == 0).findFirst().orElseThrow();
            assertThat(good.getPrimary()).isEqualTo(1.0);
            assertThat(good.getPrimarySource()).isEqualTo("ocr");
            assertThat(good.getStatus()).isEqualTo("PARTIAL");
            assertThat(good.getMissingChecks()).as("the judge's checks, no judge configured").containsExactly(
                    "judge.clues_changed=0", "judge.constraint_violation=0", "judge.completion_accuracy=1");
            assertThat(good.getMetrics()).containsEntry("sudoku-ocr.completion_accuracy", 1.0)
                    .containsEntry("sudoku-ocr.clues_changed", 0.0).containsEntry("sudoku-ocr.constraint_violation", 0.0);
            SampleScore bad = out.stream().filter(s -> s.getSeed() == 1).findFirst().orElseThrow();
            assertThat(bad.getStatus()).isEqualTo("FAILED");
            assertThat(bad.getErrors().get("sudoku-ocr")).startsWith("sudoku output image: image is truncated or corrupt");

            List<DeadLetter> letters = new java.util.ArrayList<>(dead.readValuesToList());
            letters.addAll(evaluation.deadLetters());
            assertThat(letters).hasSize(2);
            assertThat(letters).anySatisfy(l -> {
                assertThat(l.getStage()).isEqualTo("evaluate:sudoku-ocr");
                assertThat(l.getReason()).startsWith("sudoku output image: image is truncated or corrupt");
            });
            assertThat(letters).anySatisfy(l -> {
                assertThat(l.getStage()).isEqualTo("intake");
                assertThat(l.getReason()).contains("sudoku generation has no artifact with role 'output'");
            });
        }
    }

    private static GenerationEvent event(BenchmarkItem item, int seed, Path output) {
        List<ArtifactRef> artifacts = output == null ? List.of() : List.of(ArtifactRef.newBuilder().setRole("output")
                .setUri(output.toUri().toString()).setMediaType("image/png").build());
        return GenerationEvent.newBuilder()
                .setRunId("run").setModel("model-x").setCheckpointId("c1").setTrainingStep(1)
                .setTask("sudoku").setSampleId(item.getSampleId()).setSeed(seed).setModality("image")
                .setArtifacts(artifacts).setProducedAt(Instant.ofEpochMilli(1_700_000_000_000L))
                .build();
    }
}
