package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.avro.ArtifactRef;
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
 * MMGR T1 Maze, VLM pipeline (seed C.3): the judge sees the generation and the ground-truth
 * solution image and answers (i) reach-and-stop on the red square, (ii) touching or crossing a
 * black wall, (iii) a changed wall layout or red-square position; Action Reflection for videos.
 */
public final class MazeRubric extends TemplateRubric {

    public static final List<RubricMetric> METRICS = List.of(
            RubricMetric.binary(MazeMetrics.MAZE_CHANGED, 0.0,
                    "1 if the maze layout (walls or the red target's position) differs from the reference; "
                            + "for a video, 1 if it changes in any frame."),
            RubricMetric.binary(MazeMetrics.CROSS_WALL, 0.0,
                    "1 if the path (image: the blue path; video: the green square) touches or crosses a black wall; "
                            + "for a video, in any frame."),
            RubricMetric.binary(MazeMetrics.ACTION_REFLECTION, null,
                    "1 if the trajectory shows exploration (backtracking or trying several routes); 0 for a single direct route.")
                    .forVideoOnly(),
            RubricMetric.binary(MazeMetrics.TARGET_ACHIEVEMENT, 1.0,
                    "Image: 1 if a continuous valid blue path connects the start and the red target. "
                            + "Video: 1 if the green square reaches the red target and stops on it."));

    public MazeRubric() {
        super(MazeTasks.RUBRIC, "v1", METRICS, Set.of("image", "video"));
    }

    @Override
    protected RubricInputs inputs(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        ArtifactRef solution = artifact(item, "solution").orElseThrow(() -> new EvaluationException(
                "maze item " + item.getSampleId() + " has no ground-truth solution image (artifact role 'solution')"));
        RubricInputs in = new RubricInputs()
                .text("prompt", orNone(item.getPrompt()))
                .media("solution", "ground-truth solution", solution)
                .generation("generation", output(event));
        artifact(item, "problem").ifPresent(p -> in.media("problem", "unsolved maze given to the model", p));
        return in;
    }
}
