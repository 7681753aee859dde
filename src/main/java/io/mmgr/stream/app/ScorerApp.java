package io.mmgr.stream.app;

import io.mmgr.stream.artifacts.ArtifactResolver;
import io.mmgr.stream.artifacts.CompositeArtifactResolver;
import io.mmgr.stream.artifacts.HttpArtifactResolver;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.topology.ScoringTopology;
import io.mmgr.stream.topology.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One scorer instance: creates the topics, builds the topology and runs Kafka Streams. */
public final class ScorerApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScorerApp.class);

    private final KafkaStreams streams;
    private final Topics topics;
    private final Topology topology;
    private final SchemaRegistryClient registry;

    private ScorerApp(KafkaStreams streams, Topics topics, Topology topology, SchemaRegistryClient registry) {
        this.streams = streams;
        this.topics = topics;
        this.topology = topology;
        this.registry = registry;
    }

    /** Starts a scorer against existing Kafka and registry endpoints and waits until it runs. */
    public static ScorerApp start(ScorerSettings settings, String bootstrapServers, String registryUrl, Path stateDir,
                                  Duration startTimeout) {
        return start(settings, bootstrapServers, registryUrl, stateDir, startTimeout, (now, before) -> { });
    }

    /** The same, telling {@code stateListener} every Kafka Streams state change (health checks watch it). */
    public static ScorerApp start(ScorerSettings settings, String bootstrapServers, String registryUrl, Path stateDir,
                                  Duration startTimeout, KafkaStreams.StateListener stateListener) {
        SchemaRegistryClient registry = new SchemaRegistryClient(registryUrl, registryClientConfig(settings));
        AvroSerdes serdes = new AvroSerdes(registry, true);
        Topics topics = new Topics(settings.topicPrefix(), settings.partitions(), settings.replicationFactor(), serdes);
        Map<String, Object> adminConfig = new HashMap<>(kafkaClientConfig(settings));
        adminConfig.put("bootstrap.servers", bootstrapServers);
        try (Admin admin = Admin.create(adminConfig)) {
            TopicAdmin.ensure(admin, topics.definitions());
        }
        ArtifactResolver artifacts = CompositeArtifactResolver.standard(settings.artifactRoots(), settings.maxArtifactBytes(),
                stateDir.resolve("spill"), settings.artifactHttpAllow().stream().map(HttpArtifactResolver.AllowedHost::parse).toList(),
                HttpArtifactResolver.DEFAULT_TIMEOUT);
        Topology topology = ScoringTopology.build(settings, topics, serdes, TaskCatalog.load(), EvaluatorRegistry.load(), artifacts);
        Properties props = ScoringTopology.streamsConfig(settings, bootstrapServers, registryUrl, stateDir,
                topics.deadLetter.name());
        KafkaStreams streams = new KafkaStreams(topology, props);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed; replacing it", e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.setStateListener(stateListener);
        streams.start();
        try {
            awaitRunning(streams, startTimeout);
        } catch (RuntimeException e) {
            closeLeavingGroup(streams);
            registry.close();
            throw e;
        }
        return new ScorerApp(streams, topics, topology, registry);
    }

    /** Client properties the user passed through that apply to admin, producers and consumers (security, ...). */
    static Map<String, String> kafkaClientConfig(ScorerSettings settings) {
        Map<String, String> out = new HashMap<>();
        settings.kafkaOverrides().forEach((k, v) -> {
            if (!k.startsWith("mmgr.")) {
                out.put(k, v);
            }
        });
        return out;
    }

    static Map<String, Object> registryClientConfig(ScorerSettings settings) {
        Map<String, Object> out = new HashMap<>();
        settings.kafkaOverrides().forEach((k, v) -> {
            if (k.startsWith("mmgr.schema-registry.")) {
                out.put(k.substring("mmgr.schema-registry.".length()), v);
            }
        });
        return out;
    }

    private static void awaitRunning(KafkaStreams streams, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING) {
                throw new IllegalStateException("the scorer stopped while starting (state " + streams.state() + ")");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the scorer did not reach RUNNING within " + timeout + " (state " + streams.state() + ")");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting the scorer", e);
            }
        }
    }

    public KafkaStreams streams() {
        return streams;
    }

    public Topics topics() {
        return topics;
    }

    public Topology topology() {
        return topology;
    }

    @Override
    public void close() {
        closeLeavingGroup(streams);
        registry.close();
    }

    /**
     * Streams stays in its group on close by default (to spare rolling restarts a rebalance); a
     * stopped scorer leaves, so its partitions move at once, not after the session timeout.
     */
    private static void closeLeavingGroup(KafkaStreams streams) {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
    }
}
