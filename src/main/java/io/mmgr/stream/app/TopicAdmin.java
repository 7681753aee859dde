package io.mmgr.stream.app;

import io.mmgr.stream.topology.Topics;
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

    /** Topics just created may not be in the broker's metadata yet: ask again for a few seconds. */
    private static Map<String, TopicDescription> describe(Admin admin, List<Topics.Definition> definitions)
            throws ExecutionException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return admin.describeTopics(definitions.stream().map(Topics.Definition::name).toList()).allTopicNames().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || attempt >= 50) {
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
            Map<String, TopicDescription> described = describe(admin, definitions);
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
}
