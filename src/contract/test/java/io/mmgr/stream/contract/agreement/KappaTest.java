package io.mmgr.stream.contract.agreement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Cohen's and Fleiss' kappa and their intervals against small tables worked by hand. The tables are
 * Wikipedia's worked examples ("Cohen's kappa": 50 proposals, two readers; "Fleiss' kappa": 10 subjects,
 * 14 raters, 5 categories); every figure below was recomputed from the table (p_o, p_e, P_i, p_j), not
 * copied.
 */
@Tag("unit")
class KappaTest {

    @Test
    void cohenOnTheTwoReaderTable() {
        // yes/yes 20, yes/no 5, no/yes 10, no/no 15: p_o = 35/50 = 0.7; p_e = 0.5*0.6 + 0.5*0.4 = 0.5; kappa = 0.2/0.5 = 0.4
        Kappa.Cohen c = new Kappa.Cohen();
        add(c, 1, 1, 20);
        add(c, 1, 0, 5);
        add(c, 0, 1, 10);
        add(c, 0, 0, 15);
        Kappa.Estimate e = c.estimate();
        assertThat(e.kappa()).isCloseTo(0.4, within(1e-12));
        // SE = sqrt(0.7 * 0.3 / (50 * 0.5^2)) = sqrt(0.0168) = 0.129615
        double se = Math.sqrt(0.0168);
        assertThat(e.low()).isCloseTo(0.4 - Kappa.Z95 * se, within(1e-12)).isCloseTo(0.1460, within(1e-4));
        assertThat(e.high()).isCloseTo(0.6540, within(1e-4));
        assertThat(e.items()).isEqualTo(50);
        assertThat(e.method()).isEqualTo("cohen");
    }

    @Test
    void cohenOnThreeCategoriesAndItsEdges() {
        // 1-3 scale, 10 items: diagonal 3 + 2 + 1 = 6 -> p_o = 0.6; rows (first) 4, 3, 3; columns (second) 4, 4, 2
        // p_e = (4*4 + 3*4 + 3*2) / 100 = 0.34; kappa = 0.26 / 0.66
        Kappa.Cohen c = new Kappa.Cohen();
        add(c, 1, 1, 3);
        add(c, 1, 2, 1);
        add(c, 2, 2, 2);
        add(c, 2, 3, 1);
        add(c, 3, 2, 1);
        add(c, 3, 3, 1);
        add(c, 3, 1, 1);
        assertThat(c.estimate().kappa()).isCloseTo(0.26 / 0.66, within(1e-12));

        Kappa.Cohen perfect = new Kappa.Cohen();
        add(perfect, 1, 1, 4);
        add(perfect, 0, 0, 6);
        // p_o = 1: the SE is 0, the interval the point
        assertThat(perfect.estimate()).extracting(Kappa.Estimate::kappa, Kappa.Estimate::low, Kappa.Estimate::high)
                .containsExactly(1.0, 1.0, 1.0);

        Kappa.Cohen constant = new Kappa.Cohen();
        add(constant, 1, 1, 5);
        // everyone says pass: chance agreement 1, kappa undefined (not 1, not 0)
        assertThat(constant.estimate().defined()).isFalse();
        assertThat(new Kappa.Cohen().estimate().defined()).isFalse();
    }

    @Test
    void fleissOnTheFourteenRaterTable() {
        int[][] rows = {
            {0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
            {7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7}};
        Kappa.Fleiss f = new Kappa.Fleiss(14);
        for (int[] row : rows) {
            Map<Double, Integer> counts = new HashMap<>();
            for (int j = 0; j < row.length; j++) {
                if (row[j] > 0) {
                    counts.put((double) (j + 1), row[j]);
                }
            }
            f.add(counts);
        }
        // P-bar = mean P_i = 0.378022, P_e = sum p_j^2 = 0.212755 (p_j = 20, 28, 39, 21, 32 of 140): kappa = 0.209931
        Kappa.Estimate e = f.estimate();
        assertThat(e.kappa()).isCloseTo((0.378021978021978 - 0.21275510204081632) / (1 - 0.21275510204081632), within(1e-12))
                .isCloseTo(0.210, within(5e-4));
        // SE (Fleiss, Nee and Landis 1979) from the same p_j, worked separately: 0.016965
        assertThat(e.high() - e.kappa()).isCloseTo(Kappa.Z95 * 0.016965069224393132, within(1e-9));
        assertThat(e.kappa() - e.low()).isCloseTo(e.high() - e.kappa(), within(1e-12));
        assertThat(e.items()).isEqualTo(10);
        assertThat(e.method()).isEqualTo("fleiss");
    }

    @Test
    void fleissNeedsEveryItemRatedByEveryRater() {
        Kappa.Fleiss f = new Kappa.Fleiss(3);
        assertThatThrownBy(() -> f.add(Map.of(1.0, 2))).hasMessageContaining("2 ratings, not 3");
        assertThatThrownBy(() -> new Kappa.Fleiss(1)).hasMessageContaining("at least two");
        // three judges agreeing on every item, both categories used: kappa 1
        f.add(Map.of(1.0, 3));
        f.add(Map.of(0.0, 3));
        assertThat(f.estimate().kappa()).isEqualTo(1.0);
    }

    private static void add(Kappa.Cohen c, double first, double second, int times) {
        for (int i = 0; i < times; i++) {
            c.add(first, second);
        }
    }
}
