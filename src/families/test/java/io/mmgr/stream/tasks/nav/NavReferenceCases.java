package io.mmgr.stream.tasks.nav;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.Pose;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The navigation reference cases: 100 generated 3D-navigation samples (Last-Mile, 3D Real-World, SLAG)
 * whose metrics follow from their construction, 30 of them from items without a 3D target or without its
 * radius, as real benchmark exports come.
 *
 * <p>Construction. The ground truth walks forward along +x in steps of known length, swaying sideways
 * (SLAG: along +x, then turning to +y); its last step runs straight ahead. The prediction is the ground
 * truth scaled by {@code s} about its start and shifted by {@code t}, so that after the Sim(3) alignment
 * ATE and RPE are 0 and its path length is {@code s} times the ground truth's; its last heading is off by
 * {@code delta}. The target lies {@code u} straight ahead of the prediction's end, so the end is {@code u}
 * from it and no earlier point comes closer: Success 3D is {@code u <= goalRadius3d}, Oracle Success 3D
 * is {@code u <= oracleRadius3d}, and Geo-Align's Nav error is {@code u}. Without a target, Geo-Align's
 * goal is the ground truth's end, which the prediction misses by {@code |(s - 1)(end - start) + t|}.
 * SLAG's 2D route is the path drawn on a map (pixels, y down), or for a fault a straight line with no turn.
 */
final class NavReferenceCases {

    /** How an item lacks its target. */
    enum Missing {
        NONE, GOAL, RADIUS, BOTH_RADII
    }

    /**
     * One case and what its construction gives.
     *
     * @param expected    {@code <part>.<metric>} values the scorer must give (absent keys are not asserted)
     * @param unavailable {@code <part>.<metric>} keys the scorer must name as unavailable
     */
    record Case(String id, Missing missing, GenerationEvent event, BenchmarkItem item, Map<String, Double> expected,
                Set<String> unavailable) {
    }

    static final int COUNT = 100;

    private NavReferenceCases() {
    }

