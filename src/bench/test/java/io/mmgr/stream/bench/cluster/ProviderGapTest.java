package io.mmgr.stream.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The provider's longest silence in a fault's window, from arrivals stamped with this JVM's nanoTime. */
@Tag("unit")
class ProviderGapTest {

    private static ScriptedVlmServer.Seen at(long nanos) {
        return new ScriptedVlmServer.Seen(nanos, JudgeProtocol.parse("openai"), "c", "Bearer k", 0, 0, "m", Map.of(), 200,
                null, "stop", "sha");
    }

    @Test
    void theLongestSilenceAndWhereItBegan() {
        long nowMillis = System.currentTimeMillis();
        long nowNanos = System.nanoTime();
        long at = nowMillis - 40_000; // a fault 40 s ago, watched until now
        List<ScriptedVlmServer.Seen> seen = new ArrayList<>();
        // calls every second from +0.5 s to +5.5 s, then none for 20 s, then every second again to +39.5 s (half a
        // second off the window's edges: the clocks' conversion may round by a millisecond)
        for (int s = 0; s <= 5; s++) {
            seen.add(at(nowNanos - (39_500 - s * 1_000L) * 1_000_000));
        }
        for (int s = 25; s < 40; s++) {
            seen.add(at(nowNanos - (39_500 - s * 1_000L) * 1_000_000));
        }
        seen.add(at(nowNanos - 60_000L * 1_000_000)); // before the window: not counted
        String gap = ClusterRun.providerGap(seen, at, nowMillis);
        assertThat(gap).startsWith("provider calls: 21 in the window, longest without one 20.0 s (from +5.5 s)");
    }

    @Test
    void noCallAtAllIsTheWholeWindow() {
        long now = System.currentTimeMillis();
        assertThat(ClusterRun.providerGap(List.of(), now - 12_000, now))
                .isEqualTo("provider calls: 0 in the window, longest without one 12.0 s (from +0.0 s)");
    }
}
