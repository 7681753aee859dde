package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Path;
import java.util.Random;

/**
 * Answer videos with a known outcome for a generated maze item, for loads outside this package (the cluster
 * harness's mixed load): the agent walks the whole solution (every pixel check passes) or stops at about 60 % of it
 * ({@link Fault#INCOMPLETE}: target achievement far under 0.95, so the pixel gate is 0). Small and short on purpose:
 * 320 x 320, the fewest frames a route is drawn with ({@link MazeAnswerCorpus#frames}).
 */
public final class MazeAnswerVideos {

    /** Plain blocks on white: the look of the MP4 answers MazeVideoScoringTest checks for every band and fault. */
    static final OutputStyle STYLE = OutputStyle.blocks("load-video", 320, 320, 0.03, 0.3, 0.8);

    private MazeAnswerVideos() {
    }

    /** Whether an answer can stop short of the item's target (a solution of five cells or more: {@link Scenario#of}). */
    public static boolean canStopShort(BenchmarkItem item) {
        return Scenario.of(Fault.INCOMPLETE, MazeSimulation.problem(item), new Random(5)).isPresent();
    }

    /**
     * Writes an MP4 answer to {@code item} (a maze with its lattice and solution) into {@code file}; a wrong one needs
     * {@link #canStopShort}.
     */
    public static void write(BenchmarkItem item, boolean correct, Path file) throws EvaluationException, MediaException {
        MazeProblem p = MazeSimulation.problem(item);
        Scenario sc = Scenario.of(correct ? Fault.CORRECT : Fault.INCOMPLETE, p, new Random(5))
                .orElseThrow(() -> new EvaluationException("no " + (correct ? "correct" : "incomplete") + " answer for "
                        + item.getSampleId()));
        OutputRenderer.video(sc, STYLE, MazeAnswerCorpus.frames(sc), VideoEncoder.Container.MP4, file);
    }
}
