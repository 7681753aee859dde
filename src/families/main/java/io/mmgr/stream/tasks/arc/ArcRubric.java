package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.RubricInputs;
import io.mmgr.stream.tasks.RubricMetric;
import io.mmgr.stream.tasks.TemplateRubric;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * MMGR T3 ARC (seed): "a VLM taking four inputs: demonstration examples, test input, ground-truth
 * output, and the generated video/image". Demonstrations are the item's artifacts whose role starts
 * with {@code demonstration}, in order; the test input is role {@code problem}; the ground-truth
 * output is {@code groundTruth.grid} (as text) and/or the {@code solution} image.
 */
public final class ArcRubric extends TemplateRubric {

    public static final List<RubricMetric> METRICS = List.of(
            RubricMetric.binary(ArcMetrics.PATTERN_RECOGNITION, null,
                    "1 if the output shows the transformation pattern of the demonstrations was identified."),
            RubricMetric.binary(ArcMetrics.GRID_INTEGRITY, null,
                    "1 if the output keeps the correct grid dimensions and structural layout; 0 if distorted or misaligned."),
            RubricMetric.binary(ArcMetrics.COLOR_ACCURACY, null,
                    "1 if every colour is applied correctly according to the transformation rule."),
            RubricMetric.binary(ArcMetrics.VALID_SOLUTION, 1.0,
                    "1 only if the generated output exactly matches the ground-truth output, cell for cell."));

    public ArcRubric() {
        super(ArcMetrics.RUBRIC, "v1", METRICS, Set.of("image", "video"));
    }

    @Override
    protected RubricInputs inputs(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        List<List<Integer>> grid = ArcTruth.of(item.getGroundTruth()).grid();
        Optional<ArtifactRef> solution = artifact(item, "solution");
        if ((grid == null || grid.isEmpty()) && solution.isEmpty()) {
            throw new EvaluationException("arc item " + item.getSampleId()
                    + " has no ground-truth output (groundTruth.grid or an artifact with role 'solution')");
        }
        ArtifactRef test = artifact(item, "problem").orElseThrow(() -> new EvaluationException(
                "arc item " + item.getSampleId() + " has no test input (artifact role 'problem')"));
        List<ArtifactRef> demos = item.getArtifacts().stream()
                .filter(a -> a.getRole() != null && a.getRole().startsWith("demonstration")).toList();
        if (demos.isEmpty()) {
            throw new EvaluationException("arc item " + item.getSampleId()
                    + " has no demonstration examples (artifacts with role 'demonstration...')");
        }
        RubricInputs in = new RubricInputs()
                .text("prompt", orNone(item.getPrompt()))
                .text("grid", grid == null || grid.isEmpty() ? "(shown as an image below)" : render(grid))
                .media("test", "test input", test)
                .generation("generation", output(event));
        int i = 1;
        for (ArtifactRef d : demos) {
            in.media("demonstrations", "demonstration " + i++ + " (" + d.getRole() + ")", d);
        }
        solution.ifPresent(s -> in.media("solution", "ground-truth output", s));
        return in;
    }

    /** Rows of colour indices (ARC's 0-9 palette), one row a line. */
    static String render(List<List<Integer>> grid) {
        return grid.stream().map(row -> row.stream().map(String::valueOf).collect(Collectors.joining(" ")))
                .collect(Collectors.joining("\n"));
    }
}
