package io.mmgr.stream.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.topology.RecordCaps;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeConfigsResult;
import org.apache.kafka.clients.admin.ForwardingAdmin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading the record limits while another scorer, started beside this one, creates topics: a
 * broker that does not know a topic yet answers UnknownTopicOrPartition, and one start-up of two
 * side by side once exited on it.
 */
@Tag("integration")
class TopicAdminTest {

    @TempDir
    Path dir;

    @Test
    void recordCapsWaitsForABrokerThatDoesNotKnowTheTopicYet() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
            Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers());
            try (Admin admin = Admin.create(config)) {
                admin.createTopics(List.of(new NewTopic("mmgr.public", 1, (short) 1)
                        .configs(Map.of("max.message.bytes", "300000")))).all().get();
            }
            AtomicInteger calls = new AtomicInteger();
            // the first two answers come as from a broker the new topic's metadata has not reached
            try (Admin lagging = new ForwardingAdmin(config) {
                @Override
                public DescribeConfigsResult describeConfigs(Collection<ConfigResource> resources, DescribeConfigsOptions options) {
                    if (calls.incrementAndGet() <= 2) {
                        KafkaFutureImpl<org.apache.kafka.clients.admin.Config> f = new KafkaFutureImpl<>();
                        f.completeExceptionally(new UnknownTopicOrPartitionException("This server does not host this topic-partition."));
                        Map<ConfigResource, org.apache.kafka.common.KafkaFuture<org.apache.kafka.clients.admin.Config>> m =
                                new java.util.HashMap<>();
                        resources.forEach(r -> m.put(r, f));
                        return new DescribeConfigsResult(m) { };
                    }
                    return super.describeConfigs(resources, options);
                }
            }) {
                RecordCaps caps = TopicAdmin.recordCaps(lagging, List.of("mmgr.public"), "app");
                assertThat(calls.get()).isEqualTo(3);
                assertThat(caps.smallest()).isEqualTo(300_000);
            }
        }
    }
}
