package io.mmgr.stream.tasks.nav;

import java.util.ArrayList;
import java.util.List;

/**
 * A simple polygon on the 2D overhead map (the goal footprint). Closed: points on the boundary are
 * inside. Coordinates are x, y; z is ignored.
 */
public final class Polygon2d {

    private final List<Vec> vertices;

    private Polygon2d(List<Vec> vertices) {
        this.vertices = vertices;
    }

    /** From {@code [[x, y], ...]} (the schema's goalPolygon2d); at least three vertices. */
    public static Polygon2d of(List<? extends List<Double>> points) {
        if (points == null || points.size() < 3) {
            throw new IllegalArgumentException("a goal polygon needs at least three [x, y] vertices");
        }
        List<Vec> v = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            List<Double> p = points.get(i);
            if (p == null || p.size() != 2 || p.get(0) == null || p.get(1) == null) {
                throw new IllegalArgumentException("goal polygon vertex " + i + " must be [x, y]");
            }
            v.add(Vec.of(p.get(0), p.get(1)));
        }
        Polygon2d poly = new Polygon2d(List.copyOf(v));
        if (Math.abs(poly.signedArea()) == 0) {
            throw new IllegalArgumentException("goal polygon has no area");
        }
        return poly;
    }

    public static Polygon2d of(Vec... vertices) {
        List<List<Double>> pts = new ArrayList<>();
        for (Vec v : vertices) {
            pts.add(List.of(v.x(), v.y()));
        }
        return of(pts);
    }

    public List<Vec> vertices() {
        return vertices;
    }

    double signedArea() {
        double a = 0;
        for (int i = 0; i < vertices.size(); i++) {
            Vec p = vertices.get(i);
            Vec q = vertices.get((i + 1) % vertices.size());
            a += p.x() * q.y() - q.x() * p.y();
        }
        return a / 2;
    }

    /** Inside or on the boundary (even-odd rule, boundary checked explicitly). */
    public boolean contains(Vec p) {
        if (boundaryDistance(p) <= 1e-9) {
            return true;
        }
        boolean inside = false;
        int n = vertices.size();
        for (int i = 0, j = n - 1; i < n; j = i++) {
            Vec a = vertices.get(i);
            Vec b = vertices.get(j);
            if ((a.y() > p.y()) != (b.y() > p.y())
                    && p.x() < (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x()) {
                inside = !inside;
            }
        }
        return inside;
    }

    /** Distance from a point to the polygon's boundary. */
    public double boundaryDistance(Vec p) {
        Vec q = Vec.of(p.x(), p.y());
        double d = Double.MAX_VALUE;
        for (int i = 0; i < vertices.size(); i++) {
            d = Math.min(d, q.distanceToSegment(vertices.get(i), vertices.get((i + 1) % vertices.size())));
        }
        return d;
    }

    /** Distance from a point to the closed polygon (0 inside). */
    public double distance(Vec p) {
        return contains(p) ? 0 : boundaryDistance(p);
    }

    /** Distance from the segment [a, b] to the closed polygon (0 when it enters or touches it). */
    public double distance(Vec a, Vec b) {
        Vec a2 = Vec.of(a.x(), a.y());
        Vec b2 = Vec.of(b.x(), b.y());
        if (contains(a2) || contains(b2)) {
            return 0;
        }
        double d = Double.MAX_VALUE;
        for (int i = 0; i < vertices.size(); i++) {
            Vec p = vertices.get(i);
            Vec q = vertices.get((i + 1) % vertices.size());
            if (segmentsIntersect(a2, b2, p, q)) {
                return 0;
            }
            d = Math.min(d, Math.min(p.distanceToSegment(a2, b2), q.distanceToSegment(a2, b2)));
            d = Math.min(d, Math.min(a2.distanceToSegment(p, q), b2.distanceToSegment(p, q)));
        }
        return d;
    }

    private static boolean segmentsIntersect(Vec p1, Vec p2, Vec q1, Vec q2) {
        double d1 = cross(q1, q2, p1);
        double d2 = cross(q1, q2, p2);
        double d3 = cross(p1, p2, q1);
        double d4 = cross(p1, p2, q2);
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
    }

    private static double cross(Vec a, Vec b, Vec c) {
        return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
    }
}
