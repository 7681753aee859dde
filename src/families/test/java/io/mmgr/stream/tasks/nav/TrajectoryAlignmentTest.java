package io.mmgr.stream.tasks.nav;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** SLAG: the generated 2D map route against the 3D path (x, y on the floor, z up by default). */
@Tag("unit")
class TrajectoryAlignmentTest {

    /** A U-shaped walk with a flight of stairs on its second leg: forward, left, left. */
    private static List<Vec> path3d() {
        List<Vec> p = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            p.add(new Vec(i * 0.5, 0, 0));
        }
        for (int i = 1; i <= 8; i++) {
            p.add(new Vec(5, i * 0.5, i * 0.3)); // stairs: 2.4 m up
        }
        for (int i = 1; i <= 10; i++) {
            p.add(new Vec(5 - i * 0.5, 4, 2.4));
        }
        return p;
    }

    /** The same walk drawn on a map in pixels: 40 px per metre, origin at (100, 300), y pointing down. */
    private static List<Vec> mapRoute(List<Vec> path, double noise) {
        List<Vec> out = new ArrayList<>();
        java.util.Random r = new java.util.Random(7);
        for (Vec p : path) {
            out.add(Vec.of(100 + 40 * p.x() + noise * r.nextGaussian(), 300 - 40 * p.y() + noise * r.nextGaussian()));
        }
        return out;
    }

    @Test
    void aRouteDrawnToAnotherScaleAndMirroredCorresponds() {
        TrajectoryAlignment.Result r = TrajectoryAlignment.compare(mapRoute(path3d(), 2), path3d(), UpAxis.Z);
        assertThat(r.aligned()).isTrue();
        assertThat(r.pathTurns()).isEqualTo("LL");
        assertThat(r.routeTurns()).isEqualTo("LL");
        assertThat(r.frechetFraction()).isLessThan(0.05);
    }

    @Test
    void yUpDataIsProjectedOnTheXzFloor() {
        List<Vec> yUp = path3d().stream().map(p -> new Vec(p.x(), p.z(), p.y())).toList();
        assertThat(TrajectoryAlignment.compare(mapRoute(path3d(), 0), yUp, UpAxis.Y).aligned()).isTrue();
    }

    @Test
    void aRouteThatTurnsTheOtherWayAtTheSecondCornerDoesNot() {
        // forward, left, then right instead of left: a zigzag
        List<Vec> zigzag = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            zigzag.add(Vec.of(i * 0.5, 0));
        }
        for (int i = 1; i <= 8; i++) {
            zigzag.add(Vec.of(5, i * 0.5));
        }
        for (int i = 1; i <= 10; i++) {
            zigzag.add(Vec.of(5 + i * 0.5, 4));
        }
        TrajectoryAlignment.Result r = TrajectoryAlignment.compare(mapRoute(zigzag.stream().map(v -> new Vec(v.x(), v.y(), 0)).toList(), 0),
                path3d(), UpAxis.Z);
        assertThat(r.aligned()).isFalse();
        assertThat(r.routeTurns()).isNotEqualTo(r.pathTurns());
    }

    @Test
    void aStraightRouteForAWindingPathDoesNot() {
        List<Vec> straight = List.of(Vec.of(0, 0), Vec.of(100, 0));
        TrajectoryAlignment.Result r = TrajectoryAlignment.compare(straight, path3d(), UpAxis.Z);
        assertThat(r.aligned()).isFalse();
        assertThat(r.frechetFraction()).isGreaterThan(NavThresholds.ALIGNMENT_MAX_FRECHET);
    }

    @Test
    void standingStillMatchesOnlyStandingStill() {
        List<Vec> still3d = List.of(new Vec(1, 1, 0), new Vec(1, 1, 0));
        assertThat(TrajectoryAlignment.compare(List.of(Vec.of(5, 5), Vec.of(5, 5)), still3d, UpAxis.Z).aligned()).isTrue();
        assertThat(TrajectoryAlignment.compare(List.of(Vec.of(5, 5), Vec.of(50, 5)), still3d, UpAxis.Z).aligned()).isFalse();
    }
}
