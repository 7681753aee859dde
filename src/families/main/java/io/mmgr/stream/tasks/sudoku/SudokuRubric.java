package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.RubricInputs;
import io.mmgr.stream.tasks.RubricMetric;
import io.mmgr.stream.tasks.TemplateRubric;
import java.util.List;
import java.util.Set;

/**
 * MMGR T2 Sudoku, VLM pipeline (seed D.2 / D.4.1): the judge receives the generation, the
 * ground-truth solved grid and a structured prompt. Constraint Violation and Completion Accuracy
 * are fractions; the others binary; Action Reflection for videos only.
 */
public final class SudokuRubric extends TemplateRubric {

    public static final List<RubricMetric> METRICS = List.of(
            RubricMetric.binary(SudokuMetrics.CLUES_CHANGED, 0.0,
                    "1 if any pre-filled clue is modified, removed or displaced (video: in any frame)."),
            RubricMetric.fraction(SudokuMetrics.CONSTRAINT_VIOLATION, 0.0,
                    "The fraction of row, column and sub-grid constraints violated in the final grid (0 = all satisfied)."),
            RubricMetric.fraction(SudokuMetrics.COMPLETION_ACCURACY, 1.0,
                    "The fraction of the originally empty cells filled with the correct digit of the solved grid."),
            RubricMetric.binary(SudokuMetrics.ACTION_REFLECTION, null,
                    "1 if the video shows explicit reflection (earlier entries corrected); 0 if cells are filled "
                            + "simultaneously or without reflection.").forVideoOnly());

    public SudokuRubric() {
        super(SudokuMetrics.RUBRIC, "v1", METRICS, Set.of("image", "video"));
    }

    @Override
    protected RubricInputs inputs(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        SudokuTruth gt = SudokuTruth.of(item.getGroundTruth());
        if (gt.solution() == null || gt.solution().isBlank()) {
            throw new EvaluationException("sudoku item " + item.getSampleId() + " has no solved grid (SudokuTruth.solution, or groundTruth.answer)");
        }
        int size = gt.size() != null ? gt.size() : (int) Math.round(Math.sqrt(digits(gt.solution()).length()));
        String solved = digits(gt.solution());
        if (size * size != solved.length()) {
            throw new EvaluationException("sudoku item " + item.getSampleId() + ": the solved grid has " + solved.length()
                    + " cells, not " + size + "x" + size);
        }
        RubricInputs in = new RubricInputs()
                .text("size", Integer.toString(size))
                .text("solved", grid(solved, size))
                .text("givens", gt.givens() == null ? "(not given; the clues are the digits of the unsolved puzzle)"
                        : grid(digits(gt.givens()), size))
                .text("prompt", orNone(item.getPrompt()))
                .generation("generation", output(event));
        artifact(item, "problem").ifPresent(p -> in.media("problem", "unsolved puzzle", p));
        return in;
    }

    /** Digits and blanks only ('.' and '0' are blanks), whatever separators the item uses. */
    static String digits(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (Character.isDigit(c) || c == '.') {
                b.append(c == '0' ? '.' : c);
            }
        }
        return b.toString();
    }

    static String grid(String cells, int size) {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < size && (r + 1) * size <= cells.length(); r++) {
            b.append(String.join(" ", cells.substring(r * size, (r + 1) * size).split(""))).append('\n');
        }
        return b.toString().strip();
    }
}
