package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.contract.JudgeCostKeys;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the projection publisher writes at a tick: only the checkpoints whose figures changed since their last write,
 * each as the record the scorers read. (Its writes reach a broker in JudgeWorkerCommandTest.)
 */
@Tag("unit")
class ProjectionPublisherTest {

    static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);

    @Test
    void onlyChangedCheckpointsAreDueAndEachRecordCarriesItsFigures() {
        CostLedger ledger = new CostLedger(null);
        CostProjection p = new CostProjection(ledger, 2, 3, 0.5, null);
        ProjectionPublisher.Changes changes = new ProjectionPublisher.Changes(p, "w1");
        assertThat(changes.due()).isEmpty();
        p.planned(CostProjectionTest.request("run", "c1", "s1"), 0.04);
        p.planned(CostProjectionTest.request("run", "c2", "s1"), 0.04);
        Map<String, CostProjection.Figures> first = changes.due();
        assertThat(first).containsOnlyKeys(JudgeCostKeys.projection("run", "c1", "w1"), JudgeCostKeys.projection("run", "c2", "w1"));
        assertThat(changes.due()).as("nothing changed since").isEmpty();

        p.planned(CostProjectionTest.request("run", "c2", "s2"), 0.04);
        Map<String, CostProjection.Figures> second = changes.due();
        assertThat(second).containsOnlyKeys(JudgeCostKeys.projection("run", "c2", "w1"));
        JudgeProjection r = ProjectionPublisher.record(second.values().iterator().next(), "w1", CLOCK);
        assertThat(r.getPlannedRequests()).isEqualTo(2);
        assertThat(r.getJudges()).isEqualTo(2);
        assertThat(r.getSamples()).isEqualTo(3);
        assertThat(r.getLaneFactor()).isEqualTo(0.5);
        // 2 requests x 2 judges x 3 samples x $0.04 x 0.5
        assertThat(r.getProjectedUsd()).isCloseTo(0.24, within(1e-12));
        assertThat(r.getWorker()).isEqualTo("w1");

        // a settled call changes every checkpoint's cost of a call: both are due again
        ledger.settle("run", "c1", 0.0, 1, 100, 10, 0.01);
        assertThat(changes.due()).hasSize(2);
        // a write that failed is due again at the next tick, though its figures did not change
        CostProjection.Figures c1 = p.figures().stream().filter(f -> f.checkpoint().equals("c1")).findFirst().orElseThrow();
        changes.failed(JudgeCostKeys.projection("run", "c1", "w1"), c1);
        assertThat(changes.due()).containsOnlyKeys(JudgeCostKeys.projection("run", "c1", "w1"));
    }
}
