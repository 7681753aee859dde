package io.mmgr.stream.tasks.physics;

/**
 * Physical Commonsense (MMGR T9 Physical Concepts, T10 Sports) metric names: one shared judge
 * suite (seed L.3), four binary dimensions, all required.
 */
public final class PhysicsMetrics {

    /** The family of its task specs and of its ground truth payload ({@link PhysicsTruth}). */
    public static final String FAMILY = "physics";
    public static final String PHYSICAL_CONCEPTS = "physical-concepts";
    public static final String SPORTS = "sports";

    /** 0/1: motion obeys gravity, momentum, friction; interactions plausible. */
    public static final String PHYSICS_ACCURACY = "physics_accuracy";
    /** 0/1: motion smooth, continuous, temporally coherent. */
    public static final String MOTION_QUALITY = "motion_quality";
    /** 0/1: realistic objects, materials, lighting; no significant artifacts. */
    public static final String VISUAL_REALISM = "visual_realism";
    /** 0/1: key objects, setting and described action present. */
    public static final String PROMPT_ADHERENCE = "prompt_adherence";

    private PhysicsMetrics() {
    }
}
