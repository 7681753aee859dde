package io.mmgr.stream.tasks.arc;

import java.util.Map;
import io.mmgr.stream.tasks.FamilyPayload;
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

/** MMGR T3 ARC: judged by the VLM rubric and checked cell by cell by the grid evaluator. */
public final class ArcTasks implements TaskFamily {

    @Override
    public Optional<FamilyPayload> payload() {
        return Optional.of(ArcTruth.PAYLOAD);
    }

    @Override
    public List<TaskSpec> tasks() {
        return List.of(new TaskSpec(ArcMetrics.TASK, ArcMetrics.FAMILY, "mmgr", Set.of("image", "video"),
                List.of(ArcMetrics.GRID_EVALUATOR), Optional.of(ArcMetrics.RUBRIC), new ArcGate()));
    }

    @Override
    public List<Supplier<DeterministicEvaluator>> evaluators() {
        return List.of(ArcGridEvaluator::new);
    }

    @Override
    public List<JudgeRubric> rubrics() {
        return List.of(new ArcRubric());
    }

    @Override
    public List<EvalAdapter> evalAdapters() {
        return List.of(new EvalAdapter("arc", ArcMetrics.GRID_EVALUATOR, ArcGridEvaluator::new, ArcEvalCase::sample));
    }

    /** Table 5: the judge against human raters. */
    @Override
    public List<AgreementPrior> agreementPriors() {
        return List.of(new AgreementPrior(ArcMetrics.TASK, AgreementPrior.JUDGE, Map.of("Veo-3", 0.9490)));
    }

    @Override
    public List<Object> evalCommands() {
        return List.of(new EvalArcCommand());
    }

    @Override
    public List<Object> generateCommands() {
        return List.of(new GenerateArcCommand());
    }
}
