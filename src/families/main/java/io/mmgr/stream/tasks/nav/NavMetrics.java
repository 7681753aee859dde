package io.mmgr.stream.tasks.nav;

/**
 * Embodied Navigation (MMGR T5-T8) metric names: the shared suite of seed G.3. Task Completeness
 * comes from the geometry evaluator, Physical Understanding and Instruction Following from the judge.
 * Every metric is binary.
 */
public final class NavMetrics {

    /** The family of its task specs and of its ground truth payload ({@link NavTruth}). */
    public static final String FAMILY = "nav";
    public static final String LAST_MILE = "nav-last-mile";
    public static final String TOP_DOWN = "nav-top-down";
    public static final String REAL_WORLD_3D = "nav-3d-real-world";
    public static final String SLAG = "nav-slag";

    /** Rule-based geometry on the agent's trace: the Task Completeness metrics. */
    public static final String GEOMETRY_EVALUATOR = "nav-geometry";
    /** Diagnostic trajectory metrics of T5 (SR, SPL, nDTW, ATE, ...); never gates. */
    public static final String GEO_ALIGN_EVALUATOR = "geo-align";
    /** Diagnostic distributional metrics of T6-T8 (FVD, FID, SSIM, ...); never gates. */
    public static final String VIEW_SYN_EVALUATOR = "view-syn";

    // Task Completeness (nav-geometry)
    public static final String SUCCESS_2D = "success_2d";
    public static final String ORACLE_SUCCESS_2D = "oracle_success_2d";
    public static final String SUCCESS_3D = "success_3d";
    public static final String ORACLE_SUCCESS_3D = "oracle_success_3d";
    public static final String TRAJECTORY_ALIGNMENT = "trajectory_alignment";

    // Physical Understanding (judge)
    public static final String OBJECT_SEMANTIC = "object_semantic";
    public static final String AGENT_CONSISTENCY = "agent_consistency";
    public static final String SPATIAL_ALIGNMENT = "spatial_alignment";

    // Instruction Following (judge)
    public static final String DESTINATION_INTEGRITY = "destination_integrity";
    public static final String SCENE_CONSISTENCY = "scene_consistency";

    // Gate composites (seed table "Gate (composite) metrics"), reported next to the primary
    public static final String SUCCESS_3D_ORIGINAL_DESTINATION = "success_3d_original_destination";
    public static final String SUCCESS_2D_ORIGINAL_DESTINATION = "success_2d_original_destination";
    public static final String PHYSICS_VALIDNESS = "physics_validness";

    private NavMetrics() {
    }
}
