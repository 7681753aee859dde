package io.mmgr.stream.tasks.nav;

import java.util.Locale;

/**
 * Which coordinate of a 3D pose is vertical. The schema's poses carry x, y on the map and z as
 * elevation (the default); Habitat-style y-up data says so with {@code groundTruth.extra.upAxis = "y"}.
 */
public enum UpAxis {
    Y, Z;

    public static UpAxis parse(String s) {
        if (s == null || s.isBlank()) {
            return Z;
        }
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "z" -> Z;
            case "y" -> Y;
            default -> throw new IllegalArgumentException("upAxis must be 'y' or 'z', got '" + s + "'");
        };
    }

    /** The point on the ground plane, as a 2D vector. */
    public Vec ground(Vec p) {
        return this == Z ? Vec.of(p.x(), p.y()) : Vec.of(p.x(), p.z());
    }
}
