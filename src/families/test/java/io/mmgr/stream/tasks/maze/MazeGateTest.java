package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.GateInput;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Tag("unit")
class MazeGateTest {

    static Map<String, Double> passingJudge() {
        Map<String, Double> m = new HashMap<>();
        m.put("judge.maze_changed", 0.0);
        m.put("judge.cross_wall", 0.0);
        m.put("judge.target_achievement", 1.0);
        m.put("judge.action_reflection", 0.0);
        return m;
    }

    static Map<String, Double> passingPixel() {
        Map<String, Double> m = new HashMap<>();
        m.put("maze-pixel.layout_iou", 0.93);
        m.put("maze-pixel.start_moved", 0.0);
        m.put("maze-pixel.target_moved", 0.0);
        m.put("maze-pixel.cross_wall", 0.0);
        m.put("maze-pixel.target_achievement", 1.0);
        m.put("maze-pixel.excessive_reflection", 0.0);
        m.put("maze-pixel.action_reflection", 1.0);
        m.put("maze-pixel.maze_changed", 1.0); // diagnostic only in the pixel variant
        return m;
    }

    @ParameterizedTest(name = "{0}={1} fails vlm")
    @CsvSource({"judge.maze_changed,1", "judge.cross_wall,1", "judge.target_achievement,0"})
    void eachVlmCheckAloneFailsThePrimary(String key, double value) {
        Map<String, Double> m = passingJudge();
        m.put(key, value);
        GateResult r = new MazeGate().evaluate(new GateInput("maze", "video", m, Set.of("judge")));
        assertThat(r.primary()).isEqualTo(0.0);
        assertThat(r.primarySource()).isEqualTo("vlm");
        assertThat(r.failedChecks()).singleElement().asString().startsWith(key);
    }

    @ParameterizedTest(name = "{0}={1} fails pixel")
    @CsvSource({"maze-pixel.layout_iou,0.8", "maze-pixel.start_moved,1", "maze-pixel.target_moved,1",
            "maze-pixel.cross_wall,1", "maze-pixel.target_achievement,0.95", "maze-pixel.excessive_reflection,1"})
    void eachPixelCheckAloneFailsThePrimary(String key, double value) {
        Map<String, Double> m = passingPixel();
        m.put(key, value);
        GateResult r = new MazeGate().evaluate(new GateInput("maze", "image", m, Set.of("maze-pixel")));
        assertThat(r.primary()).isEqualTo(0.0);
        assertThat(r.primarySource()).isEqualTo("pixel");
        assertThat(r.failedChecks()).singleElement().asString().startsWith(key);
    }

    @Test
    void nonGatingMetricsDoNotMatter() {
        Map<String, Double> m = passingJudge();
        m.put("judge.action_reflection", 1.0);
        m.putAll(passingPixel());
        m.put("maze-pixel.target_achievement", 0.2); // pixel fails, but the judge decides when present
        GateResult r = new MazeGate().evaluate(new GateInput("maze", "video", m, Set.of("judge", "maze-pixel")));
        assertThat(r.primary()).isEqualTo(1.0);
        assertThat(r.primarySource()).isEqualTo("vlm");
        assertThat(r.gates()).containsEntry("overall_vlm", 1.0).containsEntry("overall_pixel", 0.0);
        GateResult pixelOnly = new MazeGate().evaluate(new GateInput("maze", "image", passingPixel(), Set.of("maze-pixel")));
        assertThat(pixelOnly.primary()).isEqualTo(1.0);
    }

    @Test
    void missingPartsGiveNull() {
        GateResult none = new MazeGate().evaluate(new GateInput("maze", "image", Map.of(), Set.of()));
        assertThat(none.primary()).isNull();
        assertThat(none.primarySource()).isEqualTo("vlm");
        assertThat(none.missingChecks()).as("the judge's three checks, then the pixels' six").hasSize(9)
                .startsWith("judge.maze_changed=0", "judge.cross_wall=0", "judge.target_achievement=1")
                .contains("maze-pixel.layout_iou>" + MazeThresholds.LAYOUT_IOU_MIN);
        Map<String, Double> partial = passingPixel();
        partial.remove("maze-pixel.cross_wall");
        GateResult r = new MazeGate().evaluate(new GateInput("maze", "image", partial, Set.of("maze-pixel")));
        assertThat(r.primary()).isNull();
        assertThat(r.missingChecks()).containsExactly("maze-pixel.cross_wall=0",
                "judge.maze_changed=0", "judge.cross_wall=0", "judge.target_achievement=1");
    }

    @Test
    void anImageScoredByItsPixelsListsTheChecksOfTheJudgeThatDidNotArrive() {
        GateResult pixelOnly = new MazeGate().evaluate(new GateInput("maze", "image", passingPixel(), Set.of("maze-pixel")));
        assertThat(pixelOnly.primarySource()).isEqualTo("pixel");
        assertThat(pixelOnly.primary()).isEqualTo(1.0);
        assertThat(pixelOnly.failedChecks()).isEmpty();
        assertThat(pixelOnly.missingChecks()).containsExactly("judge.maze_changed=0", "judge.cross_wall=0", "judge.target_achievement=1");

        Map<String, Double> both = passingJudge();
        both.putAll(passingPixel());
        GateResult complete = new MazeGate().evaluate(new GateInput("maze", "image", both, Set.of("judge", "maze-pixel")));
        assertThat(complete.missingChecks()).as("nothing missing once both parts arrived").isEmpty();

        // the judge decides, the pixel part failed: its checks are left out too
        GateResult judgeOnly = new MazeGate().evaluate(new GateInput("maze", "image", passingJudge(), Set.of("judge")));
        assertThat(judgeOnly.primary()).isEqualTo(1.0);
        assertThat(judgeOnly.missingChecks()).hasSize(6).allSatisfy(c -> assertThat(c).startsWith("maze-pixel."));
    }

    @Test
    void taskIsRegistered() {
        TaskSpec spec = TaskCatalog.load().find("maze").orElseThrow();
        assertThat(spec.family()).isEqualTo("maze");
        assertThat(spec.benchmark()).isEqualTo("mmgr");
        assertThat(spec.modalities()).containsExactlyInAnyOrder("image", "video");
        assertThat(spec.evaluators()).containsExactly("maze-pixel");
        assertThat(spec.rubric()).contains("maze");
        assertThat(io.mmgr.stream.tasks.EvaluatorRegistry.load().newInstance("maze-pixel")).isPresent();
    }
}
