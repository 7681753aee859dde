package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.vision.RgbImage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A video's frames finished incrementally (only around what changed since the last frame) are the frames
 * finished whole, bit for bit: blurred and colour-shifted styles, an agent walking near the image's edges
 * and standing still at the end, and a blur wide enough that its margin reaches past the changed box.
 */
@Tag("unit")
class OutputRendererFramesTest {

    @Test
    void incrementalFinishEqualsTheWholeFrameFinish() {
        List<OutputStyle> styles = new ArrayList<>(MazeStyles.VIDEO.stream()
                .filter(s -> s.blurSigma() > 0 || s.colourShifted()).toList());
        assertThat(styles).as("the video styles include a finished one").isNotEmpty();
        styles.add(OutputStyle.blocks("wide-blur", 200, 160, 0.0, 0.3, 0.6).blurred(3.1));
        styles.add(OutputStyle.blocks("shift-only", 202, 158, 0.01, 0.3, 0.8).shifted(40, 0.7, 0.9));
        int checked = 0;
        int changedBoxes = 0;
        for (OutputStyle style : styles) {
            for (Fault fault : new Fault[] {Fault.CORRECT, Fault.WALL_CROSSING}) {
                Scenario sc = MazeFixtures.scenario(MazeBand.EASY, fault, 3);
                OutputStyle even = OutputRenderer.evenSized(style);
                OutputRenderer.FrameFinisher finisher = new OutputRenderer.FrameFinisher(even);
                RgbImage last = null;
                for (RgbImage raw : OutputRenderer.rawFrames(sc, even, 40, MazePalette.START_RGB, MazePalette.TARGET_RGB)) {
                    RgbImage whole = OutputRenderer.finish(raw, even);
                    RgbImage incremental = finisher.next(raw);
                    assertThat(incremental.pixels()).as("%s %s frame %d", style.name(), fault, checked).isEqualTo(whole.pixels());
                    if (last != null && !java.util.Arrays.equals(last.pixels(), whole.pixels())) {
                        changedBoxes++;
                    }
                    last = whole;
                    checked++;
                }
            }
        }
        // the agent moved: frames differed, so the changed-box path was taken, not only the still one
        assertThat(changedBoxes).isGreaterThan(styles.size() * 20);
    }
}
