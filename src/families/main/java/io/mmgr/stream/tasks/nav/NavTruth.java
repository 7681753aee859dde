package io.mmgr.stream.tasks.nav;

import static io.mmgr.stream.tasks.PayloadValues.generic;
import static io.mmgr.stream.tasks.PayloadValues.get;
import static io.mmgr.stream.tasks.PayloadValues.records;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.Pose;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.FamilyPayload;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecordBuilder;

/**
 * A navigation item's ground truth. It travels in the item's payload (family {@code nav}, schema
 * {@code NavTruth.avsc} in this folder, with its own copy of {@code Pose}); an item without one keeps it in
 * the shared fields it used before ({@code trajectory2d}, {@code trajectory3d}, {@code goalPolygon2d},
 * {@code goal3d}, {@code goalRadius3d}, {@code oracleRadius3d}), read the same way. The judge's
 * {@code context} and the item settings in {@code extra} stay shared. Every field may be null.
 *
 * @param trajectory2d   the reference route on the map
 * @param trajectory3d   the reference path in 3D
 * @param goalPolygon2d  the goal footprint, vertices [x, y]
 * @param goal3d         x, y, z of the target
 * @param goalRadius3d   the target volume's radius
 * @param oracleRadius3d the oracle's proximity threshold
 */
public record NavTruth(List<Pose> trajectory2d, List<Pose> trajectory3d, List<List<Double>> goalPolygon2d, List<Double> goal3d,
                       Double goalRadius3d, Double oracleRadius3d) {

    static final FamilyPayload PAYLOAD = FamilyPayload.load(NavMetrics.FAMILY, NavTruth.class, "NavTruth");

    /** The item's navigation ground truth: its payload, else the shared fields. */
    public static NavTruth of(GroundTruth gt) throws EvaluationException {
        return PAYLOAD.read(gt,
                r -> new NavTruth(records(r, "trajectory2d", Pose::new), records(r, "trajectory3d", Pose::new), get(r, "goalPolygon2d"),
                        get(r, "goal3d"), get(r, "goalRadius3d"), get(r, "oracleRadius3d")),
                g -> new NavTruth(g.getTrajectory2d(), g.getTrajectory3d(), g.getGoalPolygon2d(), g.getGoal3d(), g.getGoalRadius3d(),
                        g.getOracleRadius3d()));
    }

    /** Sets this as {@code gt}'s payload. */
    public GroundTruth.Builder into(GroundTruth.Builder gt) {
        Schema s = PAYLOAD.schema();
        return PAYLOAD.write(gt, new GenericRecordBuilder(s).set("trajectory2d", generic(s, "trajectory2d", trajectory2d))
                .set("trajectory3d", generic(s, "trajectory3d", trajectory3d)).set("goalPolygon2d", goalPolygon2d).set("goal3d", goal3d)
                .set("goalRadius3d", goalRadius3d).set("oracleRadius3d", oracleRadius3d).build());
    }
}
