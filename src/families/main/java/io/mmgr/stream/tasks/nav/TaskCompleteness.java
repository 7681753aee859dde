package io.mmgr.stream.tasks.nav;

import java.util.List;

/**
 * The seed's Task Completeness metrics (G.3), rule-based on the agent's trace.
 *
 * <ul>
 *   <li>Success Score 2D: "final coordinates fall entirely inside the goal footprint in the 2D overhead
 *       map" - the agent (a disc of {@code agentRadius}, 0 for a point) at the last pose lies inside
 *       the closed polygon.</li>
 *   <li>Oracle Success Score 2D: "the path ever intersects/touches the 2D goal region (even without
 *       stopping)" - any segment of the polyline, widened by the agent radius, meets the polygon. Segments
 *       count, not only samples: a path that crosses a corner between two frames touched it.</li>
 *   <li>Success Score 3D: "the final 3D position is within the target volume" - within
 *       {@code goalRadius} of the target (a ball).</li>
 *   <li>Oracle Success Score 3D: "the trajectory ever crosses the predefined proximity threshold around
 *       the target" - some segment comes within {@code oracleRadius} of the target.</li>
 * </ul>
 */
public final class TaskCompleteness {

    private TaskCompleteness() {
    }

    public static boolean success2d(List<Vec> path, Polygon2d goal, double agentRadius) {
        Vec last = path.get(path.size() - 1);
        return goal.contains(last) && (agentRadius <= 0 || goal.boundaryDistance(last) >= agentRadius);
    }

    public static boolean oracleSuccess2d(List<Vec> path, Polygon2d goal, double agentRadius) {
        if (path.size() == 1) {
            return goal.distance(path.get(0)) <= agentRadius;
        }
        for (int i = 1; i < path.size(); i++) {
            if (goal.distance(path.get(i - 1), path.get(i)) <= agentRadius) {
                return true;
            }
        }
        return false;
    }

    public static boolean success3d(List<Vec> path, Vec goal, double goalRadius) {
        return path.get(path.size() - 1).distanceTo(goal) <= goalRadius;
    }

    public static boolean oracleSuccess3d(List<Vec> path, Vec goal, double oracleRadius) {
        return closestApproach(path, goal) <= oracleRadius;
    }

    /** The smallest distance between the polyline and a point. */
    public static double closestApproach(List<Vec> path, Vec goal) {
        if (path.size() == 1) {
            return path.get(0).distanceTo(goal);
        }
        double d = Double.MAX_VALUE;
        for (int i = 1; i < path.size(); i++) {
            d = Math.min(d, goal.distanceToSegment(path.get(i - 1), path.get(i)));
        }
        return d;
    }
}
