package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.worker.MemberIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Static membership, as the embedded default runs it: one id, generated once and kept in the data
 * directory, and every consumer group of the scorer (Kafka Streams, the evaluation worker, the
 * pipeline meters) joined under it; the same id after a restart.
 */
@Tag("integration")
class StaticMembershipTest {

    @TempDir
    Path dir;

    static Map<String, List<String>> instanceIds(ScorerHarness h, List<String> groups) throws Exception {
        try (Admin admin = Admin.create(h.clientConfig())) {
            Map<String, List<String>> out = new TreeMap<>();
            for (Map.Entry<String, ConsumerGroupDescription> e : admin.describeConsumerGroups(groups).all().get().entrySet()) {
                out.put(e.getKey(), e.getValue().members().stream().map(MemberDescription::groupInstanceId)
                        .map(o -> o.orElse("(dynamic)")).sorted().collect(Collectors.toList()));
            }
            return out;
        }
    }

    @Test
    void everyGroupOfTheScorerHasTheDataDirectorysInstanceIdAcrossRestarts() throws Exception {
        Path data = dir.resolve("data");
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("sm.").withApplicationId("sm-scorer").withPartitions(2);
        String app = settings.applicationId();
        List<String> groups = List.of(app, ScorerApp.evaluationGroup(app), app + "-metrics");
        String firstId;
        MemberIdentity identity = MemberIdentity.resolve(data, Optional.empty(), MemberIdentity.AUTO);
        firstId = identity.id();
        assertThat(Files.readString(data.resolve(MemberIdentity.FILE)).trim()).isEqualTo(firstId);
        try (ScorerHarness h = new ScorerHarness(dir.resolve("stack"), settings, ScorerApp.Options.defaults().withIdentity(identity))) {
            Map<String, List<String>> ids = ScorerHarness.await(() -> {
                try {
                    return instanceIds(h, groups);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, m -> m.values().stream().noneMatch(List::isEmpty), Duration.ofSeconds(60), "members in every group");
            // Kafka Streams gives each of its threads' consumers the id with the thread's index
            assertThat(ids.get(app)).containsExactly(firstId + "-1", firstId + "-2");
            assertThat(ids.get(ScorerApp.evaluationGroup(app))).containsExactly(firstId);
            assertThat(ids.get(app + "-metrics")).containsExactly(firstId);
        }
        MemberIdentity again = MemberIdentity.resolve(data, Optional.empty(), MemberIdentity.AUTO);
        assertThat(again.id()).as("the id is kept in the data directory").isEqualTo(firstId);
        assertThat(again.staticMembership()).isTrue();
        assertThat(again.transactionalId("g")).isEqualTo("g-" + firstId);
        assertThat(MemberIdentity.resolve(data, Optional.of("none"), MemberIdentity.AUTO).groupInstanceId())
                .as("'none': the same id for transactions, no static membership").isEmpty();
        assertThat(MemberIdentity.resolve(data, Optional.of("scorer-1"), MemberIdentity.NONE).groupInstanceId()).contains("scorer-1");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(
                () -> MemberIdentity.resolve(data, Optional.of("has space"), MemberIdentity.NONE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("instance id");
    }
}
