package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.avro.JudgeRequest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A checkpoint's projected cost: price estimate before any call, settled mean after, lane factor, the budget note. */
@Tag("unit")
class CostProjectionTest {

    @Test
    void beforeAnyCallTheEstimateAfterTheFirstTheMeanOfSettledCalls() {
        CostLedger ledger = new CostLedger(null);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        CostProjection p = new CostProjection(ledger, 2, 3, 0.5, meters);
        for (int i = 0; i < 10; i++) {
            p.planned(request("run-1", "ckpt-1", "s" + i), 0.04);
        }
        // 10 requests x 2 judges x 3 samples x $0.04 x 0.5
        assertThat(p.projectedUsd("run-1", "ckpt-1")).isCloseTo(1.2, within(1e-12));
        assertThat(meters.get("mmgr.judge.projected_cost_usd").tag("run", "run-1").tag("checkpoint", "ckpt-1").gauge().value())
                .isCloseTo(1.2, within(1e-12));
        // two calls settled at $0.03 and $0.01: the mean, $0.02, replaces the estimate
        ledger.settle("run-1", "ckpt-1", 0.0, 1, 100, 30, 0.03);
        ledger.settle("run-1", "ckpt-1", 0.0, 1, 100, 10, 0.01);
        assertThat(p.perCallUsd("run-1", "ckpt-1")).isCloseTo(0.02, within(1e-12));
        assertThat(p.projectedUsd("run-1", "ckpt-1")).isCloseTo(0.6, within(1e-12));
        assertThat(p.projectedUsd("run-1", "ckpt-2")).isZero();
    }

    @Test
    void theBudgetNoteAppearsOnlyWhenTheProjectionIsPastTheBudget() {
        CostProjection p = new CostProjection(new CostLedger(1.0), 1, 1, 1.0, null);
        for (int i = 0; i < 20; i++) {
            p.planned(request("run-1", "ckpt-9", "s" + i), 0.10);
        }
        assertThat(p.beyondBudget("run-1", "ckpt-9", null)).isEmpty();
        assertThat(p.beyondBudget("run-1", "ckpt-9", 5.0)).isEmpty();
        assertThat(p.beyondBudget("run-1", "ckpt-9", 1.0))
                .isEqualTo("; checkpoint ckpt-9 alone is projected at $2.0000 (20 requests x 1 judges x 1 samples x $0.100000 a call "
                        + "x lane factor 1.00), above the $1.0000 budget");
        assertThatThrownBy(() -> new CostProjection(new CostLedger(null), 1, 1, 0.0, null)).hasMessageContaining("(0, 1]");
    }

    static JudgeRequest request(String run, String checkpoint, String sample) {
        JudgeRequest r = JudgeFixtures.mathText(run, sample, "x = 4");
        r.getEvent().setCheckpointId(checkpoint);
        return r;
    }
}
