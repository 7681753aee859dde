package io.mmgr.stream.judge.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The auto lane sends realtime exactly what the quota share serves within the latency target. */
@Tag("unit")
class LaneChooserTest {

    static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void realtimeTakesWhatTheShareServesWithinTheTarget() {
        // 60 requests a minute for 5 minutes: 300 realtime requests at a time, the 301st is batched
        assertThat(LaneChooser.realtimeRoom(60, MINUTE, Duration.ofMinutes(5))).isEqualTo(300);
        assertThat(LaneChooser.realtime(299, 60, MINUTE, Duration.ofMinutes(5))).isTrue();
        assertThat(LaneChooser.realtime(300, 60, MINUTE, Duration.ofMinutes(5))).isFalse();
        // 10 a second for 30 seconds: 300 as well; a target shorter than the window takes its fraction
        assertThat(LaneChooser.realtimeRoom(10, Duration.ofSeconds(1), Duration.ofSeconds(30))).isEqualTo(300);
        assertThat(LaneChooser.realtimeRoom(60, MINUTE, Duration.ofSeconds(30))).isEqualTo(30);
    }

    @Test
    void aSmallShareStillServesOneAndNoShareServesNone() {
        assertThat(LaneChooser.realtimeRoom(1, Duration.ofHours(1), Duration.ofSeconds(1))).isEqualTo(1);
        assertThat(LaneChooser.realtime(0, 1, Duration.ofHours(1), Duration.ofSeconds(1))).isTrue();
        assertThat(LaneChooser.realtime(1, 1, Duration.ofHours(1), Duration.ofSeconds(1))).isFalse();
        assertThat(LaneChooser.realtime(0, 0, MINUTE, MINUTE)).isFalse();
    }

    @Test
    void settingsRefuseNonsenseAndParseTheLane() {
        assertThat(LaneMode.parse(" Auto ")).isEqualTo(LaneMode.AUTO);
        assertThatThrownBy(() -> LaneMode.parse("cheap")).hasMessageContaining("realtime, batch or auto");
        assertThatThrownBy(() -> new BatchSettings(LaneMode.BATCH, 0, MINUTE, MINUTE, MINUTE))
                .hasMessageContaining("--judge-batch-max-requests");
        assertThatThrownBy(() -> new BatchSettings(LaneMode.BATCH, 10, Duration.ZERO, MINUTE, MINUTE))
                .hasMessageContaining("--judge-batch-max-wait");
        assertThat(BatchSettings.realtime().lane()).isEqualTo(LaneMode.REALTIME);
    }
}
