package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationOutcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster load's answer videos score as the load expects: the pixel gate passes the whole walk only. */
@Tag("unit")
class MazeAnswerVideosTest {

    @TempDir
    Path dir;

    @Test
    void theWholeWalkPassesThePixelGateAndTheWalkThatStopsShortFailsIt() throws Exception {
        int checked = 0;
        for (BenchmarkItem item : MazeBenchmarkGenerator.generate(dir, 12, List.of(MazeBand.EASY), 23).items()) {
            if (!MazeAnswerVideos.canStopShort(item)) {
                assertThat(MazeTruth.of(item.getGroundTruth()).solutionPath()).hasSizeLessThan(5);
                continue;
            }
            checked++;
            Path correct = dir.resolve(item.getSampleId() + "-correct.mp4");
            Path incomplete = dir.resolve(item.getSampleId() + "-incomplete.mp4");
            MazeAnswerVideos.write(item, true, correct);
            MazeAnswerVideos.write(item, false, incomplete);

            EvaluationOutcome good = evaluate(item, correct);
            EvaluationOutcome bad = evaluate(item, incomplete);
            assertThat(good.metrics().get(MazeMetrics.TARGET_ACHIEVEMENT)).as(item.getSampleId()).isGreaterThan(0.95);
            assertThat(bad.metrics().get(MazeMetrics.TARGET_ACHIEVEMENT)).as(item.getSampleId()).isLessThan(0.95);
            assertThat(MazeEvaluatorItems.gate("video", good).gates().get("overall_pixel")).as(item.getSampleId()).isEqualTo(1.0);
            assertThat(MazeEvaluatorItems.gate("video", bad).gates().get("overall_pixel")).as(item.getSampleId()).isEqualTo(0.0);
        }
        // the cluster load takes three of these twelve (MazeVideoWorkload: the same generator, band and seed)
        assertThat(checked).isGreaterThanOrEqualTo(3);
    }

    private EvaluationOutcome evaluate(BenchmarkItem item, Path video) throws Exception {
        GenerationEvent event = GenerationEvent.newBuilder().setRunId("r").setModel("m").setCheckpointId("c").setTrainingStep(1)
                .setTask("maze").setSampleId(item.getSampleId()).setModality("video")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output").setUri(video.toUri().toString())
                        .setMediaType("video/mp4").build()))
                .setProducedAt(Instant.EPOCH).build();
        LocalArtifactResolver resolver = new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"));
        return new MazePixelEvaluator().evaluate(new EvaluationContext(event, item, resolver));
    }
}
