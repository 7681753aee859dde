package io.mmgr.stream.leaderboard;

import io.mmgr.stream.tasks.AgreementPrior;
import io.mmgr.stream.tasks.TaskFamily;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The MMGR paper's Table 5 (human vs evaluator agreement), as the seed gives it and each task family
 * lists it ({@link TaskFamily#agreementPriors()}): the prior of the reliability flags until enough human
 * labels exist. Maze and Sudoku figures are for the deterministic pipelines (pixel, OCR), the others for
 * the VLM judge; "Physics (VLM)" covers both Physical Concepts and Sports. A model the table does not
 * list gets the task's lowest listed figure. Whoever builds the scorer hands it the families' priors
 * ({@link #of(List)}); {@link #NONE} has no figure.
 */
public final class Table5 {

    /** A figure and where it comes from. */
    public record Figure(double agreement, String source) {
    }

    /** No figures: every flag rests on live pairs or is unknown. */
    public static final Table5 NONE = new Table5(List.of());

    private final Map<String, Map<String, Map<String, Double>>> table = new LinkedHashMap<>();

    /** The table of these priors. */
    public Table5(Collection<AgreementPrior> priors) {
        for (AgreementPrior p : priors) {
            table.computeIfAbsent(p.task(), k -> new LinkedHashMap<>())
                    .put(Agreement.comparison(p.rater(), Agreement.HUMAN), p.byModel());
        }
    }

    /** The table of these families' priors. */
    public static Table5 of(List<TaskFamily> families) {
        return new Table5(families.stream().flatMap(f -> f.agreementPriors().stream()).toList());
    }

    /** The figures of a task for a model, by comparison. */
    public Map<String, Figure> priors(String task, String model) {
        Map<String, Figure> out = new LinkedHashMap<>();
        table.getOrDefault(task, Map.of()).forEach((comparison, byModel) -> {
            String wanted = normalize(model);
            Figure f = null;
            for (var e : byModel.entrySet()) {
                if (normalize(e.getKey()).equals(wanted)) {
                    f = new Figure(e.getValue(), e.getKey());
                }
            }
            if (f == null) {
                var lowest = byModel.entrySet().stream().min(Map.Entry.<String, Double>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey(Comparator.naturalOrder()))).orElseThrow();
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
