package io.mmgr.stream.leaderboard;

import io.mmgr.stream.tasks.maze.MazeGate;
import io.mmgr.stream.tasks.sudoku.SudokuMetrics;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The MMGR paper's Table 5 (human vs evaluator agreement), as the seed gives it: the prior of the
 * reliability flags until enough human labels exist. Maze and Sudoku figures are for the
 * deterministic pipelines (pixel, OCR), the others for the VLM judge; "Physics (VLM)" covers both
 * Physical Concepts and Sports. A model the table does not list gets the task's lowest listed figure.
 */
public final class Table5 {

    /** A figure and where it comes from. */
    public record Figure(double agreement, String source) {
    }

    private static final String JUDGE = Agreement.JUDGE + "~" + Agreement.HUMAN;
    private static final Map<String, Map<String, Map<String, Double>>> TABLE = new LinkedHashMap<>();

    static {
        put("maze", MazeGate.PIXEL_PART + "~" + Agreement.HUMAN, Map.of("Sora-2", 1.0, "Veo-3", 0.9556, "Wan-2.2", 1.0));
        put("sudoku", SudokuMetrics.OCR_EVALUATOR + "~" + Agreement.HUMAN, Map.of("Sora-2", 1.0, "Veo-3", 1.0, "Wan-2.2", 1.0));
        put("arc", JUDGE, Map.of("Veo-3", 0.9490));
        put("nav-3d-real-world", JUDGE, Map.of("Veo-3", 0.7533, "Nano-banana Pro", 0.2167));
        put("nav-last-mile", JUDGE, Map.of("Veo-3", 0.5350, "Nano-banana Pro", 0.3000));
        put("nav-top-down", JUDGE, Map.of("Veo-3", 0.7915, "Nano-banana Pro", 0.5169));
        put("nav-slag", JUDGE, Map.of("Veo-3", 0.8845, "Nano-banana Pro", 0.6239));
        put("physical-concepts", JUDGE, Map.of("Veo-3", 0.6531));
        put("sports", JUDGE, Map.of("Veo-3", 0.6531));
    }

    private static void put(String task, String comparison, Map<String, Double> byModel) {
        TABLE.computeIfAbsent(task, k -> new LinkedHashMap<>()).put(comparison, byModel);
    }

    private Table5() {
    }

    /** The figures of a task for a model, by comparison. */
    public static Map<String, Figure> priors(String task, String model) {
        Map<String, Figure> out = new LinkedHashMap<>();
        TABLE.getOrDefault(task, Map.of()).forEach((comparison, byModel) -> {
            String wanted = normalize(model);
            Figure f = null;
            for (var e : byModel.entrySet()) {
                if (normalize(e.getKey()).equals(wanted)) {
                    f = new Figure(e.getValue(), e.getKey());
                }
            }
            if (f == null) {
                var lowest = byModel.entrySet().stream().min(Map.Entry.comparingByValue()).orElseThrow();
                f = new Figure(lowest.getValue(), "lowest listed model, " + lowest.getKey());
            }
            out.put(comparison, f);
        });
        return out;
    }

    /** "Veo-3", "veo 3" and "VEO3" are one model. */
    static String normalize(String model) {
        return model == null ? "" : model.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }
}
