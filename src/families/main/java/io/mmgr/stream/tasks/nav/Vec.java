package io.mmgr.stream.tasks.nav;

import java.util.List;

/** A point in 2D (z = 0) or 3D, with the few vector operations the navigation metrics need. */
public record Vec(double x, double y, double z) {

    public Vec {
        if (!Double.isFinite(x) || !Double.isFinite(y) || !Double.isFinite(z)) {
            throw new IllegalArgumentException("coordinates must be finite numbers, got (" + x + ", " + y + ", " + z + ")");
        }
    }

    public static Vec of(double x, double y) {
        return new Vec(x, y, 0);
    }

    public Vec minus(Vec o) {
        return new Vec(x - o.x, y - o.y, z - o.z);
    }

    public Vec plus(Vec o) {
        return new Vec(x + o.x, y + o.y, z + o.z);
    }

    public Vec times(double s) {
        return new Vec(x * s, y * s, z * s);
    }

    public double dot(Vec o) {
        return x * o.x + y * o.y + z * o.z;
    }

    public double norm() {
        return Math.sqrt(dot(this));
    }

    public double distanceTo(Vec o) {
        return minus(o).norm();
    }

    /** Distance from this point to the segment [a, b]. */
    public double distanceToSegment(Vec a, Vec b) {
        Vec ab = b.minus(a);
        double len2 = ab.dot(ab);
        if (len2 == 0) {
            return distanceTo(a);
        }
        double t = Math.max(0, Math.min(1, minus(a).dot(ab) / len2));
        return distanceTo(a.plus(ab.times(t)));
    }

    /** Sum of segment lengths. */
    public static double pathLength(List<Vec> path) {
        double len = 0;
        for (int i = 1; i < path.size(); i++) {
            len += path.get(i).distanceTo(path.get(i - 1));
        }
        return len;
    }
}
