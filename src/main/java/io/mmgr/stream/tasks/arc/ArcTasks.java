package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** MMGR T3 ARC: judged by the VLM rubric and checked cell by cell by the grid evaluator. */
public final class ArcTasks implements TaskFamily {

    @Override
    public List<TaskSpec> tasks() {
        return List.of(new TaskSpec(ArcMetrics.TASK, "arc", "mmgr", Set.of("image", "video"),
                List.of(ArcMetrics.GRID_EVALUATOR), Optional.of(ArcMetrics.RUBRIC), new ArcGate()));
    }
}
