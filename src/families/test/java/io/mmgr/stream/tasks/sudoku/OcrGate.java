package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.tasks.GateInput;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The Sudoku gate's primary over one sudoku-ocr evaluation, as a stream without a judge gates it. */
final class OcrGate {

    private OcrGate() {
    }

    static Double primary(String modality, Map<String, Double> bareMetrics) {
        Map<String, Double> keyed = new LinkedHashMap<>();
        bareMetrics.forEach((k, v) -> keyed.put(MetricKey.of(SudokuMetrics.OCR_EVALUATOR, k).toString(), v));
        return new SudokuGate().evaluate(new GateInput(SudokuMetrics.TASK, modality, keyed,
                Set.of(SudokuMetrics.OCR_EVALUATOR))).primary();
    }
}
