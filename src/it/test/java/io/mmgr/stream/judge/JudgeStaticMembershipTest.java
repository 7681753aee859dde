package io.mmgr.stream.judge;

import static io.mmgr.stream.judge.JudgeWorkerResilienceTest.await;
import static io.mmgr.stream.judge.JudgeWorkerResilienceTest.finals;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.worker.MemberIdentity;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/**
 * A judge worker given the process's {@link MemberIdentity} joins its group as a static member under
 * that id and writes under a transactional.id that stays the same across restarts (so a restart aborts
 * what its predecessor left open); restarted, it takes its partitions and its share of the quota back
 * and judges on. Without an identity each start has a transactional.id of its own.
 */
@Tag("integration")
class JudgeStaticMembershipTest {

    @TempDir
    Path dir;

    @Test
    void aWorkerWithAnIdentityIsAStaticMemberWithOneTransactionalIdAcrossRestarts() throws Exception {
        try (JudgeKafka k = new JudgeKafka(dir);
             ScriptedVlmServer server = ScriptedVlmServer.start(e -> Action.ok(Duration.ofMillis(20), Map.of()))) {
            Topics topics = k.topics("static.", 2);
            JudgeSettings s = JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "gpt-4.1")
                    .quota(q -> q.requests(10, Duration.ofSeconds(1))).build();
            MemberIdentity identity = new MemberIdentity("judge-static-1", true);
            for (int start = 1; start <= 2; start++) {
                try (JudgeRuntime w = start(k, s, topics, "static-group", identity)) {
                    await(() -> w.engine().resilience().requestShare(), n -> n == 10, Duration.ofSeconds(60),
                            "start " + start + " holding both partitions and the whole quota");
                    List<MemberDescription> members = members(k, "static-group");
                    assertThat(members).extracting(m -> m.groupInstanceId().orElse(null)).containsExactly("judge-static-1");
                    k.publish(topics, JudgeFixtures.mathText("run-static", "static-" + start, "x = 4"));
                    int judged = start;
                    await(() -> finals(k.verdicts(topics)), m -> m.size() == judged, Duration.ofSeconds(60),
                            "the request published during start " + start + " judged");
                }
            }
            assertThat(transactionalIds(k, "static-group-")).containsExactly("static-group-judge-static-1");

            // without an identity, every start is a dynamic member with a transactional.id of its own
            for (int start = 1; start <= 2; start++) {
                try (JudgeRuntime w = start(k, s, topics, "dynamic-group", null)) {
                    await(() -> w.engine().resilience().requestShare(), n -> n == 10, Duration.ofSeconds(60),
                            "dynamic start " + start + " holding the whole quota");
                    assertThat(members(k, "dynamic-group")).allSatisfy(m -> assertThat(m.groupInstanceId()).isEmpty());
                }
            }
            assertThat(transactionalIds(k, "dynamic-group-")).hasSize(2);
        }
    }

    private static JudgeRuntime start(JudgeKafka k, JudgeSettings s, Topics topics, String group, MemberIdentity identity) {
        return JudgeRuntime.start(s, Map.of(), topics, new JudgeWorker.Config(k.kafka.bootstrapServers(), group, Map.of(), identity),
                new LocalArtifactResolver(List.of(k.dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, k.dir.resolve("spill")),
                new SimpleMeterRegistry(), k.dir.resolve("data-" + group));
    }

    private static List<MemberDescription> members(JudgeKafka k, String group) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", k.kafka.bootstrapServers()))) {
            return List.copyOf(admin.describeConsumerGroups(List.of(group)).all().get().get(group).members());
        }
    }

    private static List<String> transactionalIds(JudgeKafka k, String prefix) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", k.kafka.bootstrapServers()))) {
            return admin.listTransactions().all().get().stream().map(TransactionListing::transactionalId)
                    .filter(id -> id.startsWith(prefix)).sorted().toList();
        }
    }
}
