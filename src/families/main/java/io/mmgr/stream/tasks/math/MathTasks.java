package io.mmgr.stream.tasks.math;

import io.mmgr.stream.tasks.FamilyPayload;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * MMGR T4 Math: judge only. {@code text} is accepted because the seed evaluates text-solution
 * baselines (Gemini-3-Flash/Pro) on Math.
 */
public final class MathTasks implements TaskFamily {

    @Override
    public Optional<FamilyPayload> payload() {
        return Optional.of(MathTruth.PAYLOAD);
    }

    @Override
    public List<TaskSpec> tasks() {
        return List.of(new TaskSpec(MathMetrics.TASK, MathMetrics.FAMILY, "mmgr", Set.of("image", "video", "text"),
                List.of(), Optional.of(MathMetrics.RUBRIC), new MathGate()));
    }

    @Override
    public List<JudgeRubric> rubrics() {
        return List.of(new MathRubric());
    }
}
