package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.app.TopicAdmin;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three scorer instances with the same application.id share the partitions: each owns some of the
 * assembly tasks (the sub-topology that writes sample scores), each scored the samples of its
 * partitions, and together they scored every sample exactly once.
 */
@Tag("integration")
class ScaleOutTest {

    static final int PARTITIONS = 6;
    static final int INSTANCES = 3;

    @TempDir
    Path dir;

    @Test
    void threeInstancesShareThePartitionsAndTheTotalsAreExact() throws Exception {
        final long T0 = System.nanoTime();
        String prefix = "scale.";
        String run = "scale-run";
        try (Infrastructure infra = new Infrastructure(dir.resolve("infra"))) {
            Topics t = infra.topics(prefix, PARTITIONS);
            try (Admin admin = Admin.create(infra.clientConfig())) {
                TopicAdmin.ensure(admin, t.definitions());
            }
            ScorerSettings settings = ScorerSettings.defaults().withPrefix(prefix).withPartitions(PARTITIONS)
                    .withApplicationId("scale-app").withStreamThreads(1);
            List<ScorerApp> apps = new ArrayList<>();
            try (SteadyLoad load = new SteadyLoad(infra.clientConfig(), t, run, 120, 400).publishItems()) {
                // started together: they join the group in one rebalance
                List<CompletableFuture<ScorerApp>> starting = new ArrayList<>();
                for (int i = 0; i < INSTANCES; i++) {
                    Path state = dir.resolve("state-" + i);
                    starting.add(CompletableFuture.supplyAsync(() -> ScorerApp.start(settings, infra.bootstrapServers(),
                            infra.registryUrl(), state, Duration.ofMinutes(2))));
                }
                for (CompletableFuture<ScorerApp> f : starting) {
                    apps.add(f.get());
                }
                String cv = t.cvResults.name();
                List<Set<Integer>> owned = ScorerHarness.await(() -> ownership(apps, cv),
                        o -> o.stream().allMatch(s -> !s.isEmpty()) && union(o).size() == PARTITIONS && disjoint(o),
                        Duration.ofMinutes(2), "every instance owning assembly tasks");
                System.out.printf("scale-out: phases: started and balanced at %.1f s%n", (System.nanoTime() - T0) / 1e9);
                load.start();
                ScorerHarness.await(load::sent, n -> n >= 1200, Duration.ofMinutes(1), "1200 events sent");
                load.stop(Duration.ofMinutes(1));
                int sent = load.sent();
                System.out.printf("scale-out: phases: load sent at %.1f s%n", (System.nanoTime() - T0) / 1e9);

                Map<SampleKey, List<SampleScore>> records = ScorerHarness.await(() -> infra.scoreRecords(t),
                        r -> r.size() >= sent, Duration.ofMinutes(2), "every sample scored");
                System.out.printf("scale-out: phases: scored at %.1f s%n", (System.nanoTime() - T0) / 1e9);
                assertThat(ownership(apps, cv)).as("no task moved while the load ran").isEqualTo(owned);
                assertThat(records.keySet()).containsExactlyInAnyOrderElementsOf(load.keys());
                assertThat(records.values()).allSatisfy(v -> assertThat(v).hasSize(1));

                // each instance's share: the score records in the partitions its assembly tasks own
                Map<Integer, Integer> perPartition = new TreeMap<>();
                for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(infra.clientConfig(), t.sampleScores.name(),
                        Duration.ofSeconds(60))) {
                    perPartition.merge(r.partition(), 1, Integer::sum);
                }
                int total = 0;
                List<Integer> shares = new ArrayList<>();
                for (int i = 0; i < INSTANCES; i++) {
                    int share = owned.get(i).stream().mapToInt(p -> perPartition.getOrDefault(p, 0)).sum();
                    shares.add(share);
                    total += share;
                }
                System.out.printf("scale-out: %d instances, partitions %s, scored %s = %d of %d samples%n",
                        INSTANCES, owned, shares, total, sent);
                assertThat(shares).allSatisfy(s -> assertThat(s).isPositive());
                assertThat(total).isEqualTo(sent);
                assertThat(infra.deadLetters(t)).isEmpty();
            } finally {
                // closed together: one by one, each close would rebalance the others
                apps.stream().map(a -> CompletableFuture.runAsync(a::close)).toList().forEach(CompletableFuture::join);
            }
        }
    }

    /** For each instance, the partitions of the score-producing (assembly) tasks it runs. */
    static List<Set<Integer>> ownership(List<ScorerApp> apps, String cvTopic) {
        List<Set<Integer>> out = new ArrayList<>();
        for (ScorerApp app : apps) {
            Set<Integer> mine = new HashSet<>();
            if (app.streams().state() == KafkaStreams.State.RUNNING) {
                for (ThreadMetadata thread : app.streams().metadataForLocalThreads()) {
                    for (TaskMetadata task : thread.activeTasks()) {
                        for (TopicPartition tp : task.topicPartitions()) {
                            if (tp.topic().equals(cvTopic)) {
                                mine.add(tp.partition());
                            }
                        }
                    }
                }
            }
            out.add(mine);
        }
        return out;
    }

    static Set<Integer> union(List<Set<Integer>> sets) {
        Set<Integer> all = new HashSet<>();
        sets.forEach(all::addAll);
        return all;
    }

    static boolean disjoint(List<Set<Integer>> sets) {
        Map<Integer, Integer> seen = new HashMap<>();
        sets.forEach(s -> s.forEach(p -> seen.merge(p, 1, Integer::sum)));
        return seen.values().stream().allMatch(n -> n == 1);
    }
}
