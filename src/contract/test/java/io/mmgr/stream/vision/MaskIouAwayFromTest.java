package io.mmgr.stream.vision;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The fused IoU away from painted pixels is the IoU over the complement of their union dilated by one. */
@Tag("unit")
class MaskIouAwayFromTest {

    @Test
    void equalsTheComposedMasksOnRandomShapesAndEdges() {
        Random random = new Random(7);
        int[][] sizes = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {5, 7}, {40, 33}, {216, 216}};
        int checked = 0;
        for (int[] s : sizes) {
            for (int trial = 0; trial < 30; trial++) {
                double density = random.nextDouble();
                Mask a = random(s[0], s[1], density, random);
                Mask b = random(s[0], s[1], random.nextDouble(), random);
                Mask p = random(s[0], s[1], 0.05 * random.nextDouble(), random);
                Mask q = random(s[0], s[1], 0.02, random);
                Mask r = random(s[0], s[1], trial % 3 == 0 ? 0.0 : 0.01, random);
                double composed = Mask.iou(a, b, p.or(q).or(r).dilate(1).not());
                assertThat(Mask.iouAwayFrom(a, b, p, q, r)).as("%dx%d trial %d", s[0], s[1], trial).isEqualTo(composed);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(sizes.length * 30);
        // everything painted: nothing left to compare, which counts as identical
        Mask full = new Mask(4, 4);
        full.fillRect(0, 0, 4, 4, true);
        assertThat(Mask.iouAwayFrom(random(4, 4, 0.5, random), new Mask(4, 4), full)).isEqualTo(1.0);
    }

    private static Mask random(int w, int h, double density, Random random) {
        Mask m = new Mask(w, h);
        for (int i = 0; i < w * h; i++) {
            m.set(i, random.nextDouble() < density);
        }
        return m;
    }
}
