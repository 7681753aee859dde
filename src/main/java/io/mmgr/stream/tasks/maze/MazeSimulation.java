package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.artifacts.Digests;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.SimulatedTask;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.VideoEncoder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;

/**
 * A simulated maze model: draws its answer as an image (in one of several drawing styles) or, for
 * every fourth item, as a WebM video of the green square walking; a right answer with probability
 * {@code skill}, otherwise one of the real faults (wall crossing, dead end, detour, altered maze,
 * moved target, incomplete or no path) that the pixel pipeline must catch.
 */
public final class MazeSimulation implements SimulatedTask {

    static final OutputStyle VIDEO_STYLE = OutputStyle.blocks("demo-video", 320, 320, 0.03, 0.3, 0.8);
    private static final Fault[] FAULTS = {Fault.WALL_CROSSING, Fault.INCOMPLETE, Fault.DEAD_END, Fault.DETOUR,
            Fault.MAZE_ALTERED, Fault.TARGET_MOVED, Fault.NO_PATH};

    @Override
    public String family() {
        return "maze";
    }

    @Override
    public List<BenchmarkItem> benchmark(int items, long seed, Path dir) throws IOException {
        // the easy and medium bands keep the demo's drawings legible at dashboard size
        return MazeBenchmarkGenerator.generate(dir.resolve("maze"), items, List.of(MazeBand.EASY, MazeBand.MEDIUM), seed).items();
    }

    @Override
    public Answer answer(BenchmarkItem item, int seed, double skill, Random random, Path dir) throws IOException {
        MazeProblem p = problem(item);
        Fault wanted = random.nextDouble() < skill ? Fault.CORRECT : FAULTS[random.nextInt(FAULTS.length)];
        Scenario sc = Scenario.of(wanted, p, random)
                .or(() -> Scenario.of(Fault.WALL_CROSSING, p, random))
                .or(() -> Scenario.of(Fault.NO_PATH, p, random))
                .orElseThrow();
        boolean video = isVideo(item.getSampleId());
        Files.createDirectories(dir);
        String base = item.getSampleId() + "-" + seed + "-" + sc.fault().name().toLowerCase(Locale.ROOT).replace('_', '-');
        ArtifactRef.Builder ref = ArtifactRef.newBuilder().setRole("output");
        if (video) {
            Path file = dir.resolve(base + ".webm");
            int frames = Math.max(36, 2 * (sc.route().size() - 1) + 12);
            try {
                OutputRenderer.video(sc, VIDEO_STYLE, frames, VideoEncoder.Container.WEBM, file);
            } catch (MediaException e) {
                throw new IOException("cannot encode the simulated maze video: " + e.getMessage(), e);
            }
            byte[] bytes = Files.readAllBytes(file);
            ref.setUri(file.toAbsolutePath().toUri().toString()).setMediaType("video/webm")
                    .setSha256(Digests.sha256(bytes)).setSizeBytes((long) bytes.length)
                    .setWidth(VIDEO_STYLE.width()).setHeight(VIDEO_STYLE.height()).setFps(24.0).setFrameCount(frames);
        } else {
            OutputStyle style = OutputStyle.ALL[random.nextInt(OutputStyle.ALL.length)];
            byte[] bytes = OutputRenderer.encode(OutputRenderer.image(sc, style), style);
            boolean jpeg = style.jpegQuality() > 0;
            Path file = dir.resolve(base + (jpeg ? ".jpg" : ".png"));
            Files.write(file, bytes);
            ref.setUri(file.toAbsolutePath().toUri().toString()).setMediaType(jpeg ? "image/jpeg" : "image/png")
                    .setSha256(Digests.sha256(bytes)).setSizeBytes((long) bytes.length)
                    .setWidth(style.width()).setHeight(style.height());
        }
        String fault = sc.fault() == Fault.CORRECT ? "none" : sc.fault().name().toLowerCase(Locale.ROOT);
        return new Answer(video ? "video" : "image", List.of(ref.build()), null, fault);
    }

    /** Every fourth item (by its number) is answered as a video, the rest as images. */
    static boolean isVideo(String sampleId) {
        int i = sampleId.length();
        while (i > 0 && Character.isDigit(sampleId.charAt(i - 1))) {
            i--;
        }
        return i < sampleId.length() && Integer.parseInt(sampleId.substring(i)) % 4 == 0;
    }

    /** The problem back from a benchmark item's ground truth. */
    static MazeProblem problem(BenchmarkItem item) {
        GroundTruth gt = item.getGroundTruth();
        MazeTruth maze;
        try {
            maze = MazeTruth.of(gt);
        } catch (EvaluationException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        MazeLattice lattice = MazeLattice.parse(maze.lattice(), maze.rows(), maze.cols());
        List<Cell> solution = new ArrayList<>();
        for (List<Integer> c : maze.solutionPath()) {
            solution.add(new Cell(c.get(0), c.get(1)));
        }
        MazeAlgorithm algorithm = Optional.ofNullable(gt.getExtra().get("algorithm"))
                .map(a -> MazeAlgorithm.valueOf(a.toUpperCase(Locale.ROOT))).orElse(MazeAlgorithm.values()[0]);
        Placement placement = Optional.ofNullable(gt.getExtra().get("placement"))
                .map(a -> Placement.valueOf(a.toUpperCase(Locale.ROOT))).orElse(Placement.values()[0]);
        return new MazeProblem(lattice, solution.get(0), solution.get(solution.size() - 1), solution, algorithm, placement);
    }
}
