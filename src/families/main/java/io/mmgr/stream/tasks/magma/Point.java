package io.mmgr.stream.tasks.magma;

import java.util.List;

/** A screen point {@code [x, y]}: a click, or an AITW touch / lift (normalized to [0, 1] there). */
public record Point(double x, double y) {

    public Point {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            throw new IllegalArgumentException("point coordinates must be finite numbers, got [" + x + ", " + y + "]");
        }
    }

    /** From the {@code [x, y]} array of the schema and the JSONL files. */
    public static Point of(List<? extends Number> xy) {
        if (xy == null) {
            throw new IllegalArgumentException("point is missing");
        }
        if (xy.size() != 2) {
            throw new IllegalArgumentException("point must be [x, y], got " + xy.size() + " numbers");
        }
        if (xy.get(0) == null || xy.get(1) == null) {
            throw new IllegalArgumentException("point must be [x, y], got a null coordinate");
        }
        return new Point(xy.get(0).doubleValue(), xy.get(1).doubleValue());
    }

    public double distanceTo(Point other) {
        return Math.hypot(x - other.x, y - other.y);
    }
}
