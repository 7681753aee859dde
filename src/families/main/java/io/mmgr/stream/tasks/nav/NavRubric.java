package io.mmgr.stream.tasks.nav;

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
 * MMGR T5-T8 Embodied Navigation, the judged half of the shared suite (seed G.3): Physical
 * Understanding and Instruction Following, all binary. The judge "receives the generation plus
 * task-specific context": the item's prompt, {@code groundTruth.context} and its image artifacts
 * (map, scene, target views), each labelled with its role.
 */
public final class NavRubric extends TemplateRubric {

    public static final List<RubricMetric> METRICS = List.of(
            RubricMetric.binary(NavMetrics.OBJECT_SEMANTIC, 1.0,
                    "1 if there is no collision with or penetration of solid structures (walls, furniture, appliances)."),
            RubricMetric.binary(NavMetrics.AGENT_CONSISTENCY, 1.0,
                    "1 if exactly one agent moves smoothly and consistently across all frames on a continuous trajectory."),
            RubricMetric.binary(NavMetrics.SPATIAL_ALIGNMENT, 1.0,
                    "1 if heading, motion direction and elevation changes stay coherent with the physical layout "
                            + "(initial position identifiable; initial facing aligned with the first movement)."),
            RubricMetric.binary(NavMetrics.DESTINATION_INTEGRITY, 1.0,
                    "1 if the red-marked target stays unchanged (size, position, texture, appearance), no "
                            + "hallucinated alternative target appears, and the agent stops within it."),
            RubricMetric.binary(NavMetrics.SCENE_CONSISTENCY, 1.0,
                    "1 if the environment stays static: nothing appears, disappears, deforms or shifts across frames."));

    NavRubric(String task) {
        super(task, "v1", METRICS, Set.of("image", "video"));
    }

    @Override
    protected RubricInputs inputs(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        RubricInputs in = new RubricInputs()
                .text("instruction", orNone(item.getPrompt()))
                .text("context", orNone(item.getGroundTruth().getContext()))
                .generation("generation", output(event));
        for (ArtifactRef a : item.getArtifacts()) {
            if (a.getMediaType() != null && a.getMediaType().startsWith("image/")) {
                in.media("context", a.getRole(), a);
            }
        }
        return in;
    }
}
