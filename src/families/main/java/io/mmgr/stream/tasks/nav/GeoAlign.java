package io.mmgr.stream.tasks.nav;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Geo-Align suite of T5 (seed: "SR, SPL, nDTW / sDTW, ATE, RPE, Path Length Pred vs GT, Nav (final
 * distance error), Dir (final heading misalignment)"), comparing the predicted 3D trajectory (e.g. VGGT
 * poses of the generated video, in the benchmark item's frame) with the ground-truth one (manual control
 * in Habitat). Higher is better for SR, SPL, nDTW, sDTW; the others are errors (lower is better), and the
 * two path lengths are reported for comparison.
 *
 * <ul>
 *   <li>SR: the final position strictly closer than the success distance d_th to the goal
 *       ({@link #succeeded}); an agent that stops exactly at d_th has failed.</li>
 *   <li>SPL ({@link Spl}): l is the item's shortest-path length ({@code shortestPathLength}), else the
 *       start-to-goal distance as habitat-lab takes it ({@link #startToGoal}).</li>
 *   <li>nDTW, sDTW ({@link Dtw}): Euclidean point distance, d_th the success distance; sDTW counts
 *       success with the same strict rule as SR.</li>
 *   <li>ATE: RMSE of position residuals after the least-squares similarity alignment (Sim(3), the scale
 *       of a monocular reconstruction being arbitrary) of the prediction onto the ground truth;
 *       {@code ate_rigid} after a rigid alignment (SE(3)).</li>
 *   <li>RPE: RMSE over consecutive associated pose pairs of the relative translation error, the
 *       predicted step taken through the same similarity alignment; {@code rpe_rotation_deg} the RMSE of
 *       relative heading changes when both trajectories carry headings on the same frames.</li>
 *   <li>Nav: distance from the final position to the goal; Dir: absolute difference of the final
 *       headings, wrapped to [0, 180] degrees.</li>
 * </ul>
 * Poses are associated by frame number when both trajectories list the same frames; otherwise the
 * prediction is interpolated at each ground-truth pose's normalized time (first to last frame), since a
 * generated video and a simulator run have their own clocks.
 */
public final class GeoAlign {

    public static final String SR = "sr";
    public static final String SPL = "spl";
    public static final String NDTW = "ndtw";
    public static final String SDTW = "sdtw";
    public static final String ATE = "ate";
    public static final String ATE_RIGID = "ate_rigid";
    public static final String RPE = "rpe";
    public static final String RPE_ROTATION = "rpe_rotation_deg";
    public static final String PATH_LENGTH_PRED = "path_length_pred";
    public static final String PATH_LENGTH_GT = "path_length_gt";
    public static final String NAV_ERROR = "nav_error";
    public static final String DIR_ERROR = "dir_error_deg";

    public static final List<String> HIGHER_IS_BETTER = List.of(SR, SPL, NDTW, SDTW);
    public static final List<String> LOWER_IS_BETTER = List.of(ATE, ATE_RIGID, RPE, RPE_ROTATION, NAV_ERROR, DIR_ERROR);

    private GeoAlign() {
    }

    /**
     * Success: the agent ends strictly closer than d_th to the goal. The seed names SR without the
     * comparison; the public references all use a strict {@code <}: habitat-lab's {@code Success}
     * measure ({@code habitat-lab/habitat/tasks/nav/nav.py}: {@code distance_to_target < success_distance}),
     * R2R's evaluation (peteanderson80/Matterport3DSimulator {@code tasks/R2R/eval.py}:
     * {@code nav_error < error_margin}) and VLN-CE's {@code SDTW} and {@code OracleSuccess} measures
     * (jacobkrantz/VLN-CE {@code habitat_extensions/measures.py}: {@code distance_to_target < SUCCESS_DISTANCE}).
     */
    public static boolean succeeded(double distanceToGoal, double successDistance) {
        return distanceToGoal < successDistance;
    }

    /**
     * SPL's l when the item gives no shortest-path length: the distance from the episode's start (the
     * ground truth's first position) to the goal. habitat-lab's {@code SPL} measure takes l as the
     * {@code DistanceToGoal} measure at reset, i.e. the geodesic start-to-goal distance
     * ({@code habitat-lab/habitat/tasks/nav/nav.py}, {@code SPL.reset_metric}); VLN-CE stores the same
     * value per episode as {@code info["geodesic_distance"]} ({@code habitat_extensions/measures.py},
     * {@code OracleSPL}). Without the scene's navigation mesh the geodesic is not known here, so the
     * straight line, its lower bound and equal to it in open space, stands in; an item that knows the
     * geodesic gives it as {@code shortestPathLength}.
     */
    public static double startToGoal(Track truth, Vec goal) {
        return truth.points().get(0).distanceTo(goal);
    }

    /**
     * @param goal            the goal position (the item's goal3d, or the ground truth's last position)
     * @param successDistance d_th, also nDTW's threshold
     * @param shortestPath    the shortest-path length start to goal, or null for {@link #startToGoal}
     */
    public static Map<String, Double> compute(Track predicted, Track truth, Vec goal, double successDistance,
                                              Double shortestPath) {
        Map<String, Double> m = new LinkedHashMap<>();
        double navError = predicted.last().distanceTo(goal);
        boolean success = succeeded(navError, successDistance);
        double gtLength = truth.length();
        double predLength = predicted.length();
        double dtw = Dtw.dtw(predicted.points(), truth.points());
        double ndtw = Dtw.ndtw(dtw, truth.points().size(), successDistance);
        m.put(SR, success ? 1.0 : 0.0);
        m.put(SPL, Spl.of(success, shortestPath == null ? startToGoal(truth, goal) : shortestPath, predLength));
        m.put(NDTW, ndtw);
        m.put(SDTW, Dtw.sdtw(success, ndtw));

        List<Vec> p = new ArrayList<>();
        List<Vec> g = new ArrayList<>();
        boolean sameFrames = predicted.frames().equals(truth.frames());
        for (int i = 0; i < truth.points().size(); i++) {
            p.add(sameFrames ? predicted.points().get(i) : predicted.at(truth.normalizedTime(i)));
            g.add(truth.points().get(i));
        }
        if (p.size() >= 2) {
            Similarity sim = Similarity.fit(p, g, 3, true, false);
            Similarity rigid = Similarity.fit(p, g, 3, false, false);
            m.put(ATE, rmse(p, g, sim));
            m.put(ATE_RIGID, rmse(p, g, rigid));
            double sum = 0;
            for (int i = 1; i < p.size(); i++) {
                Vec step = sim.applyToVector(p.get(i).minus(p.get(i - 1)));
                Vec truthStep = g.get(i).minus(g.get(i - 1));
                sum += Math.pow(step.minus(truthStep).norm(), 2);
            }
            m.put(RPE, Math.sqrt(sum / (p.size() - 1)));
        } else {
            m.put(ATE, null);
            m.put(ATE_RIGID, null);
            m.put(RPE, null);
        }
        m.put(RPE_ROTATION, sameFrames && predicted.hasHeadings() && truth.hasHeadings() && truth.points().size() >= 2
                ? rotationRpe(predicted.headings(), truth.headings()) : null);
        m.put(PATH_LENGTH_PRED, predLength);
        m.put(PATH_LENGTH_GT, gtLength);
        m.put(NAV_ERROR, navError);
        m.put(DIR_ERROR, predicted.lastHeading() != null && truth.lastHeading() != null
                ? Math.abs(wrap(predicted.lastHeading() - truth.lastHeading())) : null);
        return m;
    }

    private static double rmse(List<Vec> p, List<Vec> g, Similarity s) {
        double sum = 0;
        for (int i = 0; i < p.size(); i++) {
            sum += Math.pow(s.apply(p.get(i)).distanceTo(g.get(i)), 2);
        }
        return Math.sqrt(sum / p.size());
    }

    private static double rotationRpe(List<Double> pred, List<Double> truth) {
        double sum = 0;
        for (int i = 1; i < truth.size(); i++) {
            double e = wrap(wrap(pred.get(i) - pred.get(i - 1)) - wrap(truth.get(i) - truth.get(i - 1)));
            sum += e * e;
        }
        return Math.sqrt(sum / (truth.size() - 1));
    }

    /** An angle in degrees wrapped to (-180, 180]. */
    static double wrap(double deg) {
        double a = deg % 360;
        if (a > 180) {
            a -= 360;
        } else if (a <= -180) {
            a += 360;
        }
        return a;
    }
}
