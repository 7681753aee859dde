package io.mmgr.stream.topology;

import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.tasks.RubricCatalog;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * topology/scoring-topology.txt is the described topology of the default configuration. This test
 * regenerates it and fails when it drifts; run with -Dmmgr.topology.update=true to accept a change.
 */
@Tag("topology")
class TopologyDescriptionTest {

    static final Path FILE = Path.of("topology", "scoring-topology.txt");

    static Topology defaultTopology() {
        return ScoringTopology.build(defaultContext());
    }

    /** The default configuration's context, with the installed task plug-ins. */
    static ScorerContext defaultContext() {
        ScorerSettings settings = ScorerSettings.defaults();
        // building the topology makes no registry call; serdes reach the registry only at run time
        AvroSerdes serdes = new AvroSerdes(new SchemaRegistryClient("http://127.0.0.1:9"), true);
        Topics topics = new Topics(settings.topicPrefix(), settings.partitions(), settings.replicationFactor(), serdes);
        return ScorerContext.from(settings, topics, serdes)
                .tasks(TaskCatalog.load(), EvaluatorRegistry.load())
                .artifacts(new LocalArtifactResolver(List.of(Path.of(".")), 1, Path.of("target")))
                .rubrics(RubricCatalog.load()).build();
    }

    @Test
    void theCommittedDescriptionMatchesTheTopology() throws Exception {
        String described = defaultTopology().describe().toString();
        if (Boolean.getBoolean("mmgr.topology.update")) {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, described, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(FILE)).as("%s exists (generate it with -Dmmgr.topology.update=true)", FILE).isTrue();
        assertThat(described).as("the topology drifted from %s; review and regenerate with -Dmmgr.topology.update=true", FILE)
                .isEqualTo(Files.readString(FILE, StandardCharsets.UTF_8));
    }

    @Test
    void everyProcessorStoreAndInternalTopicIsNamed() {
        String described = defaultTopology().describe().toString();
        // Kafka Streams' generated names look like KSTREAM-MAPVALUES-0000000012 or KTABLE-...-0000000003
        Matcher m = Pattern.compile("K(STREAM|TABLE)-[A-Z]+(-[A-Z]+)*-\\d{10}").matcher(described);
        List<String> generated = new java.util.ArrayList<>();
        while (m.find()) {
            generated.add(m.group());
        }
        assertThat(generated).as("operators, stores and topics left with generated names").isEmpty();
        assertThat(described).contains("sample-assembly", "sample-plans-repartition", "leaderboard-by-item-repartition",
                "benchmark-items", "leaderboard-checkpoints");
    }
}
