package io.mmgr.stream.tasks.maze;

import java.util.Map;
import io.mmgr.stream.tasks.FamilyPayload;
import io.mmgr.stream.tasks.SimulatedTask;
import io.mmgr.stream.tasks.AgreementPrior;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvalAdapter;
import java.util.function.Supplier;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** MMGR T1: maze solving by image (draw the path) and video (move the green square). */
public final class MazeTasks implements TaskFamily {

    public static final String TASK = "maze";
    /** The family of its task specs, and of its ground truth payload ({@link MazeTruth}). */
    public static final String FAMILY = "maze";
    public static final String RUBRIC = "maze";

    public static TaskSpec spec() {
        return new TaskSpec(TASK, FAMILY, "mmgr", Set.of("image", "video"), List.of(MazePixelEvaluator.ID),
                Optional.of(RUBRIC), new MazeGate());
    }

    @Override
    public Optional<FamilyPayload> payload() {
        return Optional.of(MazeTruth.PAYLOAD);
    }

    @Override
    public List<TaskSpec> tasks() {
        return List.of(spec());
    }

    @Override
    public List<Supplier<DeterministicEvaluator>> evaluators() {
        return List.of(MazePixelEvaluator::new);
    }

    @Override
    public List<JudgeRubric> rubrics() {
        return List.of(new MazeRubric());
    }

    @Override
    public List<EvalAdapter> evalAdapters() {
        return List.of(new EvalAdapter("maze", MazePixelEvaluator.ID, MazePixelEvaluator::new, MazeEvalCase::sample));
    }

    /** Table 5: the pixel pipeline against human raters. */
    @Override
    public List<AgreementPrior> agreementPriors() {
        return List.of(new AgreementPrior(TASK, MazeGate.PIXEL_PART, Map.of("Sora-2", 1.0, "Veo-3", 0.9556, "Wan-2.2", 1.0)));
    }

    @Override
    public List<SimulatedTask> simulations() {
        return List.of(new MazeSimulation());
    }

    @Override
    public List<Object> evalCommands() {
        return List.of(new EvalMazeCommand());
    }

    @Override
    public List<Object> generateCommands() {
        return List.of(new GenerateMazeCommand());
    }
}
