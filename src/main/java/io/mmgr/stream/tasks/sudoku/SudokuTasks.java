package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** MMGR T2 Sudoku: judged by the VLM rubric and scored by the OCR pipeline. */
public final class SudokuTasks implements TaskFamily {

    @Override
    public List<TaskSpec> tasks() {
        return List.of(new TaskSpec(SudokuMetrics.TASK, "sudoku", "mmgr", Set.of("image", "video"),
                List.of(SudokuMetrics.OCR_EVALUATOR), Optional.of(SudokuMetrics.RUBRIC), new SudokuGate()));
    }
}
