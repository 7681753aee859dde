package io.mmgr.stream.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.avro.LeaderboardRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The checkpoint-primary series: the rows' rates, the latest checkpoints only, and rows gone removed. */
@Tag("unit")
class CheckpointPrimaryMetersTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    volatile List<LeaderboardRow> rows = List.of();
    volatile boolean rebalancing;
    final CheckpointPrimaryMeters meters = new CheckpointPrimaryMeters(registry, () -> {
        if (rebalancing) {
            throw new InvalidStateStoreException("rebalancing");
        }
        return rows;
    }, Duration.ofHours(1));

    @AfterEach
    void close() {
        meters.close();
    }

    static LeaderboardRow row(String run, long step, String task, Double rate) {
        return LeaderboardRow.newBuilder().setRunId(run).setCheckpointId("ckpt-" + step).setTrainingStep(step).setTask(task)
                .setSamplesExpected(10).setSamplesScored(10).setPrimaryCount(rate == null ? 0 : 10)
                .setPrimarySuccesses(rate == null ? 0 : Math.round(rate * 10)).setPrimaryRate(rate)
                .setUpdatedAt(Instant.EPOCH).build();
    }

    /** "run/checkpoint/task" to the gauge's value. */
    Map<String, Double> series() {
        Map<String, Double> out = new TreeMap<>();
        for (Gauge g : registry.find("mmgr.checkpoint.primary").gauges()) {
            out.put(g.getId().getTag("run") + "/" + g.getId().getTag("checkpoint") + "/" + g.getId().getTag("task"), g.value());
        }
        return out;
    }

    @Test
    void exportsEachRowsPrimaryForTheLatestCheckpointsOfEachRunAndTask() {
        List<LeaderboardRow> all = new ArrayList<>();
        for (long step = 1; step <= 7; step++) {
            all.add(row("r", step, "mind2web", step / 10.0));
        }
        all.add(row("r", 7, "*", 0.25));
        all.add(row("q", 3, "mind2web", null)); // nothing with a primary yet: no series
        rows = all;
        meters.refresh();
        assertThat(series()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "r/ckpt-3/mind2web", 0.3, "r/ckpt-4/mind2web", 0.4, "r/ckpt-5/mind2web", 0.5, "r/ckpt-6/mind2web", 0.6,
                "r/ckpt-7/mind2web", 0.7, "r/ckpt-7/*", 0.25));
    }

    @Test
    void aRowGoneIsRemovedAndARebalanceKeepsTheSeriesAsTheyWere() {
        rows = List.of(row("r", 1, "mind2web", 0.5), row("r", 2, "mind2web", 0.75));
        meters.refresh();
        assertThat(series()).containsOnlyKeys("r/ckpt-1/mind2web", "r/ckpt-2/mind2web");
        rebalancing = true;
        rows = List.of();
        meters.refresh();
        assertThat(series()).as("the store did not answer").containsOnlyKeys("r/ckpt-1/mind2web", "r/ckpt-2/mind2web");
        rebalancing = false;
        rows = List.of(row("r", 2, "mind2web", 1.0)); // ckpt-1's partition moved to another instance
        meters.refresh();
        assertThat(series()).containsExactlyEntriesOf(Map.of("r/ckpt-2/mind2web", 1.0));
    }
}
