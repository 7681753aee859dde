package io.mmgr.stream.tasks.nav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class DtwSplGeoAlignTest {

    private static List<Vec> pts(double... xy) {
        List<Vec> out = new ArrayList<>();
        for (int i = 0; i < xy.length; i += 2) {
            out.add(Vec.of(xy[i], xy[i + 1]));
        }
        return out;
    }

    /**
     * Ilharco et al.'s worked example (the doctest of their reference DTW class, google-research/google-research
     * r4r/dtw.py): on a 3 x 4 grid graph
     * with unit edges (shortest-path distance = Manhattan distance), d_th = 3.
     */
    @Test
    void matchesTheWorkedExampleOfIlharcoEtAl() {
        List<Vec> prediction = pts(0, 0, 1, 0, 2, 0, 3, 0);
        List<Vec> reference = pts(0, 0, 1, 0, 2, 1, 3, 2);
        java.util.function.ToDoubleBiFunction<Vec, Vec> grid = (a, b) -> Math.abs(a.x() - b.x()) + Math.abs(a.y() - b.y());
        double dtw = Dtw.dtw(prediction, reference, grid);
        assertThat(dtw).isEqualTo(3.0);
        double ndtw = Dtw.ndtw(dtw, reference.size(), 3.0);
        assertThat(ndtw).isCloseTo(0.77880078307140488, within(1e-15));
        // success: the prediction ends 2 <= 3 from the reference's end
        assertThat(Dtw.sdtw(grid.applyAsDouble(prediction.get(3), reference.get(3)) <= 3.0, ndtw))
                .isCloseTo(0.77880078307140488, within(1e-15));
        // stopping after two steps ends 4 > 3 away: sDTW 0
        List<Vec> early = prediction.subList(0, 2);
        double earlyNdtw = Dtw.ndtw(Dtw.dtw(early, reference, grid), reference.size(), 3.0);
        assertThat(earlyNdtw).isPositive();
        assertThat(Dtw.sdtw(grid.applyAsDouble(early.get(1), reference.get(3)) <= 3.0, earlyNdtw)).isZero();
    }

    @Test
    void dtwOfEuclideanPaths() {
        List<Vec> ref = pts(0, 0, 1, 0, 2, 0);
        assertThat(Dtw.dtw(ref, ref)).isZero();
        // lingering at the start: each extra sample is matched to the first reference point at cost 0
        assertThat(Dtw.dtw(pts(0, 0, 0, 0, 1, 0, 2, 0), ref)).isZero();
        // a parallel path 1 away: every reference point costs at least 1, and 3 suffice
        assertThat(Dtw.dtw(pts(0, 1, 1, 1, 2, 1), ref)).isEqualTo(3.0);
        assertThat(Dtw.ndtw(3.0, 3, 2.0)).isCloseTo(Math.exp(-0.5), within(1e-15));
    }

    @Test
    void splWeighsSuccessByPathLength() {
        assertThat(Spl.of(true, 10, 10)).isEqualTo(1.0);
        assertThat(Spl.of(true, 10, 20)).isEqualTo(0.5);     // a detour twice as long
        assertThat(Spl.of(false, 10, 10)).isZero();         // never reached
        assertThat(Spl.of(true, 10, 8)).isEqualTo(1.0);      // shorter than the shortest path: max(p, l)
    }

    @Test
    void geoAlignOnAStraightCorridor() {
        // ground truth: 0..4 m along x, heading 0; goal at the end, d_th 1.5 m
        Track gt = track(new double[][] {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}}, 0, 0, 0, 0, 0);
        // the prediction stops 0.6 m short and 0.8 m to the side, facing 30 degrees off
        Track pred = track(new double[][] {{0, 0, 0}, {1, 0.2, 0}, {2, 0.4, 0}, {3, 0.6, 0}, {3.4, 0.8, 0}}, 0, 0, 0, 0, 30);
        Map<String, Double> m = GeoAlign.compute(pred, gt, new Vec(4, 0, 0), 1.5, null);
        assertThat(m.get(GeoAlign.NAV_ERROR)).isCloseTo(1.0, within(1e-12)); // sqrt(0.6^2 + 0.8^2)
        assertThat(m.get(GeoAlign.SR)).isEqualTo(1.0);                         // 1.0 < d_th
        double predLen = 3 * Math.hypot(1, 0.2) + Math.hypot(0.4, 0.2);
        assertThat(m.get(GeoAlign.PATH_LENGTH_PRED)).isCloseTo(predLen, within(1e-12));
        assertThat(m.get(GeoAlign.PATH_LENGTH_GT)).isEqualTo(4.0);
        // it stopped short: the agent's path (3.51 m) is shorter than l = 4 m (start to goal), so SPL = l / max(p, l) = 1
        assertThat(m.get(GeoAlign.SPL)).isEqualTo(1.0);
        // DTW: the diagonal alignment costs 0 + .2 + .4 + .6 + 1.0 = 2.2; nothing cheaper exists
        assertThat(m.get(GeoAlign.NDTW)).isCloseTo(Math.exp(-2.2 / (5 * 1.5)), within(1e-12));
        assertThat(m.get(GeoAlign.SDTW)).isEqualTo(m.get(GeoAlign.NDTW));
        assertThat(m.get(GeoAlign.DIR_ERROR)).isCloseTo(30.0, within(1e-12));

        Map<String, Double> strict = GeoAlign.compute(pred, gt, new Vec(4, 0, 0), 0.9, null);
        assertThat(strict.get(GeoAlign.SR)).isZero();
        assertThat(strict.get(GeoAlign.SPL)).isZero();
        assertThat(strict.get(GeoAlign.SDTW)).isZero();
        assertThat(GeoAlign.compute(pred, gt, new Vec(4, 0, 0), 1.5, 2.0).get(GeoAlign.SPL))
                .isCloseTo(2.0 / predLen, within(1e-12));
    }

    /**
     * The success radius is strict, as habitat-lab's Success measure, R2R's eval and VLN-CE: ending
     * exactly d_th from the goal fails SR, and with it SPL and sDTW; nDTW does not depend on success.
     * The end point lies 1.25 m from the goal exactly (a 0.75-1 right triangle, all binary fractions).
     */
    @Test
    void theSuccessRadiusIsStrict() {
        Track gt = track(new double[][] {{0, 0, 0}, {2, 0, 0}, {4, 0, 0}}, 0, 0, 0);
        Track pred = track(new double[][] {{0, 0, 0}, {1.5, 0.5, 0}, {3.25, 1, 0}}, 0, 0, 0);
        Vec goal = new Vec(4, 0, 0);
        double d = 1.25;
        Map<String, Double> at = GeoAlign.compute(pred, gt, goal, d, null);
        assertThat(at.get(GeoAlign.NAV_ERROR)).isEqualTo(d);
        assertThat(at.get(GeoAlign.SR)).isZero();
        assertThat(at.get(GeoAlign.SPL)).isZero();
        assertThat(at.get(GeoAlign.SDTW)).isZero();
        assertThat(at.get(GeoAlign.NDTW)).isPositive();

        for (double over : new double[] {Math.nextUp(d), d + 1e-9, 1.3}) { // d_th just over the distance: success
            Map<String, Double> in = GeoAlign.compute(pred, gt, goal, over, null);
            assertThat(in.get(GeoAlign.SR)).as("d_th %s", over).isEqualTo(1.0);
            assertThat(in.get(GeoAlign.SPL)).isEqualTo(1.0); // 3.4 m, under l = 4 m
            assertThat(in.get(GeoAlign.SDTW)).isEqualTo(in.get(GeoAlign.NDTW)).isPositive();
        }
        for (double under : new double[] {Math.nextDown(d), d - 1e-9, 1.2}) { // d_th just under: failure
            Map<String, Double> out = GeoAlign.compute(pred, gt, goal, under, null);
            assertThat(out.get(GeoAlign.SR)).as("d_th %s", under).isZero();
            assertThat(out.get(GeoAlign.SPL)).isZero();
            assertThat(out.get(GeoAlign.SDTW)).isZero();
        }
        assertThat(GeoAlign.succeeded(d, d)).isFalse();
        assertThat(GeoAlign.succeeded(Math.nextDown(d), d)).isTrue();
    }

    /**
     * Without the item's shortest-path length SPL's l is the start-to-goal distance, as habitat-lab's SPL
     * (the geodesic distance to the goal at reset), not the length of the ground truth's own route: a
     * ground truth that detours round an obstacle does not make a straight agent's path look long.
     */
    @Test
    void splWithoutAShortestPathUsesTheStartToGoalDistance() {
        // the ground truth goes round: (0,0) -> (0,3) -> (4,3) -> (4,0), 10 m; start to goal is 4 m
        Track gt = track(new double[][] {{0, 0, 0}, {0, 3, 0}, {4, 3, 0}, {4, 0, 0}}, 0, 0, 0, 0);
        // the agent goes 3 m up and 5 m diagonally down to the goal: 8 m
        Track pred = track(new double[][] {{0, 0, 0}, {0, 3, 0}, {4, 0, 0}}, 0, 0, 0);
        Vec goal = new Vec(4, 0, 0);
        assertThat(GeoAlign.startToGoal(gt, goal)).isEqualTo(4.0);
        Map<String, Double> m = GeoAlign.compute(pred, gt, goal, 1.0, null);
        assertThat(m.get(GeoAlign.PATH_LENGTH_GT)).isEqualTo(10.0);
        assertThat(m.get(GeoAlign.PATH_LENGTH_PRED)).isEqualTo(8.0);
        assertThat(m.get(GeoAlign.SPL)).isEqualTo(0.5); // 4 / max(8, 4); the route's 10 m would give 1
        // the item's geodesic, when it has one, is taken as given
        assertThat(GeoAlign.compute(pred, gt, goal, 1.0, 6.0).get(GeoAlign.SPL)).isEqualTo(0.75);
    }

    @Test
    void ateAndRpeAfterAlignment() {
        Track gt = track(new double[][] {{0, 0, 0}, {1, 0, 0}, {2, 1, 0}, {2, 2, 0.5}, {3, 3, 1}}, 0, 0, 0, 0, 0);
        // the same path seen by a monocular reconstruction: twice the scale, turned 30 degrees, moved
        double c = Math.cos(Math.toRadians(30));
        double s = Math.sin(Math.toRadians(30));
        List<Vec> moved = new ArrayList<>();
        for (Vec p : gt.points()) {
            moved.add(new Vec(2 * (c * p.x() - s * p.y()) + 5, 2 * (s * p.x() + c * p.y()) - 1, 2 * p.z() + 0.5));
        }
        Map<String, Double> m = GeoAlign.compute(Track.of(moved), gt, gt.last(), 1.0, null);
        assertThat(m.get(GeoAlign.ATE)).isCloseTo(0, within(1e-9));
        assertThat(m.get(GeoAlign.RPE)).isCloseTo(0, within(1e-9));
        assertThat(m.get(GeoAlign.ATE_RIGID)).isGreaterThan(0.5);

        // a line through the origin seen at twice its size: rigid alignment leaves |x| per point
        Track line = Track.of(List.of(new Vec(-1, 0, 0), new Vec(0, 0, 0), new Vec(1, 0, 0)));
        Track doubled = Track.of(List.of(new Vec(-2, 0, 0), new Vec(0, 0, 0), new Vec(2, 0, 0)));
        Map<String, Double> l = GeoAlign.compute(doubled, line, new Vec(1, 0, 0), 1.0, null);
        assertThat(l.get(GeoAlign.ATE_RIGID)).isCloseTo(Math.sqrt(2.0 / 3), within(1e-9));
        assertThat(l.get(GeoAlign.ATE)).isCloseTo(0, within(1e-9));
    }

    @Test
    void trajectoriesOnDifferentClocksAreAssociatedByNormalizedTime() {
        Track gt = new Track(List.of(new Vec(0, 0, 0), new Vec(2, 0, 0), new Vec(4, 0, 0)), List.of(0, 10, 20),
                Arrays.asList(null, null, null));
        List<Vec> fine = new ArrayList<>();
        for (int i = 0; i <= 8; i++) {
            fine.add(new Vec(i * 0.5, 0, 0));
        }
        Map<String, Double> m = GeoAlign.compute(Track.of(fine), gt, new Vec(4, 0, 0), 1.0, null);
        assertThat(m.get(GeoAlign.ATE_RIGID)).isCloseTo(0, within(1e-9));
        assertThat(m.get(GeoAlign.RPE)).isCloseTo(0, within(1e-9));
    }

    @Test
    void rotationalRpeFromHeadings() {
        double[][] xyz = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        Track gt = track(xyz, 0, 90, 90, 180);
        Track pred = track(xyz, 0, 90, 100, 180);
        // relative turns: (90, 0, 90) against (90, 10, 80): errors 0, 10, 10
        assertThat(GeoAlign.compute(pred, gt, new Vec(0, 1, 0), 1.0, null).get(GeoAlign.RPE_ROTATION))
                .isCloseTo(Math.sqrt(200.0 / 3), within(1e-9));
        assertThat(GeoAlign.wrap(350 - 10)).isEqualTo(-20.0);
        assertThat(GeoAlign.compute(track(xyz, 0, 0, 0, 350), track(xyz, 0, 0, 0, 10), new Vec(0, 1, 0), 1.0, null)
                .get(GeoAlign.DIR_ERROR)).isCloseTo(20.0, within(1e-9));
    }

    private static Track track(double[][] xyz, double... headings) {
        List<Vec> p = new ArrayList<>();
        List<Integer> f = new ArrayList<>();
        List<Double> h = new ArrayList<>();
        for (int i = 0; i < xyz.length; i++) {
            p.add(new Vec(xyz[i][0], xyz[i][1], xyz[i][2]));
            f.add(i);
            h.add(headings[i]);
        }
        return new Track(p, f, h);
    }
}
