package io.mmgr.stream.tasks.nav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Hand-made paths against a 2 x 2 goal square at x, y in [8, 10] and a target on the upper floor. */
@Tag("unit")
class TaskCompletenessTest {

    private static final Polygon2d GOAL = Polygon2d.of(Vec.of(8, 8), Vec.of(10, 8), Vec.of(10, 10), Vec.of(8, 10));

    private static List<Vec> path(double... xy) {
        java.util.ArrayList<Vec> out = new java.util.ArrayList<>();
        for (int i = 0; i < xy.length; i += 2) {
            out.add(Vec.of(xy[i], xy[i + 1]));
        }
        return out;
    }

    @Test
    void aStraightPathIntoTheGoalSucceeds() {
        List<Vec> p = path(0, 0, 3, 3, 6, 6, 9, 9);
        assertThat(TaskCompleteness.success2d(p, GOAL, 0)).isTrue();
        assertThat(TaskCompleteness.oracleSuccess2d(p, GOAL, 0)).isTrue();
    }

    @Test
    void aDetourThatEndsInTheGoalSucceeds() {
        List<Vec> p = path(0, 0, 0, 12, 12, 12, 12, 9, 9.5, 9.5);
        assertThat(TaskCompleteness.success2d(p, GOAL, 0)).isTrue();
        assertThat(TaskCompleteness.oracleSuccess2d(p, GOAL, 0)).isTrue();
    }

    @Test
    void neverReachingFailsBoth() {
        List<Vec> p = path(0, 0, 5, 5, 7.9, 7.9, 7.5, 12);
        assertThat(TaskCompleteness.success2d(p, GOAL, 0)).isFalse();
        assertThat(TaskCompleteness.oracleSuccess2d(p, GOAL, 0)).isFalse();
    }

    @Test
    void reachingWithoutStoppingIsAnOracleSuccessOnly() {
        // no sampled position lies in the goal: the segment from (7, 9) to (11, 9) crosses it
        List<Vec> p = path(0, 9, 7, 9, 11, 9, 14, 9);
        assertThat(p).noneMatch(GOAL::contains);
        assertThat(TaskCompleteness.success2d(p, GOAL, 0)).isFalse();
        assertThat(TaskCompleteness.oracleSuccess2d(p, GOAL, 0)).isTrue();
    }

    @Test
    void touchingTheFootprintCountsForTheOracle() {
        assertThat(TaskCompleteness.oracleSuccess2d(path(0, 8, 8, 8), GOAL, 0)).isTrue();   // ends on the edge
        assertThat(TaskCompleteness.oracleSuccess2d(path(6, 12, 12, 6), GOAL, 0)).isTrue(); // grazes the corner (10, 10)
        assertThat(TaskCompleteness.oracleSuccess2d(path(6, 14.2, 14.2, 6), GOAL, 0)).isFalse(); // passes 0.14 outside
    }

    @Test
    void anAgentWithABodyMustBeEntirelyInside() {
        List<Vec> nearEdge = path(0, 0, 8.2, 9);
        assertThat(TaskCompleteness.success2d(nearEdge, GOAL, 0)).isTrue();
        assertThat(TaskCompleteness.success2d(nearEdge, GOAL, 0.5)).isFalse(); // 0.2 from the edge
        assertThat(TaskCompleteness.success2d(path(0, 0, 9, 9), GOAL, 0.5)).isTrue();
        // the body reaches the footprint before its centre does
        assertThat(TaskCompleteness.oracleSuccess2d(path(0, 9, 7.6, 9), GOAL, 0.5)).isTrue();
        assertThat(TaskCompleteness.oracleSuccess2d(path(0, 9, 7.4, 9), GOAL, 0.5)).isFalse();
    }

    @Test
    void stairsToTheUpperFloor() {
        // up a staircase of 10 steps (0.3 m each) to a target at (5, 0, 3) with a 0.5 m target volume
        java.util.ArrayList<Vec> climb = new java.util.ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            climb.add(new Vec(i * 0.5, 0, i * 0.3));
        }
        Vec target = new Vec(5, 0, 3);
        assertThat(TaskCompleteness.success3d(climb, target, 0.5)).isTrue();
        assertThat(TaskCompleteness.oracleSuccess3d(climb, target, 1.0)).isTrue();

        // stays downstairs right under the target: 3 m away in height, never within 1 m
        List<Vec> below = List.of(new Vec(0, 0, 0), new Vec(5, 0, 0));
        assertThat(TaskCompleteness.success3d(below, target, 0.5)).isFalse();
        assertThat(TaskCompleteness.closestApproach(below, target)).isEqualTo(3.0);
        assertThat(TaskCompleteness.oracleSuccess3d(below, target, 1.0)).isFalse();

        // climbs past the target and comes back down: touched the volume, did not stop there
        java.util.ArrayList<Vec> past = new java.util.ArrayList<>(climb);
        past.add(new Vec(7, 0, 3));
        past.add(new Vec(7, 0, 0));
        assertThat(TaskCompleteness.success3d(past, target, 0.5)).isFalse();
        assertThat(TaskCompleteness.oracleSuccess3d(past, target, 1.0)).isTrue();
        // between samples: a jump from (4, 0, 3) to (6, 0, 3) passes through the target
        assertThat(TaskCompleteness.oracleSuccess3d(List.of(new Vec(4, 0, 3), new Vec(6, 0, 3), new Vec(6, 5, 3)), target, 0.1))
                .isTrue();
    }

    @Test
    void polygonsAreValidated() {
        assertThatThrownBy(() -> Polygon2d.of(List.of(List.of(0.0, 0.0), List.of(1.0, 1.0))))
                .hasMessageContaining("three");
        assertThatThrownBy(() -> Polygon2d.of(Vec.of(0, 0), Vec.of(1, 1), Vec.of(2, 2))).hasMessageContaining("area");
    }
}
