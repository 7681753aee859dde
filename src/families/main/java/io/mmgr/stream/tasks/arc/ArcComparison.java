package io.mmgr.stream.tasks.arc;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The grid evaluator's metrics (ArcMetrics): {@code grid_integrity} 1 when the decoded dimensions
 * equal the ground truth's; {@code cell_accuracy} the share of equal cells when they do (null, not
 * applicable, otherwise); {@code valid_solution} 1 only on an exact match - the seed's primary.
 */
public record ArcComparison(int rows, int cols, int truthRows, int truthCols, int matching) {

    public static ArcComparison of(int[][] decoded, ArcGrid truth) {
        int rows = decoded.length;
        int cols = rows == 0 ? 0 : decoded[0].length;
        int matching = 0;
        if (rows == truth.rows() && cols == truth.cols()) {
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    if (decoded[r][c] == truth.get(r, c)) {
                        matching++;
                    }
                }
            }
        }
        return new ArcComparison(rows, cols, truth.rows(), truth.cols(), matching);
    }

    public boolean dimensionsMatch() {
        return rows == truthRows && cols == truthCols;
    }

    public Double cellAccuracy() {
        return dimensionsMatch() ? matching / (double) (rows * cols) : null;
    }

    public boolean exact() {
        return dimensionsMatch() && matching == rows * cols;
    }

    /** The metrics by bare name, in the order ArcMetrics lists them. */
    public Map<String, Double> metrics() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(ArcMetrics.GRID_INTEGRITY, dimensionsMatch() ? 1.0 : 0.0);
        m.put(ArcMetrics.CELL_ACCURACY, cellAccuracy());
        m.put(ArcMetrics.VALID_SOLUTION, exact() ? 1.0 : 0.0);
        return m;
    }
}
