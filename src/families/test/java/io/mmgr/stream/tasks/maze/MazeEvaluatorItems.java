package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.ArtifactRefs;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.GateInput;
import io.mmgr.stream.tasks.GateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Benchmark items whose reference is only their problem and solution images (no lattice, no solution
 * path: the evaluator has to read them), and the evaluator and gate run on an output exactly as the
 * stream runs them, so a test sees the sample's primary score and its failed checks.
 */
final class MazeEvaluatorItems {

    private MazeEvaluatorItems() {
    }

    /** An item for {@code p} whose problem and solution images are drawn in {@code style}. */
    static BenchmarkItem imagesOnly(Path dir, String id, MazeProblem p, OutputStyle style) throws IOException {
        byte[] problem = OutputRenderer.encode(OutputRenderer.problem(p, style), style);
        byte[] solution = OutputRenderer.encode(OutputRenderer.solution(p, style), style);
        String ext = style.jpegQuality() > 0 ? ".jpg" : ".png";
        String type = style.jpegQuality() > 0 ? "image/jpeg" : "image/png";
        Path pf = Files.write(dir.resolve(id + "-problem" + ext), problem);
        Path sf = Files.write(dir.resolve(id + "-solution" + ext), solution);
        return BenchmarkItem.newBuilder()
                .setTask(MazeTasks.TASK).setSampleId(id).setBenchmark("mmgr").setVersion("test")
                .setPrompt(MazeBenchmarkGenerator.PROMPT)
                .setArtifacts(List.of(ArtifactRefs.file("problem", pf, problem, type, style.width(), style.height()),
                        ArtifactRefs.file("solution", sf, solution, type, style.width(), style.height())))
                .setGroundTruth(GroundTruth.newBuilder().setMazeRows(p.rows()).setMazeCols(p.cols()).build())
                .build();
    }

    /** The maze-pixel part's metrics for {@code output}, through precheck and evaluate as the stream calls them. */
    static EvaluationOutcome evaluate(MazePixelEvaluator evaluator, BenchmarkItem item, Path output, String model)
            throws EvaluationException {
        String name = output.getFileName().toString();
        String mediaType = name.endsWith(".mp4") ? "video/mp4" : name.endsWith(".jpg") ? "image/jpeg" : "image/png";
        GenerationEvent event = GenerationEvent.newBuilder()
                .setRunId("r").setModel(model).setCheckpointId("c").setTrainingStep(1)
                .setTask(MazeTasks.TASK).setSampleId(item.getSampleId())
                .setModality(mediaType.startsWith("video") ? "video" : "image")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output")
                        .setUri(output.toUri().toString()).setMediaType(mediaType).build()))
                .setProducedAt(Instant.EPOCH).build();
        assertThat(evaluator.precheck(event, item)).isEmpty();
        return evaluator.evaluate(new EvaluationContext(event, item, resolver(output.getParent())));
    }

    /** Artifacts under {@code dir} only, as the scorer's {@code --artifact-root}. */
    static LocalArtifactResolver resolver(Path dir) {
        return new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"));
    }

    /** The task gate on the maze-pixel part alone (no judge), as the sample's primary score is computed. */
    static GateResult gate(String modality, EvaluationOutcome outcome) {
        return gate(modality, outcome.metrics());
    }

    /** The same over the evaluator's bare metrics. */
    static GateResult gate(String modality, Map<String, Double> bareMetrics) {
        Map<String, Double> keyed = new HashMap<>();
        bareMetrics.forEach((k, v) -> keyed.put(MetricKey.of(MazePixelEvaluator.ID, k).toString(), v));
        GateResult r = new MazeGate().evaluate(new GateInput(MazeTasks.TASK, modality, keyed, Set.of(MazePixelEvaluator.ID)));
        assertThat(r.primarySource()).isEqualTo("pixel");
        return r;
    }
}
