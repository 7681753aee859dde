package io.mmgr.stream.vision;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * 8-connected components: the largest (the first of equals), small ones dropped, on masks drawn
 * with known blobs, and on random masks against a plain flood fill written here; calls one after
 * another on one thread (the labels buffer is shared) give the same answers.
 */
@Tag("unit")
class MaskComponentsTest {

    @Test
    void largestIsTheBiggestBlobAndTheFirstOfEquals() {
        Mask m = new Mask(20, 10);
        m.fillRect(0, 0, 2, 2, true); // 4 px
        m.fillRect(5, 1, 8, 4, true); // 9 px
        m.fillRect(12, 5, 15, 8, true); // 9 px, later in scan order
        Mask largest = m.largestComponent();
        assertThat(largest.count()).isEqualTo(9);
        assertThat(largest.get(6, 2)).isTrue();
        assertThat(largest.get(13, 6)).isFalse();
        assertThat(new Mask(7, 3).largestComponent().isEmpty()).isTrue();
    }

    @Test
    void diagonalNeighboursJoinAndSmallBlobsGo() {
        Mask m = new Mask(12, 12);
        for (int i = 0; i < 5; i++) {
            m.set(i, i, true); // a diagonal line: one component of 5
        }
        m.set(10, 1, true); // 1 px
        m.fillRect(8, 8, 10, 10, true); // 4 px
        Mask kept = m.withoutSmallComponents(4);
        assertThat(kept.count()).isEqualTo(9);
        assertThat(kept.get(4, 4)).isTrue();
        assertThat(kept.get(10, 1)).isFalse();
        assertThat(kept.get(9, 9)).isTrue();
        assertThat(m.largestComponent().count()).isEqualTo(5);
    }

    @Test
    void randomMasksMatchAPlainFloodFill() {
        Random random = new Random(13);
        for (int round = 0; round < 200; round++) {
            int w = 1 + random.nextInt(60);
            int h = 1 + random.nextInt(60);
            double density = random.nextDouble() * 0.6;
            Mask m = new Mask(w, h);
            for (int i = 0; i < w * h; i++) {
                m.set(i, random.nextDouble() < density);
            }
            int minArea = random.nextInt(6);
            int[] label = labels(m);
            int[] area = new int[w * h + 1];
            for (int l : label) {
                area[l]++;
            }
            int best = 0;
            for (int l = 1; l < area.length; l++) {
                if (area[l] > (best == 0 ? 0 : area[best])) {
                    best = l;
                }
            }
            Mask largest = m.largestComponent();
            Mask kept = m.withoutSmallComponents(minArea);
            for (int i = 0; i < w * h; i++) {
                assertThat(largest.get(i)).as("round %d pixel %d largest", round, i).isEqualTo(label[i] > 0 && label[i] == best);
                assertThat(kept.get(i)).as("round %d pixel %d kept", round, i).isEqualTo(label[i] > 0 && area[label[i]] >= minArea);
            }
        }
    }

    /** Component numbers 1.. in scan order of their first pixel (0: unset), by depth-first fill. */
    private static int[] labels(Mask m) {
        int w = m.width();
        int h = m.height();
        int[] label = new int[w * h];
        int next = 0;
        java.util.ArrayDeque<Integer> stack = new java.util.ArrayDeque<>();
        for (int i = 0; i < w * h; i++) {
            if (!m.get(i) || label[i] != 0) {
                continue;
            }
            label[i] = ++next;
            stack.push(i);
            while (!stack.isEmpty()) {
                int p = stack.pop();
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        int x = p % w + dx;
                        int y = p / w + dy;
                        if (x >= 0 && y >= 0 && x < w && y < h && m.get(y * w + x) && label[y * w + x] == 0) {
                            label[y * w + x] = next;
                            stack.push(y * w + x);
                        }
                    }
                }
            }
        }
        return label;
    }
}
