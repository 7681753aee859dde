package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.SimulatedTask;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's simulated maze model answers with what it says it drew: a perfect model's images and
 * videos pass the pixel pipeline's gate, a hopeless one's faults are all caught.
 */
@Tag("unit")
class MazeSimulationTest {

    @TempDir
    Path dir;

    @Test
    void rightAnswersPassAndFaultyOnesFailThePixelGate() throws Exception {
        MazeSimulation sim = new MazeSimulation();
        List<BenchmarkItem> items = sim.benchmark(4, 3, dir);
        assertThat(items).hasSize(4).allMatch(i -> i.getTask().equals("maze"));
        LocalArtifactResolver resolver = new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"));
        MazePixelEvaluator evaluator = new MazePixelEvaluator();
        Random random = new Random(5);
        int videos = 0;
        for (BenchmarkItem item : items) {
            for (double skill : new double[] {1.0, 0.0}) {
                SimulatedTask.Answer a = sim.answer(item, 0, skill, random, dir.resolve("out"));
                videos += a.modality().equals("video") ? 1 : 0;
                GenerationEvent e = GenerationEvent.newBuilder().setRunId("r").setModel("demo-model").setCheckpointId("c")
                        .setTrainingStep(1).setTask("maze").setSampleId(item.getSampleId()).setModality(a.modality())
                        .setArtifacts(a.artifacts()).setProducedAt(Instant.EPOCH).build();
                assertThat(evaluator.precheck(e, item)).isEmpty();
                EvaluationOutcome o = evaluator.evaluate(new EvaluationContext(e, item, resolver));
                Double overall = MazeEvaluatorItems.gate(a.modality(), o.metrics()).primary();
                if (skill == 1.0) {
                    assertThat(a.fault()).isEqualTo("none");
                    assertThat(overall).as("%s answered right as %s", item.getSampleId(), a.modality()).isEqualTo(1.0);
                } else {
                    assertThat(a.fault()).isNotEqualTo("none");
                    assertThat(overall).as("%s with fault %s as %s", item.getSampleId(), a.fault(), a.modality()).isEqualTo(0.0);
                }
            }
        }
        assertThat(videos).as("every fourth item is answered as a video").isEqualTo(2);
    }
}
