package io.mmgr.stream.tasks.sudoku;

import java.util.Map;
import io.mmgr.stream.tasks.FamilyPayload;
import io.mmgr.stream.tasks.AgreementPrior;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvalAdapter;
import java.util.function.Supplier;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** MMGR T2 Sudoku: judged by the VLM rubric and scored by the OCR pipeline. */
public final class SudokuTasks implements TaskFamily {

    @Override
    public Optional<FamilyPayload> payload() {
        return Optional.of(SudokuTruth.PAYLOAD);
    }

    @Override
    public List<TaskSpec> tasks() {
        return List.of(new TaskSpec(SudokuMetrics.TASK, SudokuMetrics.FAMILY, "mmgr", Set.of("image", "video"),
                List.of(SudokuMetrics.OCR_EVALUATOR), Optional.of(SudokuMetrics.RUBRIC), new SudokuGate()));
    }

    @Override
    public List<Supplier<DeterministicEvaluator>> evaluators() {
        return List.of(SudokuOcrEvaluator::new);
    }

    @Override
    public List<JudgeRubric> rubrics() {
        return List.of(new SudokuRubric());
    }

    @Override
    public List<EvalAdapter> evalAdapters() {
        return List.of(new EvalAdapter("sudoku", SudokuMetrics.OCR_EVALUATOR, SudokuOcrEvaluator::new,
                SudokuEvalCase::sample));
    }

    /** Table 5: the OCR pipeline against human raters. */
    @Override
    public List<AgreementPrior> agreementPriors() {
        return List.of(new AgreementPrior(SudokuMetrics.TASK, SudokuMetrics.OCR_EVALUATOR,
                Map.of("Sora-2", 1.0, "Veo-3", 1.0, "Wan-2.2", 1.0)));
    }

    @Override
    public List<Object> evalCommands() {
        return List.of(new EvalSudokuCommand());
    }

    @Override
    public List<Object> generateCommands() {
        return List.of(new GenerateSudokuCommand());
    }
}
