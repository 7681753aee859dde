package io.mmgr.stream.tasks.nav;

import io.mmgr.stream.avro.Pose;
import java.util.ArrayList;
import java.util.List;

/**
 * A trajectory: positions in frame order, with each pose's frame number and optional heading
 * (degrees, yaw about the up axis). 2D tracks have z = 0.
 */
public record Track(List<Vec> points, List<Integer> frames, List<Double> headings) {

    public Track {
        points = List.copyOf(points);
        frames = List.copyOf(frames);
        headings = java.util.Collections.unmodifiableList(new ArrayList<>(headings));
        if (points.isEmpty()) {
            throw new IllegalArgumentException("a trajectory needs at least one pose");
        }
        if (frames.size() != points.size() || headings.size() != points.size()) {
            throw new IllegalArgumentException("frames and headings must match the positions");
        }
    }

    public static Track of(List<Vec> points) {
        List<Integer> frames = new ArrayList<>();
        List<Double> headings = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            frames.add(i);
            headings.add(null);
        }
        return new Track(points, frames, headings);
    }

    /**
     * From schema poses, sorted by frame. {@code threeD} requires z on every pose; 2D ignores z.
     *
     * @param what names the trajectory in error messages, e.g. "trajectory3d"
     */
    public static Track fromPoses(List<Pose> poses, boolean threeD, String what) {
        if (poses == null || poses.isEmpty()) {
            throw new IllegalArgumentException(what + " has no poses");
        }
        List<Pose> sorted = new ArrayList<>(poses);
        sorted.sort(java.util.Comparator.comparingInt(Pose::getFrame));
        List<Vec> pts = new ArrayList<>();
        List<Integer> frames = new ArrayList<>();
        List<Double> headings = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            Pose p = sorted.get(i);
            if (i > 0 && p.getFrame() == sorted.get(i - 1).getFrame()) {
                throw new IllegalArgumentException(what + " has two poses for frame " + p.getFrame());
            }
            if (threeD && p.getZ() == null) {
                throw new IllegalArgumentException(what + " pose at frame " + p.getFrame() + " has no z");
            }
            try {
                pts.add(new Vec(p.getX(), p.getY(), threeD ? p.getZ() : 0));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + " pose at frame " + p.getFrame() + ": " + e.getMessage());
            }
            if (p.getHeadingDeg() != null && !Double.isFinite(p.getHeadingDeg())) {
                throw new IllegalArgumentException(what + " pose at frame " + p.getFrame() + " has a non-finite heading");
            }
            frames.add(p.getFrame());
            headings.add(p.getHeadingDeg());
        }
        return new Track(pts, frames, headings);
    }

    public Vec last() {
        return points.get(points.size() - 1);
    }

    public Double lastHeading() {
        return headings.get(headings.size() - 1);
    }

    public boolean hasHeadings() {
        return headings.stream().allMatch(h -> h != null);
    }

    public double length() {
        return Vec.pathLength(points);
    }

    /** Position (and heading) at normalized time u in [0, 1] of the frame range, linearly interpolated. */
    Vec at(double u) {
        if (points.size() == 1) {
            return points.get(0);
        }
        double f0 = frames.get(0);
        double f = f0 + u * (frames.get(frames.size() - 1) - f0);
        int i = 1;
        while (i < frames.size() - 1 && frames.get(i) < f) {
            i++;
        }
        double a = frames.get(i - 1);
        double b = frames.get(i);
        double t = b == a ? 0 : Math.max(0, Math.min(1, (f - a) / (b - a)));
        return points.get(i - 1).plus(points.get(i).minus(points.get(i - 1)).times(t));
    }

    double normalizedTime(int i) {
        double f0 = frames.get(0);
        double span = frames.get(frames.size() - 1) - f0;
        return span == 0 ? 0 : (frames.get(i) - f0) / span;
    }
}
