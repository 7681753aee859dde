package io.mmgr.stream.tasks.arc;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.StyleAgreement;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The arc-grid part on a corpus of answers drawn in {@link ArcStyleCorpus}'s looks, none of them by our
 * own renderer: every sample's three metrics must be the ones its construction gives, in at least 99%
 * of each look's samples. Prints the per-look agreement table.
 */
@Tag("unit")
class ArcStyleAgreementTest {

    static final double REQUIRED = 0.99;
    /** Samples per look: at 100 a single miss is still 99%; the 2,048 px looks, slow to draw, get 40 (all must agree). */
    static final int SAMPLES = 100;
    static final int LARGE_SAMPLES = 40;

    /**
     * Looks the decoder does not yet read at 99%, with the agreement it reaches (the corpus and the
     * decoder are deterministic, so these are exact); they may not fall below these, every other look
     * must reach 99%. Open work, reported as such, not a pass. None is left.
     */
    static final Map<String, Double> KNOWN_BELOW = Map.of();

    @Test
    void everyLookAgreesWithTheLabelsOnAtLeast99Percent() {
        agree("arc-grid agreement per look (" + SAMPLES + " samples each, " + LARGE_SAMPLES + " at 2,048 px)",
                ArcStyleCorpus.LOOKS, ArcStyleCorpus::samples, 1000L, "target/arc-style-verdicts.txt");
    }

    /** The viewers' looks ({@link ArcViewerCorpus}): thin white or grey gaps, mostly one colour, 1x1 to 30x30. */
    @Test
    void everyViewerLookAgreesWithTheLabelsOnAtLeast99Percent() {
        agree("arc-grid agreement per viewer look (" + SAMPLES + " samples each)", ArcViewerCorpus.LOOKS,
                ArcViewerCorpus::samples, 5000L, "target/arc-viewer-verdicts.txt");
    }

    private static void agree(String title, List<Object[]> looks, BiFunction<Integer, Long, List<ArcStyleCorpus.Sample>> corpus,
                              long seed, String verdicts) {
        StyleAgreement table = new StyleAgreement(title);
        for (Object[] entry : looks) {
            ArcLook look = (ArcLook) entry[0];
            table.style(look.name(), (String) entry[1]);
        }
        int look = 0;
        for (Object[] entry : looks) {
            ArcLook style = (ArcLook) entry[0];
            int n = Math.max(style.width(), style.height()) >= 2048 ? LARGE_SAMPLES : SAMPLES;
            List<ArcStyleCorpus.Sample> samples = corpus.apply(n, seed + look);
            // drawing and reading a sample touch nothing shared: side by side on every core (this corpus ran alone
            // on one core at the end of the families module), then recorded in the corpus's order as before
            List<EvaluationOutcome> outcomes = samples.parallelStream()
                    .map(s -> excluded(style, s) ? null
                            : ArcGridEvaluator.score(style.render(s.drawn()), null, s.truth(), new LinkedHashMap<>()))
                    .toList();
            for (int i = 0; i < samples.size(); i++) {
                ArcStyleCorpus.Sample s = samples.get(i);
                EvaluationOutcome o = outcomes.get(i);
                if (o == null) {
                    table.exclude(style.name());
                    table.verdict(style.name(), s.id() + " excluded");
                    continue;
                }
                Map<String, Double> m = o.metrics();
                table.verdict(style.name(), s.id() + " " + s.fault() + " " + new TreeMap<>(m) + " "
                        + new TreeMap<>(o.diagnostics()));
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
        // every sample's metrics, so a change to the pipeline can be diffed sample by sample against the last run
        table.writeVerdicts(Path.of(verdicts));
        table.below(REQUIRED).forEach(b -> System.out.println("BELOW " + b));
        for (StyleAgreement.Row r : table.rows()) {
            assertThat(r.samples()).isGreaterThanOrEqualTo(LARGE_SAMPLES * 3 / 4);
        }
        List<String> failing = new java.util.ArrayList<>();
        for (StyleAgreement.Row r : table.rows()) {
            double floor = KNOWN_BELOW.getOrDefault(r.style(), REQUIRED);
            if (r.agreement() < floor - 1e-9) {
                failing.add(r.style() + " " + r.agreed() + "/" + r.samples() + " under " + floor + ": "
                        + r.disagreements().subList(0, Math.min(5, r.disagreements().size())));
            }
        }
        assertThat(failing).as(table.table()).isEmpty();
    }

    /** A sample a look without grid lines cannot show apart from another grid: left out of that look's count. */
    private static boolean excluded(ArcLook style, ArcStyleCorpus.Sample s) {
        return !style.hasLines() && ArcStyleCorpus.indistinguishableWithoutLines(s.drawn(), s.truth().rows(), s.truth().cols());
    }
}
