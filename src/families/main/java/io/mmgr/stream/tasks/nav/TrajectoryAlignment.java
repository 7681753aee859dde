package io.mmgr.stream.tasks.nav;

import java.util.ArrayList;
import java.util.List;

/**
 * Trajectory Alignment Score (SLAG, seed G.3): "1 if the 2D projected route strongly corresponds to the
 * 3D motion path (major turns, spatial transitions)". The seed gives no threshold; ours:
 *
 * <ol>
 *   <li>the 3D path is projected onto the ground plane; both curves are resampled to
 *       {@value NavThresholds#ALIGNMENT_SAMPLES} points evenly spaced by arc length;</li>
 *   <li>the 2D route (in map coordinates: any scale, rotation, offset, possibly mirrored, as a generated
 *       map is drawn) is fitted onto the projected path by a least-squares similarity;</li>
 *   <li>shape: the discrete Fréchet distance between the fitted route and the projected path is at most
 *       {@value NavThresholds#ALIGNMENT_MAX_FRECHET} of the projected path's length;</li>
 *   <li>major turns: both curves, simplified (Ramer-Douglas-Peucker, tolerance
 *       {@value NavThresholds#ALIGNMENT_SIMPLIFY} of the path length), turn the same way at the same
 *       sequence of corners sharper than {@value NavThresholds#ALIGNMENT_TURN_DEGREES} degrees.</li>
 * </ol>
 * Both must hold. A path that does not move (shorter than
 * {@value NavThresholds#ALIGNMENT_MIN_LENGTH_FRACTION} of the other) is aligned only with a route that
 * does not move either. The cuts are in {@link NavThresholds}.
 */
public final class TrajectoryAlignment {

    /** The verdict with its evidence (Fréchet distance as a fraction of the path length, turn sequences). */
    public record Result(boolean aligned, double frechetFraction, String routeTurns, String pathTurns) {
    }

    private TrajectoryAlignment() {
    }

    public static Result compare(List<Vec> route2d, List<Vec> path3d, UpAxis up) {
        List<Vec> ground = new ArrayList<>();
        for (Vec p : path3d) {
            ground.add(up.ground(p));
        }
        List<Vec> route = new ArrayList<>();
        for (Vec p : route2d) {
            route.add(Vec.of(p.x(), p.y()));
        }
        double pathLen = Vec.pathLength(ground);
        double routeLen = Vec.pathLength(route);
        double scale = Math.max(pathLen, routeLen);
        double still = NavThresholds.ALIGNMENT_MIN_LENGTH_FRACTION;
        if (scale == 0 || pathLen < still * scale || routeLen < still * scale) {
            boolean both = pathLen < still * Math.max(scale, 1) && routeLen < still * Math.max(scale, 1);
            return new Result(both, both ? 0 : 1, "", "");
        }
        List<Vec> a = resample(route, NavThresholds.ALIGNMENT_SAMPLES);
        List<Vec> b = resample(ground, NavThresholds.ALIGNMENT_SAMPLES);
        Similarity fit = Similarity.fit(a, b, 2, true, true);
        List<Vec> fitted = new ArrayList<>();
        for (Vec p : a) {
            fitted.add(fit.apply(p));
        }
        double frechet = discreteFrechet(fitted, b) / pathLen;
        String routeTurns = turns(fitted, pathLen);
        String pathTurns = turns(b, pathLen);
        boolean aligned = frechet <= NavThresholds.ALIGNMENT_MAX_FRECHET && routeTurns.equals(pathTurns);
        return new Result(aligned, frechet, routeTurns, pathTurns);
    }

    /** Points evenly spaced by arc length, first and last included. */
    static List<Vec> resample(List<Vec> path, int n) {
        double total = Vec.pathLength(path);
        List<Vec> out = new ArrayList<>(n);
        int seg = 1;
        double done = 0;
        for (int k = 0; k < n; k++) {
            double target = total * k / (n - 1);
            while (seg < path.size() - 1 && done + path.get(seg).distanceTo(path.get(seg - 1)) < target) {
                done += path.get(seg).distanceTo(path.get(seg - 1));
                seg++;
            }
            Vec a = path.get(Math.min(seg - 1, path.size() - 1));
            Vec b = path.get(Math.min(seg, path.size() - 1));
            double len = b.distanceTo(a);
            double t = len == 0 ? 0 : Math.max(0, Math.min(1, (target - done) / len));
            out.add(a.plus(b.minus(a).times(t)));
        }
        return out;
    }

    /** Eiter and Mannila's discrete Fréchet distance. */
    static double discreteFrechet(List<Vec> p, List<Vec> q) {
        double[][] ca = new double[p.size()][q.size()];
        for (int i = 0; i < p.size(); i++) {
            for (int j = 0; j < q.size(); j++) {
                double d = p.get(i).distanceTo(q.get(j));
                if (i == 0 && j == 0) {
                    ca[i][j] = d;
                } else if (i == 0) {
                    ca[i][j] = Math.max(ca[i][j - 1], d);
                } else if (j == 0) {
                    ca[i][j] = Math.max(ca[i - 1][j], d);
                } else {
                    ca[i][j] = Math.max(Math.min(ca[i - 1][j], Math.min(ca[i - 1][j - 1], ca[i][j - 1])), d);
                }
            }
        }
        return ca[p.size() - 1][q.size() - 1];
    }

    /** 'L' / 'R' for each corner sharper than ALIGNMENT_TURN_DEGREES of the simplified curve. */
    static String turns(List<Vec> path, double length) {
        List<Vec> s = simplify(path, NavThresholds.ALIGNMENT_SIMPLIFY * length);
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < s.size() - 1; i++) {
            Vec in = s.get(i).minus(s.get(i - 1));
            Vec out = s.get(i + 1).minus(s.get(i));
            double angle = Math.toDegrees(Math.atan2(in.x() * out.y() - in.y() * out.x(), in.x() * out.x() + in.y() * out.y()));
            if (Math.abs(angle) >= NavThresholds.ALIGNMENT_TURN_DEGREES) {
                sb.append(angle > 0 ? 'L' : 'R');
            }
        }
        return sb.toString();
    }

    /** Ramer-Douglas-Peucker simplification. */
    static List<Vec> simplify(List<Vec> path, double epsilon) {
        if (path.size() < 3) {
            return path;
        }
        double max = -1;
        int index = 0;
        Vec a = path.get(0);
        Vec b = path.get(path.size() - 1);
        for (int i = 1; i < path.size() - 1; i++) {
            double d = path.get(i).distanceToSegment(a, b);
            if (d > max) {
                max = d;
                index = i;
            }
        }
        if (max <= epsilon) {
            return List.of(a, b);
        }
        List<Vec> left = simplify(path.subList(0, index + 1), epsilon);
        List<Vec> right = simplify(path.subList(index, path.size()), epsilon);
        List<Vec> out = new ArrayList<>(left.subList(0, left.size() - 1));
        out.addAll(right);
        return out;
    }
}
