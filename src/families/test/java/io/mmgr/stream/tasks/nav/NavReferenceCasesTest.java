package io.mmgr.stream.tasks.nav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.contract.SampleStatus;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The navigation reference cases ({@link NavReferenceCases}) through the scorer as the stream runs it
 * (no judge): every case, with or without its target, gives the metrics its construction gives, and
 * names exactly the metrics its item lacks the target for. Prints how many cases have which metrics.
 */
@Tag("unit")
class NavReferenceCasesTest {

    @TempDir
    Path dir;

    @Test
    void everyCaseHasTheMetricsItsItemAllowsAndNamesTheOthers() {
        SampleScorer scorer = SampleScorer.load();
        Map<String, Integer> signatures = new TreeMap<>();
        int goalFree = 0;
        for (NavReferenceCases.Case c : NavReferenceCases.cases()) {
            SampleScorer.Result r = scorer.score(c.event(), c.item(),
                    new LocalArtifactResolver(List.of(dir), 1 << 20, dir.resolve("spill")));
            assertThat(r.rejection()).as(c.id()).isNull();
            Map<String, Double> metrics = r.sample().metrics();
            c.expected().forEach((key, v) -> assertThat(metrics.get(key)).as("%s %s in %s", c.id(), key, metrics).isNotNull()
                    .isCloseTo(v, within(1e-6)));
            Set<String> unavailable = new TreeSet<>(r.unavailable().keySet());
            unavailable.remove(TaskSpec.JUDGE_PART);
            assertThat(unavailable).as(c.id()).containsExactlyInAnyOrderElementsOf(c.unavailable());
            for (String key : c.unavailable()) {
                assertThat(metrics.get(key)).as(c.id() + " " + key).isNull();
                assertThat(r.unavailable().get(key)).as(c.id()).contains("benchmark item " + c.id() + " has no");
                assertThat(r.sample().gate().missingChecks()).as(c.id()).contains(key + "=1");
            }
            // an unavailable check never passes: the gate is open (null) or failed by another check, and
            // the sample is PARTIAL, not FAILED
            assertThat(r.sample().status()).as(c.id()).isEqualTo(SampleStatus.PARTIAL);
            assertThat((Object) r.sample().gate().primary()).as(c.id()).isNotEqualTo(1.0);
            if (c.missing() != NavReferenceCases.Missing.NONE) {
                goalFree++;
            }
            Set<String> present = new TreeSet<>();
            metrics.forEach((k, v) -> {
                if (v != null) {
                    present.add(k.replace(NavMetrics.GEOMETRY_EVALUATOR + ".", "")
                            .replace(NavMetrics.GEO_ALIGN_EVALUATOR + ".", "geo:"));
                }
            });
            signatures.merge(c.item().getTask() + " " + present, 1, Integer::sum);
        }
        System.out.println("nav reference cases by the metrics they have (of " + NavReferenceCases.COUNT + "):");
        signatures.forEach((k, n) -> System.out.printf("%4d  %s%n", n, k));
        assertThat(goalFree).isEqualTo(30);
    }
}
