package io.mmgr.stream.tasks.sudoku;

import static io.mmgr.stream.tasks.sudoku.SudokuMetrics.CLUES_CHANGED;
import static io.mmgr.stream.tasks.sudoku.SudokuMetrics.COMPLETION_ACCURACY;
import static io.mmgr.stream.tasks.sudoku.SudokuMetrics.CONSTRAINT_VIOLATION;
import static io.mmgr.stream.tasks.sudoku.SudokuMetrics.OCR_EVALUATOR;

import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.tasks.Check;
import io.mmgr.stream.tasks.GateInput;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.GateVariant;
import io.mmgr.stream.tasks.TaskGate;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sudoku gate (seed T2): "1 only if Clues Changed=0 AND Constraints Violation=0 AND Completion
 * Accuracy=1; 0 otherwise", identical for the VLM and the OCR pipeline. Action Reflection never gates.
 *
 * <p>The seed names D.4.1 (VLM) as the source of the Table 4 Sudoku row, so the judge's verdict is
 * the primary whenever it has arrived; the OCR variant stands in only when the judge has not.
 * Both variants are always reported.
 */
public final class SudokuGate implements TaskGate {

    public static final String VLM = "vlm";
    public static final String OCR = "ocr";
    public static final String OVERALL_VLM = "overall_vlm";
    public static final String OVERALL_OCR = "overall_ocr";

    private static final GateVariant VLM_GATE = variant(VLM, TaskSpec.JUDGE_PART);
    private static final GateVariant OCR_GATE = variant(OCR, OCR_EVALUATOR);

    private static GateVariant variant(String name, String part) {
        // Exact equality: the fractions enter at their strict endpoints (CV = 0, CA = 1.0).
        return GateVariant.of(name,
                Check.isZero(MetricKey.of(part, CLUES_CHANGED)),
                Check.isZero(MetricKey.of(part, CONSTRAINT_VIOLATION)),
                Check.isOne(MetricKey.of(part, COMPLETION_ACCURACY)));
    }

    @Override
    public GateResult evaluate(GateInput input) {
        GateVariant.Outcome vlm = VLM_GATE.evaluate(input);
        GateVariant.Outcome ocr = OCR_GATE.evaluate(input);
        Map<String, Double> gates = new LinkedHashMap<>();
        gates.put(OVERALL_VLM, vlm.value());
        gates.put(OVERALL_OCR, ocr.value());
        boolean ocrOnly = !input.has(TaskSpec.JUDGE_PART) && input.has(OCR_EVALUATOR);
        GateVariant.Outcome primary = ocrOnly ? ocr : vlm;
        return GateResult.of(input, primary, gates, VLM_GATE, OCR_GATE);
    }
}
