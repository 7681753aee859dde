package io.mmgr.stream.app;

import io.mmgr.stream.topology.RecordCaps;
import io.mmgr.stream.contract.Topics;
import java.util.HashMap;
import java.util.Collection;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates the public topics at start-up with their partitions, replication and compaction. */
public final class TopicAdmin {

    private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);

    private TopicAdmin() {
    }

    /** How long a topic another client just created may stay unknown to the broker that answers. */
    static final long METADATA_WAIT_NANOS = 30_000_000_000L;

    /** One admin call that may fail with the answer of a broker not yet told of a topic. */
    @FunctionalInterface
    interface AdminCall<T> {
        T call() throws ExecutionException, InterruptedException;
    }

    /**
     * A topic just created (by this scorer or one started beside it) may not be in every broker's
     * metadata yet: KRaft propagates it asynchronously, and each admin request may go to another
     * broker. Such a call is retried whole for a while, so it re-reads what it lists.
     */
    static <T> T retryingUnknownTopic(AdminCall<T> call) throws ExecutionException, InterruptedException {
        long deadline = System.nanoTime() + METADATA_WAIT_NANOS;
        while (true) {
            try {
                return call.call();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    /** Creates missing topics; warns when an existing one has another partition count. */
    public static void ensure(Admin admin, List<Topics.Definition> definitions) {
        try {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> missing = new ArrayList<>();
            for (Topics.Definition d : definitions) {
                if (!existing.contains(d.name())) {
                    missing.add(new NewTopic(d.name(), d.partitions(), d.replication()).configs(d.config()));
                }
            }
            if (!missing.isEmpty()) {
                try {
                    admin.createTopics(missing).all().get();
                    LOG.info("created topics {}", missing.stream().map(NewTopic::name).toList());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
            List<String> names = definitions.stream().map(Topics.Definition::name).toList();
            Map<String, TopicDescription> described = retryingUnknownTopic(() -> admin.describeTopics(names).allTopicNames().get());
            for (Topics.Definition d : definitions) {
                int actual = described.get(d.name()).partitions().size();
                if (actual != d.partitions()) {
                    LOG.warn("topic {} has {} partitions, configured {}; sample-keyed topics must all have the same count",
                            d.name(), actual, d.partitions());
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create the scorer's topics: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    /**
     * The record limits of the scorer's topics as the broker has them: each public topic's
     * {@code max.message.bytes} and those of the application's internal topics that exist already
     * (changelogs, repartitions: names starting with {@code <applicationId>-}); the broker's
     * {@code message.max.bytes} stands for internal topics created later.
     */
    public static RecordCaps recordCaps(Admin admin, Collection<String> publicTopics, String applicationId) {
        try {
            // the internal topics are listed again on each try: another scorer may be creating them now
            RecordCaps caps = retryingUnknownTopic(() -> readCaps(admin, publicTopics, applicationId));
            LOG.info("record limits: broker message.max.bytes {}, smallest topic max.message.bytes {}, largest {}",
                    caps.brokerMax(), caps.smallest(), caps.largest());
            return caps;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the topics' max.message.bytes: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading topic configurations", e);
        }
    }

    private static RecordCaps readCaps(Admin admin, Collection<String> publicTopics, String applicationId)
            throws ExecutionException, InterruptedException {
        var nodes = admin.describeCluster().nodes().get();
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(nodes.iterator().next().id()));
        List<String> names = new ArrayList<>(publicTopics);
        for (String t : admin.listTopics().names().get()) {
            if (t.startsWith(applicationId + "-")) {
                names.add(t);
            }
        }
        List<ConfigResource> resources = new ArrayList<>();
        resources.add(broker);
        names.forEach(n -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, n)));
        Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get();
        int brokerMax = Integer.parseInt(configs.get(broker).get("message.max.bytes").value());
        Map<String, Integer> topicMax = new HashMap<>();
        for (String n : names) {
            var entry = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, n)).get("max.message.bytes");
            topicMax.put(n, entry == null || entry.value() == null ? brokerMax : Integer.parseInt(entry.value()));
        }
        return new RecordCaps(topicMax, brokerMax);
    }
}
