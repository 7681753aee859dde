package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code mmgr eval maze}'s case: {@code problem} and {@code solution} (the reference images, the item's
 * artifacts), {@code rows} and {@code cols} (the maze's size, its ground truth), {@code output} (image or
 * video file) and optional {@code model} (it picks the video frame budget).
 */
final class MazeEvalCase {

    private MazeEvalCase() {
    }

    static EvalSample sample(EvalCase c) {
        Path problem = c.path("problem");
        Path solution = c.path("solution");
        // the size is checked where the stream checks it (the evaluator), so errors read the same
        int rows = c.fields().path("rows").asInt();
        int cols = c.fields().path("cols").asInt();
        Path output = c.path("output");
        BenchmarkItem item = BenchmarkItem.newBuilder().setTask(MazeTasks.TASK).setSampleId(EvalSample.CLI)
                .setArtifacts(List.of(EvalSample.artifact("problem", problem), EvalSample.artifact("solution", solution)))
                .setGroundTruth(GroundTruth.newBuilder().setMazeRows(rows).setMazeCols(cols).build())
                .build();
        return new EvalSample(EvalSample.event(MazeTasks.TASK, c.text("model", ""), output), item);
    }
}
