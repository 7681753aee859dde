package io.mmgr.stream.tasks.physics;

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
 * MMGR T9 Physical Concepts and T10 Sports (seed L.3): the judge is prompted as a "physics-aware
 * video analysis expert" and scores four binary dimensions against the prompt and its Physics Focus.
 * Videos only.
 */
public final class PhysicsRubric extends TemplateRubric {

    public static final List<RubricMetric> METRICS = List.of(
            RubricMetric.binary(PhysicsMetrics.PHYSICS_ACCURACY, 1.0,
                    "1 if motion obeys gravity, momentum and friction and interactions are plausible; 0 if objects "
                            + "float, move at unrealistic speeds, follow wrong trajectories or deviate from the Physics Focus."),
            RubricMetric.binary(PhysicsMetrics.MOTION_QUALITY, 1.0,
                    "1 if motion is temporally coherent, natural, smooth and continuous and follows the expected "
                            + "pattern; 0 if jerky, with unnatural accelerations or temporal discontinuities."),
            RubricMetric.binary(PhysicsMetrics.VISUAL_REALISM, 1.0,
                    "1 if objects and materials look realistic with consistent lighting and shadows and a plausible "
                            + "composition; 0 if there are significant artifacts or glitches or it lacks photorealism."),
            RubricMetric.binary(PhysicsMetrics.PROMPT_ADHERENCE, 1.0,
                    "1 if the video matches the prompt: the key objects and setting are present and the described "
                            + "action occurs; 0 if there are significant mismatches."));

    PhysicsRubric(String task) {
        super(task, "v1", METRICS, Set.of("video"));
    }

    @Override
    protected RubricInputs inputs(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        if (item.getPrompt() == null || item.getPrompt().isBlank()) {
            throw new EvaluationException(item.getTask() + " item " + item.getSampleId() + " has no prompt");
        }
        return new RubricInputs()
                .text("prompt", item.getPrompt().strip())
                .text("physicsFocus", orNone(PhysicsTruth.of(item.getGroundTruth()).physicsFocus()))
                .generation("generation", output(event));
    }
}