    static List<Case> cases() {
        Random random = new Random(20261205L);
        List<Case> out = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            String task = i < 40 ? NavMetrics.LAST_MILE : i < 70 ? NavMetrics.REAL_WORLD_3D : NavMetrics.SLAG;
            // three in ten of each task lack their target: goal, radius (the oracle's given), or both radii
            int k = i % 10;
            Missing missing = k == 3 ? Missing.GOAL : k == 6 ? Missing.RADIUS : k == 9 ? Missing.BOTH_RADII : Missing.NONE;
            out.add(make("ref-" + i, task, missing, random));
        }
        return out;
    }

    private static Case make(String id, String task, Missing missing, Random random) {
        boolean slag = task.equals(NavMetrics.SLAG);
        int n = 5 + random.nextInt(8);
        List<double[]> gt = new ArrayList<>();
        double[] p = {random.nextDouble() * 4 - 2, random.nextDouble() * 4 - 2, 0};
        gt.add(p.clone());
        double length = 0;
        int turnAt = slag ? n / 2 : n;
        for (int j = 1; j < n; j++) {
            double step = 0.5 + random.nextDouble();
            boolean last = j == n - 1;
            double sway = last ? 0 : (random.nextDouble() - 0.5) * 0.6 * step;
            double along = Math.sqrt(step * step - sway * sway);
            // before the turn the walk runs along +x, after it along +y; the last step straight ahead
            if (j < turnAt) {
                p[0] += along;
                p[1] += sway;
            } else {
                p[0] += sway;
                p[1] += along;
            }
            length += step;
            gt.add(p.clone());
        }
        double[] start = gt.get(0);
        double[] end = gt.get(n - 1);
        double[] ahead = slag ? new double[] {0, 1, 0} : new double[] {1, 0, 0};
        double s = 0.6 + random.nextDouble() * 0.8;
        double[] t = {random.nextDouble() - 0.5, random.nextDouble() - 0.5, random.nextDouble() * 0.4 - 0.2};
        List<double[]> pred = new ArrayList<>();
        for (double[] q : gt) {
            pred.add(new double[] {start[0] + s * (q[0] - start[0]) + t[0], start[1] + s * (q[1] - start[1]) + t[1],
                    start[2] + s * (q[2] - start[2]) + t[2]});
        }
        double[] predEnd = pred.get(n - 1);
        double goalRadius = 0.5 + random.nextDouble();
        double oracleRadius = goalRadius * (1.5 + random.nextDouble());
        // u: inside the volume, between it and the proximity threshold, or beyond both
        double u = switch (random.nextInt(3)) {
            case 0 -> goalRadius * random.nextDouble() * 0.9;
            case 1 -> goalRadius + (oracleRadius - goalRadius) * (0.1 + 0.8 * random.nextDouble());
            default -> oracleRadius * (1.1 + random.nextDouble());
        };
        double[] goal = {predEnd[0] + u * ahead[0], predEnd[1] + u * ahead[1], predEnd[2] + u * ahead[2]};
        double headingGt = random.nextDouble() * 360 - 180;
        double delta = random.nextDouble() * 340 - 170;

        GroundTruth.Builder truth = GroundTruth.newBuilder().setTrajectory3d(poses(gt, headingGt, 0));
        if (missing != Missing.GOAL) {
            truth.setGoal3d(List.of(goal[0], goal[1], goal[2]));
        }
        if (missing == Missing.NONE || missing == Missing.GOAL) {
            truth.setGoalRadius3d(goalRadius);
        }
        if (missing != Missing.BOTH_RADII) {
            truth.setOracleRadius3d(oracleRadius);
        }
        GenerationInputs.Builder inputs = GenerationInputs.newBuilder().setTrajectory3d(poses(pred, headingGt, delta));

        Map<String, Double> expected = new LinkedHashMap<>();
        Set<String> unavailable = new LinkedHashSet<>();
        String geometry = NavMetrics.GEOMETRY_EVALUATOR + ".";
        if (missing == Missing.GOAL) {
            unavailable.add(geometry + NavMetrics.SUCCESS_3D);
            unavailable.add(geometry + NavMetrics.ORACLE_SUCCESS_3D);
        } else {
            if (missing == Missing.NONE) {
                expected.put(geometry + NavMetrics.SUCCESS_3D, u <= goalRadius ? 1.0 : 0.0);
            } else {
                unavailable.add(geometry + NavMetrics.SUCCESS_3D);
            }
            if (missing == Missing.BOTH_RADII) {
                unavailable.add(geometry + NavMetrics.ORACLE_SUCCESS_3D);
            } else {
                expected.put(geometry + NavMetrics.ORACLE_SUCCESS_3D, u <= oracleRadius ? 1.0 : 0.0);
            }
        }
        if (slag) {
            boolean aligned = random.nextInt(4) != 0;
            List<double[]> route = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                double[] q = pred.get(j);
                // a faulty map draws a straight line of the same number of poses: no turn
                route.add(aligned ? new double[] {100 + 40 * q[0], 400 - 40 * q[1], 0} : new double[] {100 + 25.0 * j, 300, 0});
            }
            double[] routeEnd = route.get(n - 1);
            double half = 12;
            boolean inside = random.nextBoolean();
            // the footprint round the route's end, or well clear of every pose
            double cx = inside ? routeEnd[0] : routeEnd[0] + 2000;
            double cy = routeEnd[1];
            truth.setGoalPolygon2d(List.of(List.of(cx - half, cy - half), List.of(cx + half, cy - half),
                    List.of(cx + half, cy + half), List.of(cx - half, cy + half)));
            inputs.setTrajectory2d(poses2d(route));
            expected.put(geometry + NavMetrics.SUCCESS_2D, inside ? 1.0 : 0.0);
            expected.put(geometry + NavMetrics.ORACLE_SUCCESS_2D, inside ? 1.0 : 0.0);
            expected.put(geometry + NavMetrics.TRAJECTORY_ALIGNMENT, aligned ? 1.0 : 0.0);
        }
        if (task.equals(NavMetrics.LAST_MILE)) {
            String geo = NavMetrics.GEO_ALIGN_EVALUATOR + ".";
            expected.put(geo + GeoAlign.ATE, 0.0);
            expected.put(geo + GeoAlign.RPE, 0.0);
            expected.put(geo + GeoAlign.PATH_LENGTH_GT, length);
            expected.put(geo + GeoAlign.PATH_LENGTH_PRED, s * length);
            expected.put(geo + GeoAlign.DIR_ERROR, Math.abs(delta));
            double nav = missing == Missing.GOAL ? norm((s - 1) * (end[0] - start[0]) + t[0],
                    (s - 1) * (end[1] - start[1]) + t[1], (s - 1) * (end[2] - start[2]) + t[2]) : u;
            expected.put(geo + GeoAlign.NAV_ERROR, nav);
            double dth = missing == Missing.NONE || missing == Missing.GOAL ? goalRadius : NavThresholds.DEFAULT_SUCCESS_DISTANCE;
            expected.put(geo + GeoAlign.SR, nav < dth ? 1.0 : 0.0);
        }
        GenerationEvent event = GenerationEvent.newBuilder().setRunId("ref").setModel("m").setCheckpointId("c")
                .setTrainingStep(1).setTask(task).setSampleId(id).setModality("video").setProducedAt(Instant.EPOCH)
                .setInputs(inputs.build()).build();
        BenchmarkItem item = BenchmarkItem.newBuilder().setTask(task).setSampleId(id).setGroundTruth(truth.build())
                .setArtifacts(List.of()).build();
        return new Case(id, missing, event, item, expected, unavailable);
    }

    private static List<Pose> poses(List<double[]> points, double heading, double lastDelta) {
        List<Pose> out = new ArrayList<>();
        for (int j = 0; j < points.size(); j++) {
            double[] q = points.get(j);
            double h = j == points.size() - 1 ? GeoAlign.wrap(heading + lastDelta) : heading;
            out.add(Pose.newBuilder().setFrame(j).setX(q[0]).setY(q[1]).setZ(q[2]).setHeadingDeg(h).build());
        }
        return out;
    }

    private static List<Pose> poses2d(List<double[]> points) {
        List<Pose> out = new ArrayList<>();
        for (int j = 0; j < points.size(); j++) {
            out.add(Pose.newBuilder().setFrame(j).setX(points.get(j)[0]).setY(points.get(j)[1]).build());
        }
        return out;
    }

    private static double norm(double x, double y, double z) {
        return Math.sqrt(x * x + y * y + z * z);
    }
}
