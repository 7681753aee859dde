package io.mmgr.stream.tasks.magma;

import java.util.List;

/** An axis-aligned element box {@code x1, y1, x2, y2} (Mind2Web gold element, ScreenSpot target). */
public record Box(double x1, double y1, double x2, double y2) {

    public Box {
        if (!Double.isFinite(x1) || !Double.isFinite(y1) || !Double.isFinite(x2) || !Double.isFinite(y2)) {
            throw new IllegalArgumentException("bbox coordinates must be finite numbers");
        }
        if (x1 > x2 || y1 > y2) {
            throw new IllegalArgumentException("bbox must be x1, y1, x2, y2 with x1 <= x2 and y1 <= y2, got ["
                    + x1 + ", " + y1 + ", " + x2 + ", " + y2 + "]");
        }
    }

    public static Box of(List<? extends Number> xyxy) {
        if (xyxy == null) {
            throw new IllegalArgumentException("bbox is missing");
        }
        if (xyxy.size() != 4) {
            throw new IllegalArgumentException("bbox must be [x1, y1, x2, y2], got " + xyxy.size() + " numbers");
        }
        for (Number n : xyxy) {
            if (n == null) {
                throw new IllegalArgumentException("bbox must be [x1, y1, x2, y2], got a null coordinate");
            }
        }
        return new Box(xyxy.get(0).doubleValue(), xyxy.get(1).doubleValue(),
                xyxy.get(2).doubleValue(), xyxy.get(3).doubleValue());
    }

    /** Edges count as inside (a click on the border hits the element). */
    public boolean contains(Point p) {
        return p.x() >= x1 && p.x() <= x2 && p.y() >= y1 && p.y() <= y2;
    }
}
