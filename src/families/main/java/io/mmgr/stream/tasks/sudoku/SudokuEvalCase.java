package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import java.nio.file.Path;

/**
 * {@code mmgr eval sudoku}'s case: {@code size} (4 or 9), {@code givens} and {@code solution} (row-major,
 * '.' or '0' for blanks), {@code output} (image or video file) and optional {@code model} (it picks the
 * video frame budget). The puzzle becomes the item's ground truth, the output the event's artifact.
 */
final class SudokuEvalCase {

    private SudokuEvalCase() {
    }

    static EvalSample sample(EvalCase c) {
        // the ground truth is checked where the stream checks it (the evaluator), so errors read the same
        GroundTruth truth = new SudokuTruth(c.required("size").asInt(), c.required("givens").asText(),
                c.required("solution").asText()).into(GroundTruth.newBuilder()).build();
        Path output = Path.of(c.required("output").asText());
        return new EvalSample(EvalSample.event(SudokuMetrics.TASK, c.text("model", ""), output),
                EvalSample.item(SudokuMetrics.TASK, truth));
    }
}
