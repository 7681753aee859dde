package io.mmgr.stream.tasks.physics;

import java.util.Map;
import io.mmgr.stream.tasks.FamilyPayload;
import io.mmgr.stream.tasks.AgreementPrior;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * MMGR T9 Physical Concepts and T10 Sports: judge only, video only (seed L.3: "Evaluation is
 * exclusive to video generative models"). Same gate, one rubric per task.
 */
public final class PhysicsTasks implements TaskFamily {

    @Override
    public Optional<FamilyPayload> payload() {
        return Optional.of(PhysicsTruth.PAYLOAD);
    }

    @Override
    public List<TaskSpec> tasks() {
        PhysicsGate gate = new PhysicsGate();
        return List.of(
                spec(PhysicsMetrics.PHYSICAL_CONCEPTS, gate),
                spec(PhysicsMetrics.SPORTS, gate));
    }

    private static TaskSpec spec(String task, PhysicsGate gate) {
        // rubric id = task id
        return new TaskSpec(task, PhysicsMetrics.FAMILY, "mmgr", Set.of("video"), List.of(), Optional.of(task), gate);
    }

    @Override
    public List<JudgeRubric> rubrics() {
        return List.of(new PhysicsRubric(PhysicsMetrics.PHYSICAL_CONCEPTS), new PhysicsRubric(PhysicsMetrics.SPORTS));
    }

    /** Table 5's "Physics (VLM)" row covers both tasks. */
    @Override
    public List<AgreementPrior> agreementPriors() {
        return List.of(new AgreementPrior(PhysicsMetrics.PHYSICAL_CONCEPTS, AgreementPrior.JUDGE, Map.of("Veo-3", 0.6531)),
                new AgreementPrior(PhysicsMetrics.SPORTS, AgreementPrior.JUDGE, Map.of("Veo-3", 0.6531)));
    }
}
