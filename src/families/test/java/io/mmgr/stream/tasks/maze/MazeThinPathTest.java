package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.GateResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Tag;

/**
 * Issue 13's thin path: a legible 13x13 maze drawn at 256 px with a 1-2 px blue solution path. The
 * item carries only its problem and solution images, so the evaluator has to read the lattice and the
 * solution from them: it must never fail the sample (it used to: "the solution image's blue path does
 * not join start and target"), it must read exactly the maze and route that were drawn, and the gate
 * must pass a right answer drawn the same way and fail wrong ones. Block lattices and maze-dataset's
 * thin wall lines, anti-aliased and not.
 */
@Tag("unit")
class MazeThinPathTest {

    @TempDir
    static Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (double px : new double[] {1, 1.5, 2}) {
            for (boolean thinWalls : new boolean[] {false, true}) {
                for (boolean antialias : new boolean[] {true, false}) {
                    OutputStyle s = OutputStyle.blocks("256-" + px + "px" + (thinWalls ? "-thin-walls" : "-blocks")
                            + (antialias ? "" : "-aliased"), 256, 256, 0.02, 0, 0.7).stroke(0, px);
                    if (thinWalls) {
                        s = s.thinWalls(1 / 14.0, true);
                    }
                    if (!antialias) {
                        s = s.aliased();
                    }
                    for (int seed = 1; seed <= 3; seed++) {
                        out.add(Arguments.of(s, seed));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} maze {1}")
    @MethodSource("cases")
    void aThirteenByThirteenMazeAt256PxWithAThinPathReads(OutputStyle style, int seed) throws Exception {
        Random random = new Random(seed);
        MazeProblem p = MazeProblem.generate(13, 13, MazeAlgorithm.values()[seed % 2], Placement.values()[seed % Placement.values().length], random);
        String id = style.name() + "-" + seed;
        BenchmarkItem item = MazeEvaluatorItems.imagesOnly(dir, id, p, style);
        MazePixelEvaluator evaluator = new MazePixelEvaluator();
        // the fixture is what it claims: the solution image's blue line is 1-2 px wide
        double pitch = OutputRenderer.geometry(style, 13, 13).pitch();
        double routePx = (p.solution().size() - 1) * pitch;
        assertThat(bluish(OutputRenderer.solution(p, style))).isBetween((long) (0.5 * style.strokePx() * routePx),
                (long) ((style.strokePx() + 1.5) * routePx));

        // the reference reads back exactly as drawn: never a hard failure
        MazeReference ref = evaluator.reference(item, MazeEvaluatorItems.resolver(dir));
        assertThat(ref.lattice()).isEqualTo(p.lattice());
        assertThat(ref.solution()).isEqualTo(p.solution());

        for (Fault fault : new Fault[] {Fault.CORRECT, Fault.DEAD_END, Fault.TARGET_MOVED, Fault.WALL_CROSSING}) {
            var sc = Scenario.of(fault, p, new Random(seed * 7L + fault.ordinal()));
            if (sc.isEmpty()) {
                assertThat(fault).isNotEqualTo(Fault.CORRECT);
                continue;
            }
            Path output = Files.write(dir.resolve(id + "-" + fault + ".png"),
                    OutputRenderer.encode(OutputRenderer.image(sc.get(), style), style));
            EvaluationOutcome outcome = MazeEvaluatorItems.evaluate(evaluator, item, output, "nano-banana");
            GateResult gate = MazeEvaluatorItems.gate("image", outcome);
            assertThat(gate.primary()).as("%s %s, failing %s", id, fault, gate.failedChecks())
                    .isEqualTo(fault == Fault.CORRECT ? 1.0 : 0.0);
            if (fault == Fault.CORRECT) {
                assertThat(outcome.metrics()).containsEntry("target_achievement", 1.0).containsEntry("cross_wall", 0.0);
            }
        }
    }

    /** Pixels where blue clearly dominates (the path and its anti-aliased fringe). */
    private static long bluish(io.mmgr.stream.vision.RgbImage img) {
        long n = 0;
        for (int rgb : img.pixels()) {
            int r = rgb >> 16 & 0xFF;
            int g = rgb >> 8 & 0xFF;
            int b = rgb & 0xFF;
            if (b - Math.max(r, g) > 60) {
                n++;
            }
        }
        return n;
    }
}
