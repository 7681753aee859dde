package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.artifacts.Digests;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;

/**
 * Real maze answer videos for tests outside this package: the agent walks the solution of a generated
 * benchmark item (a correct answer, known ground truth), rendered and encoded as H.264 MP4.
 */
public final class MazeVideos {

    private MazeVideos() {
    }

    /** Mazes with their reference images, written under {@code dir}. */
    public static List<BenchmarkItem> items(Path dir, int count, long seed) throws Exception {
        return MazeBenchmarkGenerator.generate(dir, count, List.of(MazeBand.MEDIUM), seed).items();
    }

    /** Writes a correct answer video of {@code frames} frames for the item. */
    public static Path correctAnswer(BenchmarkItem item, int frames, Path file) throws Exception {
        Scenario sc = Scenario.of(Fault.CORRECT, MazeStreamTest.problem(item), new Random(5)).orElseThrow();
        Files.createDirectories(file.getParent());
        OutputRenderer.video(sc, OutputStyle.blocks("test-video", 320, 320, 0.03, 0.3, 0.8), frames,
                VideoEncoder.Container.MP4, file);
        return file;
    }

    /** A video generation event for the item, its output the given file. */
    public static GenerationEvent event(BenchmarkItem item, String runId, String checkpoint, int seed, Path video)
            throws Exception {
        return GenerationEvent.newBuilder().setRunId(runId).setModel("video-model").setCheckpointId(checkpoint)
                .setTrainingStep(1).setTask("maze").setSampleId(item.getSampleId()).setSeed(seed).setModality("video")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output").setUri(video.toUri().toString())
                        .setSha256(Digests.sha256(Files.readAllBytes(video))).setMediaType("video/mp4").build()))
                .setProducedAt(Instant.now()).build();
    }
}
