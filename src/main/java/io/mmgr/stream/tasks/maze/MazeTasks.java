package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** MMGR T1: maze solving by image (draw the path) and video (move the green square). */
public final class MazeTasks implements TaskFamily {

    public static final String TASK = "maze";
    public static final String RUBRIC = "maze";

    public static TaskSpec spec() {
        return new TaskSpec(TASK, "maze", "mmgr", Set.of("image", "video"), List.of(MazePixelEvaluator.ID),
                Optional.of(RUBRIC), new MazeGate());
    }

    @Override
    public List<TaskSpec> tasks() {
        return List.of(spec());
    }
}
