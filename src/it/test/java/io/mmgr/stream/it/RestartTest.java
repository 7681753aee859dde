package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.topology.ScorerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A scorer stopped and started again on the same data continues: nothing re-counted, nothing lost. */
@Tag("integration")
class RestartTest {

    static final Duration WAIT = Duration.ofSeconds(90);
    static final LeaderboardKey BOARD = new LeaderboardKey("restart", "c1", "mind2web");

    @TempDir
    Path dir;

    static BenchmarkItem item(int i) {
        return BenchmarkItem.newBuilder().setTask("mind2web").setSampleId("ep" + i).setBenchmark("magma")
                .setGroundTruth(GroundTruth.newBuilder().setUiSteps(List.of(
                        UiAction.newBuilder().setElement("e" + i).setOp("CLICK").build())).build()).build();
    }

    /** Episode i answered right when {@code right}, else with the wrong element. */
    static GenerationEvent event(int i, boolean right) {
        return GenerationEvent.newBuilder().setRunId("restart").setModel("m").setCheckpointId("c1").setTrainingStep(1)
                .setTask("mind2web").setSampleId("ep" + i).setModality("ui").setProducedAt(Instant.ofEpochMilli(1000 + i))
                .setInputs(GenerationInputs.newBuilder().setUiActions(List.of(
                        UiAction.newBuilder().setElement(right ? "e" + i : "x").setOp("CLICK").build())).build())
                .build();
    }

    @Test
    void aRestartedScorerContinuesWhereItStopped() throws Exception {
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("rs.").withPartitions(2);
        try (ScorerHarness first = new ScorerHarness(dir, settings)) {
            for (int i = 0; i < 3; i++) {
                first.publish(item(i));
            }
            first.publish(event(0, true));
            first.publish(event(1, false));
            await(first::leaderboard, b -> b.containsKey(BOARD) && b.get(BOARD).getSamplesScored() == 2, WAIT,
                    "two samples before the restart");
        }
        try (ScorerHarness second = new ScorerHarness(dir, settings)) {
            second.publish(event(0, true)); // a duplicate of an already scored sample
            second.publish(event(2, true));
            var board = await(second::leaderboard, b -> b.get(BOARD).getSamplesScored() == 3, WAIT,
                    "the third sample after the restart");
            assertThat(board.get(BOARD).getSamplesExpected()).isEqualTo(3);
            assertThat(board.get(BOARD).getPrimaryRate()).isEqualTo(2.0 / 3.0);
            assertThat(second.scores()).containsKeys(new SampleKey("restart", "c1", "mind2web", "ep0", 0),
                    new SampleKey("restart", "c1", "mind2web", "ep1", 0), new SampleKey("restart", "c1", "mind2web", "ep2", 0));
            // the duplicate changed nothing; a later look still sees three
            Thread.sleep(1500);
            assertThat(second.leaderboard().get(BOARD).getSamplesScored()).isEqualTo(3);
        }
    }
}
