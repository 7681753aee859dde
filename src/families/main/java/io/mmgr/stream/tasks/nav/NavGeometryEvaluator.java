package io.mmgr.stream.tasks.nav;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.MarkerTracker;
import io.mmgr.stream.vision.Rect;
import io.mmgr.stream.vision.VideoDecoder;
import io.mmgr.stream.vision.VideoProbe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code nav-geometry} part: the seed's Task Completeness metrics ({@link TaskCompleteness},
 * {@link TrajectoryAlignment}) from the agent's trace. 2D metrics (Top-down, SLAG) use
 * {@code inputs.trajectory2d} or, when the event carries none, the agent marker tracked in the
 * top-down output video; 3D metrics (Last-Mile, 3D Real-World, SLAG) use {@code inputs.trajectory3d}
 * (e.g. VGGT poses), in the benchmark item's frame. Metrics a task does not use are null. An item
 * without a goal (or a radius) leaves unavailable only the metrics that need it, each with its reason
 * ({@link #unavailableMetrics}): Trajectory Alignment needs neither, and the sample keeps its other parts.
 */
public final class NavGeometryEvaluator implements DeterministicEvaluator {

    public static final String ID = NavMetrics.GEOMETRY_EVALUATOR;

    private final VideoDecoder.Limits videoLimits;

    public NavGeometryEvaluator() {
        this(VideoDecoder.Limits.DEFAULT);
    }

    public NavGeometryEvaluator(VideoDecoder.Limits videoLimits) {
        this.videoLimits = videoLimits;
    }

    @Override
    public String id() {
        return ID;
    }

    /** Geometry of the event's trajectories, unless the 2D one must first be tracked in the top-down video. */
    @Override
    public CostClass costClass(GenerationEvent event, BenchmarkItem item) {
        boolean given = event.getInputs() != null && event.getInputs().getTrajectory2d() != null
                && !event.getInputs().getTrajectory2d().isEmpty();
        if (!needs2d(event.getTask()) || given || NavInputs.outputVideo(event).isEmpty()) {
            return CostClass.LIGHT;
        }
        try {
            return needsTrack2d(event, item) ? CostClass.VIDEO : CostClass.LIGHT;
        } catch (EvaluationException e) {
            return CostClass.LIGHT; // an unreadable payload: refused by the precheck
        }
    }

    @Override
    public String version() {
        return "1";
    }

    static boolean needs2d(String task) {
        return task.equals(NavMetrics.TOP_DOWN) || task.equals(NavMetrics.SLAG);
    }

    static boolean needs3d(String task) {
        return task.equals(NavMetrics.LAST_MILE) || task.equals(NavMetrics.REAL_WORLD_3D) || task.equals(NavMetrics.SLAG);
    }

    /** Whether a metric reads the 2D trace: the 2D successes when there is a goal footprint, SLAG's alignment always. */
    private static boolean needsTrack2d(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        return event.getTask().equals(NavMetrics.SLAG)
                || item.getGroundTruth() != null && NavTruth.of(item.getGroundTruth()).goalPolygon2d() != null;
    }

    /**
     * The Task Completeness metrics the item lacks a goal or radius for: the seed defines them against the
     * goal footprint, the target volume and the proximity threshold, so without those they are not 0 but
     * unknown. A goal that is given but malformed is refused by the precheck instead.
     */
    @Override
    public Map<String, String> unavailableMetrics(GenerationEvent event, BenchmarkItem item) {
        Map<String, String> out = new LinkedHashMap<>();
        if (item.getGroundTruth() == null) {
            return out; // refused by the precheck
        }
        NavTruth gt;
        try {
            gt = NavTruth.of(item.getGroundTruth());
        } catch (EvaluationException e) {
            return out; // an unreadable payload: refused by the precheck
        }
        String task = event.getTask();
        if (needs2d(task) && gt.goalPolygon2d() == null) {
            out.put(NavMetrics.SUCCESS_2D, NavInputs.noGoalPolygon(item));
            out.put(NavMetrics.ORACLE_SUCCESS_2D, NavInputs.noGoalPolygon(item));
        }
        if (needs3d(task)) {
            if (gt.goal3d() == null) {
                out.put(NavMetrics.SUCCESS_3D, NavInputs.noGoal3d(item));
                out.put(NavMetrics.ORACLE_SUCCESS_3D, NavInputs.noGoal3d(item));
            } else if (gt.goalRadius3d() == null) {
                out.put(NavMetrics.SUCCESS_3D, NavInputs.noGoalRadius(item));
                if (gt.oracleRadius3d() == null) {
                    out.put(NavMetrics.ORACLE_SUCCESS_3D, NavInputs.noOracleRadius(item));
                }
            }
        }
        return out;
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        try {
            String task = event.getTask();
            if (needs2d(task)) {
                NavInputs.goalPolygon(item);
                NavInputs.number(item, "agentRadius2d", 0);
                if (NavInputs.eventTrack(event, false).isEmpty() && needsTrack2d(event, item)) {
                    if (NavInputs.outputVideo(event).isEmpty()) {
                        return Optional.of("no 2D trajectory (inputs.trajectory2d) and no top-down output video to track the agent in");
                    }
                    if (NavInputs.agentColour(item).isEmpty()) {
                        return Optional.of("no 2D trajectory (inputs.trajectory2d), and the benchmark item names no agent "
                                + "marker colour (groundTruth.extra.agentColor) to track in the top-down video");
                    }
                    NavInputs.mapRegion(item);
                }
            }
            if (needs3d(task)) {
                if (NavInputs.eventTrack(event, true).isEmpty()) {
                    return Optional.of("no 3D trajectory (inputs.trajectory3d: the agent's reconstructed poses)");
                }
                NavInputs.goal3d(item);
                NavInputs.goalRadius(item);
                NavInputs.oracleRadius(item);
                NavInputs.upAxis(item);
            }
            if (!needs2d(task) && !needs3d(task)) {
                return Optional.of("task '" + task + "' is not a navigation task");
            }
        } catch (EvaluationException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        GenerationEvent event = context.event();
        BenchmarkItem item = context.item();
        String task = event.getTask();
        Map<String, Double> m = new LinkedHashMap<>();
        Map<String, String> diag = new LinkedHashMap<>();
        m.put(NavMetrics.SUCCESS_2D, null);
        m.put(NavMetrics.ORACLE_SUCCESS_2D, null);
        m.put(NavMetrics.SUCCESS_3D, null);
        m.put(NavMetrics.ORACLE_SUCCESS_3D, null);
        m.put(NavMetrics.TRAJECTORY_ALIGNMENT, null);
        Track track2d = null;
        if (needs2d(task)) {
            Optional<Polygon2d> goal = NavInputs.goalPolygon(item);
            double radius = NavInputs.number(item, "agentRadius2d", 0);
            Optional<Track> given = NavInputs.eventTrack(event, false);
            if (given.isPresent()) {
                track2d = given.get();
                diag.put("trajectory2d", "inputs (" + track2d.points().size() + " poses)");
            } else if (needsTrack2d(event, item)) {
                track2d = track(context, diag);
            }
            if (goal.isPresent() && track2d == null) {
                m.put(NavMetrics.SUCCESS_2D, 0.0);
                m.put(NavMetrics.ORACLE_SUCCESS_2D, 0.0);
            } else if (goal.isPresent()) {
                m.put(NavMetrics.SUCCESS_2D, bool(TaskCompleteness.success2d(track2d.points(), goal.get(), radius)));
                m.put(NavMetrics.ORACLE_SUCCESS_2D,
                        bool(TaskCompleteness.oracleSuccess2d(track2d.points(), goal.get(), radius)));
                diag.put("final_distance_2d", fmt(goal.get().distance(track2d.last())));
            }
        }
        if (needs3d(task)) {
            Track track3d = NavInputs.eventTrack(event, true)
                    .orElseThrow(() -> new EvaluationException("no 3D trajectory (inputs.trajectory3d)"));
            // what the item lacks leaves its metrics null: unavailableMetrics named them at intake
            Optional<Vec> goal = NavInputs.goal3d(item);
            if (goal.isPresent()) {
                Optional<Double> goalRadius = NavInputs.goalRadius(item);
                Optional<Double> oracleRadius = NavInputs.oracleRadius(item);
                if (goalRadius.isPresent()) {
                    m.put(NavMetrics.SUCCESS_3D,
                            bool(TaskCompleteness.success3d(track3d.points(), goal.get(), goalRadius.get())));
                }
                if (oracleRadius.isPresent()) {
                    m.put(NavMetrics.ORACLE_SUCCESS_3D,
                            bool(TaskCompleteness.oracleSuccess3d(track3d.points(), goal.get(), oracleRadius.get())));
                }
                diag.put("final_distance_3d", fmt(track3d.last().distanceTo(goal.get())));
                diag.put("closest_approach_3d", fmt(TaskCompleteness.closestApproach(track3d.points(), goal.get())));
            }
            if (task.equals(NavMetrics.SLAG)) {
                if (track2d == null) {
                    m.put(NavMetrics.TRAJECTORY_ALIGNMENT, 0.0);
                } else {
                    TrajectoryAlignment.Result r = TrajectoryAlignment.compare(track2d.points(), track3d.points(),
                            NavInputs.upAxis(item));
                    m.put(NavMetrics.TRAJECTORY_ALIGNMENT, bool(r.aligned()));
                    diag.put("alignment_frechet_fraction", fmt(r.frechetFraction()));
                    diag.put("alignment_turns", "route " + r.routeTurns() + " / path " + r.pathTurns());
                }
            }
        }
        return new EvaluationOutcome(m, diag);
    }

    /** The agent's 2D trajectory tracked in the top-down video, in the video's pixel coordinates; null if never seen. */
    private Track track(EvaluationContext context, Map<String, String> diag) throws EvaluationException {
        BenchmarkItem item = context.item();
        ArtifactRef video = NavInputs.outputVideo(context.event())
                .orElseThrow(() -> new EvaluationException("no 2D trajectory and no top-down output video"));
        int colour = NavInputs.agentColour(item).orElseThrow(() -> new EvaluationException(
                "no 2D trajectory, and no agent marker colour (groundTruth.extra.agentColor) to track"));
        int tolerance = (int) NavInputs.number(item, "agentColorTolerance",
                NavThresholds.DEFAULT_MARKER_TOLERANCE);
        Rect region = NavInputs.mapRegion(item);
        Path file = context.artifacts().file(video);
        List<Vec> points = new ArrayList<>();
        List<Integer> frames = new ArrayList<>();
        int[] sampled = new int[1];
        try {
            VideoProbe probe = VideoDecoder.probe(file);
            MarkerTracker tracker = new MarkerTracker(colour, tolerance, NavThresholds.MARKER_MIN_AREA);
            VideoDecoder.sample(file, NavThresholds.TRACK_FRAMES, videoLimits, (index, frame) -> {
                sampled[0]++;
                double s = probe.width() / (double) frame.width();
                Rect r = region == null ? null : new Rect((int) Math.floor(region.x() / s), (int) Math.floor(region.y() / s),
                        Math.max(1, (int) Math.ceil(region.width() / s)), Math.max(1, (int) Math.ceil(region.height() / s)));
                double[] c = tracker.locate(frame, r);
                if (c != null) {
                    points.add(Vec.of(c[0] * s, c[1] * s));
                    frames.add(index);
                }
            });
        } catch (MediaException e) {
            throw new EvaluationException("top-down output video: " + e.getMessage(), e);
        }
        diag.put("trajectory2d", "tracked in " + points.size() + " of " + sampled[0] + " sampled frames");
        if (points.isEmpty()) {
            diag.put("tracking", "agent marker " + String.format(Locale.ROOT, "#%06X", colour) + " not found in any frame");
            return null;
        }
        List<Double> headings = new ArrayList<>();
        points.forEach(p -> headings.add(null));
        return new Track(points, frames, headings);
    }

    private static Double bool(boolean b) {
        return b ? 1.0 : 0.0;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }
}
