package io.mmgr.stream.tasks.arc;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.StyleAgreement;
import io.mmgr.stream.vision.RgbImage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The arc-grid part on a corpus of answers drawn in {@link ArcStyleCorpus}'s looks, none of them by our
 * own renderer: every sample's three metrics must be the ones its construction gives, in at least 99%
 * of each look's samples. Prints the per-look agreement table.
 */
class ArcStyleAgreementTest {

    static final double REQUIRED = 0.99;
    /** Samples per look: at 100 a single miss is still 99%. */
    static final int SAMPLES = 100;

    @Test
    void everyLookAgreesWithTheLabelsOnAtLeast99Percent() {
        StyleAgreement table = new StyleAgreement("arc-grid agreement per look (" + SAMPLES + " samples each)");
        for (Object[] entry : ArcStyleCorpus.LOOKS) {
            ArcLook look = (ArcLook) entry[0];
            table.style(look.name(), (String) entry[1]);
        }
        int look = 0;
        long[] renderNs = new long[ArcStyleCorpus.LOOKS.size()];
        long[] scoreNs = new long[ArcStyleCorpus.LOOKS.size()];
        for (Object[] entry : ArcStyleCorpus.LOOKS) {
            ArcLook style = (ArcLook) entry[0];
            for (ArcStyleCorpus.Sample s : ArcStyleCorpus.samples(SAMPLES, 1000L + look)) {
                if (!style.hasLines() && ArcStyleCorpus.indistinguishableWithoutLines(s.drawn(), s.truth().rows(),
                        s.truth().cols())) {
                    table.exclude(style.name());
                    continue;
                }
                long t0 = System.nanoTime();
                RgbImage image = style.render(s.drawn());
                long t1 = System.nanoTime();
                EvaluationOutcome o = ArcGridEvaluator.score(image, null, s.truth(), new LinkedHashMap<>());
                renderNs[look] += t1 - t0;
                scoreNs[look] += System.nanoTime() - t1;
                Map<String, Double> m = o.metrics();
                boolean agrees = Objects.equals(m.get(ArcMetrics.GRID_INTEGRITY), s.gridIntegrity())
                        && Objects.equals(m.get(ArcMetrics.CELL_ACCURACY), s.cellAccuracy())
                        && Objects.equals(m.get(ArcMetrics.VALID_SOLUTION), s.validSolution());
                if (agrees) {
                    table.agree(style.name());
                } else {
                    String what = s.id() + " " + s.fault() + " " + s.drawn().length + "x" + s.drawn()[0].length
                            + ": got " + m + " read " + o.diagnostics().getOrDefault("decoded_size",
                            o.diagnostics().get("decode_failure"));
                    if (o.diagnostics().containsKey("decode_failure")) {
                        table.hardFailure(style.name(), what);
                    } else {
                        table.disagree(style.name(), what);
                    }
                }
            }
            look++;
        }
        System.out.println(table.table());
        for (int i = 0; i < renderNs.length; i++) {
            System.out.printf("TIMING %s render %d ms score %d ms%n", ArcStyleCorpus.LOOKS.get(i)[0], renderNs[i] / 1000000, scoreNs[i] / 1000000);
        }
        for (StyleAgreement.Row r : table.rows()) {
            assertThat(r.samples()).isGreaterThanOrEqualTo(SAMPLES * 3 / 4);
        }
        List<String> below = table.below(REQUIRED);
        assertThat(below).as(table.table()).isEmpty();
    }
}
