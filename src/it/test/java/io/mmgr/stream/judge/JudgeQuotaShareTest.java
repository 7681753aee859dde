package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.contract.Topics;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/**
 * Workers of one group share the quota without being told how many they are: each takes the share of
 * the judge-request partitions it holds, recomputed when the group rebalances, so together they stay
 * within it; when one leaves, the other takes its partitions and, a window later, their share.
 */
@Tag("integration")
@Tag("alone")
class JudgeQuotaShareTest {

    static final int QUOTA = 6;

    @TempDir
    static Path dir;
    static JudgeKafka k;
    static ScriptedVlmServer server;

    @BeforeAll
    static void start() throws Exception {
        k = new JudgeKafka(dir);
        server = ScriptedVlmServer.start(e -> Action.ok(Duration.ofMillis(50), Map.of()));
    }

    @AfterAll
    static void stop() {
        server.close();
        k.close();
    }

    @Test
    void twoWorkersShareOneQuotaByTheirPartitions() throws Exception {
        Topics topics = k.topics("share.", 3);
        JudgeSettings s = JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "gpt-4.1")
                // the broker, both workers and the server share this JVM and two cores
                .quota(q -> q.requests(QUOTA, Duration.ofSeconds(1)).margin(Duration.ofMillis(150)))
                .concurrency(6)
                .build();
        try (JudgeRuntime a = k.start(s, Map.of(), topics, "share-group", dir.resolve("a"));
             JudgeRuntime b = k.start(s, Map.of(), topics, "share-group", dir.resolve("b"))) {
            // both in the group: 3 partitions split 2 + 1, whose shares (2 + 2, 2) add up to the quota
            JudgeWorkerResilienceTest.await(() -> List.of(a.engine().resilience().requestShare(), b.engine().resilience().requestShare()),
                    l -> l.get(0) + l.get(1) == QUOTA && l.get(0) > 0 && l.get(1) > 0, Duration.ofSeconds(60),
                    "both workers holding a share");
            assertThat(List.of(a.metrics().registry().get("mmgr.judge.quota_share").gauge().value(),
                    b.metrics().registry().get("mmgr.judge.quota_share").gauge().value()))
                    .containsExactlyInAnyOrder(4.0, 2.0);
            List<JudgeRequest> reqs = new ArrayList<>();
            for (int i = 0; i < 36; i++) {
                reqs.add(JudgeFixtures.mathText("run-share", "share-" + i, "x = 4"));
            }
            reqs.forEach(r -> k.publish(topics, r));
            JudgeWorkerResilienceTest.await(() -> JudgeWorkerResilienceTest.finals(k.verdicts(topics)), m -> m.size() == reqs.size(),
                    Duration.ofSeconds(90), "every request judged");
            // each worker alone would have taken the whole quota: together they would have sent up to twice it
            assertThat(server.maxInAnyWindow(Duration.ofSeconds(1))).isLessThanOrEqualTo(QUOTA);
            assertThat(a.metrics().count("mmgr.judge.calls")).isPositive();
            assertThat(b.metrics().count("mmgr.judge.calls")).isPositive();

            // one leaves: the other takes every partition and, a window after, the whole quota
            b.close();
            JudgeWorkerResilienceTest.await(() -> a.engine().resilience().requestShare(), n -> n == QUOTA, Duration.ofSeconds(60),
                    "the remaining worker holding the whole quota");
        }
    }
}
