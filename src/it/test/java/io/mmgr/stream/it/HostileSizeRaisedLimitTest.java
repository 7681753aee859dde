package io.mmgr.stream.it;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The hostile-size corpus with the input topics raised to 8 MiB records by topic configuration (the
 * broker and every other topic keep Kafka's 1 MiB): records up to 8 MiB reach intake, and their dead
 * letters must still fit the 1 MiB dead-letter topic.
 */
class HostileSizeRaisedLimitTest extends HostileSizeCases {

    static final int RAISED = 8 << 20;

    @Override
    int inputMax() {
        return RAISED;
    }

    @Override
    Map<String, String> brokerOverrides() {
        return Map.of();
    }

    @Override
    void createTopics(String bootstrap) throws Exception {
        Map<String, String> raised = Map.of("max.message.bytes", String.valueOf(RAISED));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(prefix() + "generations", 1, (short) 1).configs(raised),
                    new NewTopic(prefix() + "benchmark", 1, (short) 1).configs(Map.of("max.message.bytes", String.valueOf(RAISED),
                            "cleanup.policy", "compact")),
                    new NewTopic(prefix() + "human-labels", 1, (short) 1).configs(raised))).all().get();
        }
    }
}
