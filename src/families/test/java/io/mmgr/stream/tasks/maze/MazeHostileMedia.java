package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The maze tests' fixtures for hostile media, opened to tests in other packages (the hostile-input
 * corpus on a real broker) without copying them: PNG headers that declare any size, and real maze
 * videos rendered from a problem with known truth.
 */
public final class MazeHostileMedia {

    private MazeHostileMedia() {
    }

    /** A PNG whose header declares {@code w x h} pixels, with one tiny invalid data chunk. */
    public static byte[] pngDeclaring(int w, int h) throws Exception {
        return MazePixelEvaluatorTest.pngHeaderOnly(w, h);
    }

    /** A correct answer to the maze of {@code lattice} as a short MP4 of the agent walking the solution. */
    public static void correctVideo(List<String> lattice, int rows, int cols, List<List<Integer>> solution, int frames,
                                    Path out) throws MediaException {
        MazeLattice l = MazeLattice.parse(lattice, rows, cols);
        List<Cell> sol = solution.stream().map(s -> new Cell(s.get(0), s.get(1))).toList();
        MazeProblem p = new MazeProblem(l, sol.get(0), sol.get(sol.size() - 1), sol, MazeAlgorithm.DFS, Placement.RANDOM);
        Scenario sc = Scenario.of(Fault.CORRECT, p, new Random(1)).orElseThrow();
        OutputRenderer.video(sc, OutputStyle.blocks("v", 128, 128, 0.02, 0.3, 0.8), frames,
                VideoEncoder.Container.MP4, out);
    }

    /** A real video of {@code frames} tiny white frames (MPEG-4 Part 2 at 240 fps: cheap per frame). */
    public static Path longVideo(int frames, Path out) throws MediaException {
        try (VideoEncoder enc = VideoEncoder.open(out, 16, 16, 240, VideoEncoder.Container.MP4, "mpeg4")) {
            RgbImage white = RgbImage.filled(16, 16, 0xFFFFFF);
            for (int i = 0; i < frames; i++) {
                enc.write(white);
            }
        }
        return out;
    }

    /** The first third of a valid MP4: its header promises what the file no longer holds. */
    public static Path truncated(Path video, Path out) throws Exception {
        byte[] bytes = Files.readAllBytes(video);
        return Files.write(out, Arrays.copyOf(bytes, bytes.length / 3));
    }
}
