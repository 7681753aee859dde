package io.mmgr.stream.tasks.nav;

import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.vision.Rect;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the navigation evaluators read from a generation and its benchmark item, validated with
 * user-facing reasons. Item settings that the schema has no field for live in {@code groundTruth.extra}:
 * {@code agentRadius2d} (map units, default 0: the agent is a point), {@code upAxis} (y or z, default z),
 * {@code agentColor} (#RRGGBB of the agent marker in top-down videos), {@code agentColorTolerance}
 * (L1 RGB, default 90), {@code mapRegion} ("x,y,w,h" of the map in the video frame, default the whole
 * frame) and {@code shortestPathLength} (for SPL).
 */
final class NavInputs {

    private NavInputs() {
    }

    /** The item's ground truth ({@link NavTruth}: its payload, else the shared fields). */
    static NavTruth truth(BenchmarkItem item) throws EvaluationException {
        if (item.getGroundTruth() == null) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + " has no groundTruth");
        }
        return NavTruth.of(item.getGroundTruth());
    }

    static Map<String, String> extra(BenchmarkItem item) {
        Map<String, String> e = item.getGroundTruth() == null ? null : item.getGroundTruth().getExtra();
        return e == null ? Map.of() : e;
    }

    /** The 2D goal footprint, when the item gives one; a malformed one is refused. */
    static Optional<Polygon2d> goalPolygon(BenchmarkItem item) throws EvaluationException {
        List<List<Double>> polygon = truth(item).goalPolygon2d();
        if (polygon == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Polygon2d.of(polygon));
        } catch (IllegalArgumentException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": " + e.getMessage());
        }
    }

    /** The 3D target, when the item gives one; a malformed one is refused. */
    static Optional<Vec> goal3d(BenchmarkItem item) throws EvaluationException {
        List<Double> g = truth(item).goal3d();
        if (g == null) {
            return Optional.empty();
        }
        if (g.size() != 3 || g.stream().anyMatch(v -> v == null)) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": goal3d must be [x, y, z]");
        }
        try {
            return Optional.of(new Vec(g.get(0), g.get(1), g.get(2)));
        } catch (IllegalArgumentException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": goal3d " + e.getMessage());
        }
    }

    /** The target volume's radius, when the item gives one; one that is not positive is refused. */
    static Optional<Double> goalRadius(BenchmarkItem item) throws EvaluationException {
        Double r = truth(item).goalRadius3d();
        return r == null ? Optional.empty() : Optional.of(positive(r, "goalRadius3d", item));
    }

    /** The oracle's proximity threshold; the target volume's radius when the item sets none. */
    static Optional<Double> oracleRadius(BenchmarkItem item) throws EvaluationException {
        Double r = truth(item).oracleRadius3d();
        return r == null ? goalRadius(item) : Optional.of(positive(r, "oracleRadius3d", item));
    }

    // why a metric that needs what the item lacks is unavailable (the sample keeps its other metrics)

    static String noGoalPolygon(BenchmarkItem item) {
        return "benchmark item " + item.getSampleId() + " has no 2D goal footprint (groundTruth.goalPolygon2d)";
    }

    static String noGoal3d(BenchmarkItem item) {
        return "benchmark item " + item.getSampleId() + " has no 3D target (groundTruth.goal3d)";
    }

    static String noGoalRadius(BenchmarkItem item) {
        return "benchmark item " + item.getSampleId() + " has no target volume radius (groundTruth.goalRadius3d)";
    }

    static String noOracleRadius(BenchmarkItem item) {
        return "benchmark item " + item.getSampleId() + " has no proximity radius (groundTruth.oracleRadius3d) "
                + "and no target volume radius (groundTruth.goalRadius3d) to stand in for it";
    }

    private static double positive(double v, String name, BenchmarkItem item) throws EvaluationException {
        if (!Double.isFinite(v) || v <= 0) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": " + name + " must be a positive number");
        }
        return v;
    }

    static double number(BenchmarkItem item, String key, double fallback) throws EvaluationException {
        String v = extra(item).get(key);
        if (v == null) {
            return fallback;
        }
        try {
            double d = Double.parseDouble(v.trim());
            if (!Double.isFinite(d) || d < 0) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": groundTruth.extra." + key
                    + " must be a non-negative number, got '" + v + "'");
        }
    }

    static UpAxis upAxis(BenchmarkItem item) throws EvaluationException {
        try {
            return UpAxis.parse(extra(item).get("upAxis"));
        } catch (IllegalArgumentException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": " + e.getMessage());
        }
    }

    static Optional<Track> eventTrack(GenerationEvent event, boolean threeD) throws EvaluationException {
        GenerationInputs in = event.getInputs();
        List<io.mmgr.stream.avro.Pose> poses = in == null ? null : threeD ? in.getTrajectory3d() : in.getTrajectory2d();
        if (poses == null || poses.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Track.fromPoses(poses, threeD, threeD ? "inputs.trajectory3d" : "inputs.trajectory2d"));
        } catch (IllegalArgumentException e) {
            throw new EvaluationException(e.getMessage());
        }
    }

    static Optional<Track> truthTrack(BenchmarkItem item, boolean threeD) throws EvaluationException {
        NavTruth gt = truth(item);
        List<io.mmgr.stream.avro.Pose> poses = threeD ? gt.trajectory3d() : gt.trajectory2d();
        if (poses == null || poses.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Track.fromPoses(poses, threeD, threeD ? "groundTruth.trajectory3d" : "groundTruth.trajectory2d"));
        } catch (IllegalArgumentException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": " + e.getMessage());
        }
    }

    /** The agent marker colour for tracking top-down videos, when the item names one. */
    static Optional<Integer> agentColour(BenchmarkItem item) throws EvaluationException {
        String c = extra(item).get("agentColor");
        if (c == null) {
            return Optional.empty();
        }
        String hex = c.trim().startsWith("#") ? c.trim().substring(1) : c.trim();
        if (!hex.matches("[0-9a-fA-F]{6}")) {
            throw new EvaluationException("benchmark item " + item.getSampleId()
                    + ": groundTruth.extra.agentColor must be #RRGGBB, got '" + c + "'");
        }
        return Optional.of(Integer.parseInt(hex, 16));
    }

    static Rect mapRegion(BenchmarkItem item) throws EvaluationException {
        String r = extra(item).get("mapRegion");
        if (r == null) {
            return null;
        }
        try {
            String[] p = r.split(",");
            if (p.length != 4) {
                throw new IllegalArgumentException();
            }
            return new Rect(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()),
                    Integer.parseInt(p[2].trim()), Integer.parseInt(p[3].trim()));
        } catch (IllegalArgumentException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId()
                    + ": groundTruth.extra.mapRegion must be 'x,y,width,height', got '" + r + "'");
        }
    }

    static Optional<ArtifactRef> outputVideo(GenerationEvent event) {
        return ArtifactResolver.find(event.getArtifacts(), "output")
                .filter(a -> a.getMediaType() != null && a.getMediaType().toLowerCase(Locale.ROOT).startsWith("video/"));
    }
}
