package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.ImageEncoder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The evaluator through its stream contract: benchmark item + generation event + artifact store. */
@Tag("unit")
class MazePixelEvaluatorTest {

    @TempDir
    static Path dir;
    static BenchmarkItem item;
    static MazeProblem problem;
    static LocalArtifactResolver resolver;

    @BeforeAll
    static void generate() throws Exception {
        item = MazeBenchmarkGenerator.generate(dir, 2, List.of(MazeBand.MEDIUM), 9).items().get(0);
        var gt = MazeTruth.of(item.getGroundTruth());
        MazeLattice lattice = MazeLattice.parse(gt.lattice(), gt.rows(), gt.cols());
        List<Cell> sol = gt.solutionPath().stream().map(s -> new Cell(s.get(0), s.get(1))).toList();
        problem = new MazeProblem(lattice, sol.get(0), sol.get(sol.size() - 1), sol, MazeAlgorithm.DFS, Placement.RANDOM);
        resolver = new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"));
    }

    static EvaluationOutcome evaluate(Path output, String mediaType, String model) throws EvaluationException {
        GenerationEvent event = GenerationEvent.newBuilder()
                .setRunId("r").setModel(model).setCheckpointId("c").setTrainingStep(1)
                .setTask("maze").setSampleId(item.getSampleId())
                .setModality(mediaType.startsWith("video") ? "video" : "image")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output")
                        .setUri(output.toUri().toString()).setMediaType(mediaType).build()))
                .setProducedAt(Instant.EPOCH).build();
        MazePixelEvaluator evaluator = new MazePixelEvaluator();
        assertThat(evaluator.precheck(event, item)).isEmpty();
        return evaluator.evaluate(new EvaluationContext(event, item, resolver));
    }

    @Test
    void scoresImagesAgainstTheItemsGroundTruth() throws Exception {
        Path good = dir.resolve("good.jpg");
        Scenario correct = Scenario.of(Fault.CORRECT, problem, new java.util.Random(1)).orElseThrow();
        Files.write(good, OutputRenderer.encode(OutputRenderer.image(correct, OutputStyle.BLUR_JPEG), OutputStyle.BLUR_JPEG));
        EvaluationOutcome ok = evaluate(good, "image/jpeg", "nano-banana");
        assertThat(ok.metrics()).containsEntry("cross_wall", 0.0).containsEntry("target_achievement", 1.0)
                .containsEntry("action_reflection", null).containsEntry("frames_analyzed", null);
        assertThat(ok.metrics().keySet()).containsExactly("layout_iou", "maze_changed", "start_offset_px",
                "target_offset_px", "start_moved", "target_moved", "crossing_ratio", "cross_wall", "path_iou", "path_precision", "path_recall",
                "target_achievement", "path_has_loop", "path_length_ratio", "excessive_reflection",
                "action_reflection", "frames_analyzed");
        assertThat(MazeEvaluatorItems.gate("image", ok.metrics()).primary()).isEqualTo(1.0);

        Path bad = dir.resolve("cross.png");
        Scenario cross = Scenario.of(Fault.WALL_CROSSING, problem, new java.util.Random(1))
                .orElse(Scenario.of(Fault.INCOMPLETE, problem, new java.util.Random(1)).orElseThrow());
        Files.write(bad, OutputRenderer.encode(OutputRenderer.image(cross, OutputStyle.CLEAN), OutputStyle.CLEAN));
        assertThat(MazeEvaluatorItems.gate("image", evaluate(bad, "image/png", "x").metrics()).primary()).isEqualTo(0.0);
    }

    @Test
    void videoFrameBudgetFollowsTheModel() throws Exception {
        Scenario correct = Scenario.of(Fault.CORRECT, problem, new java.util.Random(1)).orElseThrow();
        Path video = dir.resolve("walk.mp4");
        OutputRenderer.video(correct, OutputStyle.blocks("v", 256, 256, 0.02, 0.3, 0.8), 150,
                VideoEncoder.Container.MP4, video);
        EvaluationOutcome wan = evaluate(video, "video/mp4", "wan-2.2");
        assertThat(wan.metrics().get("frames_analyzed")).isEqualTo(120.0);
        assertThat(wan.metrics().get("target_achievement")).isEqualTo(1.0);
        assertThat(wan.metrics().get("action_reflection")).isEqualTo(0.0);
        assertThat(evaluate(video, "video/mp4", "sora-2").metrics().get("frames_analyzed")).isEqualTo(150.0);
    }

    @Test
    void badInputGetsAClearReason() throws Exception {
        Path text = Files.writeString(dir.resolve("text.png"), "definitely not a picture");
        assertThatThrownBy(() -> evaluate(text, "image/png", "m")).isInstanceOf(EvaluationException.class)
                .hasMessageContaining("not a decodable image");

        byte[] png = ImageEncoder.png(RgbImage.filled(64, 64, 0x00FF00));
        Path truncated = Files.write(dir.resolve("truncated.png"), Arrays.copyOf(png, png.length / 2));
        assertThatThrownBy(() -> evaluate(truncated, "image/png", "m")).hasMessageContaining("truncated or corrupt");

        Path huge = Files.write(dir.resolve("huge.png"), pngHeaderOnly(50_000, 50_000));
        long before = usedMemory();
        assertThatThrownBy(() -> evaluate(huge, "image/png", "m")).hasMessageContaining("declares 50000x50000");
        assertThat(usedMemory() - before).isLessThan(256L << 20); // refused from the header, nothing decoded

        Path longVideo = dir.resolve("long.mp4");
        try (VideoEncoder enc = VideoEncoder.open(longVideo, 16, 16, 240, VideoEncoder.Container.MP4, "mpeg4")) {
            RgbImage white = RgbImage.filled(16, 16, 0xFFFFFF);
            for (int i = 0; i < 100_000; i++) {
                enc.write(white);
            }
        }
        assertThatThrownBy(() -> evaluate(longVideo, "video/mp4", "m")).hasMessageContaining("declares 100000 frames");

        Scenario correct = Scenario.of(Fault.CORRECT, problem, new java.util.Random(1)).orElseThrow();
        Path full = dir.resolve("full.mp4");
        OutputRenderer.video(correct, OutputStyle.blocks("v", 128, 128, 0.02, 0.3, 0.8), 24,
                VideoEncoder.Container.MP4, full);
        byte[] bytes = Files.readAllBytes(full);
        Path cut = Files.write(dir.resolve("cut.mp4"), Arrays.copyOf(bytes, bytes.length / 3));
        assertThatThrownBy(() -> evaluate(cut, "video/mp4", "m")).isInstanceOf(EvaluationException.class)
                .hasMessageContaining("maze output video").hasMessageMatching(".*(not a decodable video|truncated or corrupt).*");
        byte[] noise = new byte[4096];
        new java.util.Random(3).nextBytes(noise);
        Path garbage = Files.write(dir.resolve("garbage.mp4"), noise);
        assertThatThrownBy(() -> evaluate(garbage, "video/mp4", "m")).hasMessageContaining("not a decodable video");
    }

    @Test
    void brokenReferencesAreReported() throws Exception {
        MazeTruth truth = MazeTruth.of(item.getGroundTruth());
        BenchmarkItem badLattice = BenchmarkItem.newBuilder(item).setSampleId("bad-lattice")
                .setGroundTruth(new MazeTruth(truth.rows(), truth.cols(), List.of("###"), truth.solutionPath(), null)
                        .into(io.mmgr.stream.avro.GroundTruth.newBuilder()).build()).build();
        MazePixelEvaluator evaluator = new MazePixelEvaluator();
        assertThatThrownBy(() -> evaluator.reference(badLattice, resolver))
                .isInstanceOf(EvaluationException.class).hasMessageContaining("maze lattice is invalid");
        // and in the shared fields of an item of before
        BenchmarkItem badShared = BenchmarkItem.newBuilder(item).setSampleId("bad-shared-lattice")
                .setGroundTruth(io.mmgr.stream.avro.GroundTruth.newBuilder().setMazeRows(truth.rows()).setMazeCols(truth.cols())
                        .setMazeLattice(List.of("###")).build()).build();
        assertThatThrownBy(() -> evaluator.reference(badShared, resolver))
                .isInstanceOf(EvaluationException.class).hasMessageContaining("maze lattice is invalid");

        // no lattice in the ground truth and a problem image without a maze
        Path blank = Files.write(dir.resolve("blank.png"), ImageEncoder.png(RgbImage.filled(200, 200, 0xFFFFFF)));
        BenchmarkItem noMaze = BenchmarkItem.newBuilder(item).setSampleId("no-maze")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("problem").setUri(blank.toUri().toString())
                        .setMediaType("image/png").build()))
                .setGroundTruth(io.mmgr.stream.avro.GroundTruth.newBuilder().setMazeRows(5).setMazeCols(5).build())
                .build();
        assertThatThrownBy(() -> evaluator.reference(noMaze, resolver))
                .hasMessageContaining("no-maze").hasMessageContaining("shows no maze");
    }

    static long usedMemory() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** A PNG whose header declares the given size, with one tiny (invalid) data chunk. */
    static byte[] pngHeaderOnly(int w, int h) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
        ByteBuffer ihdr = ByteBuffer.allocate(13).putInt(w).putInt(h).put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
        chunk(out, "IHDR", ihdr.array());
        chunk(out, "IDAT", new byte[] {0x78, (byte) 0x9C, 0x03, 0x00});
        chunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data) throws Exception {
        out.write(ByteBuffer.allocate(4).putInt(data.length).array());
        byte[] t = type.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        out.write(t);
        out.write(data);
        CRC32 crc = new CRC32();
        crc.update(t);
        crc.update(data);
        out.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }
}
