package io.mmgr.stream.cli;

import io.mmgr.stream.app.Endpoints;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** How a client command finds Kafka and the registry: flags, else the endpoints a running scorer wrote. */
public final class ConnectionOptions {

    @Option(names = "--bootstrap-servers", defaultValue = "${env:MMGR_BOOTSTRAP_SERVERS}",
            description = "Kafka bootstrap servers (default: those of the scorer running in --data-dir; env MMGR_BOOTSTRAP_SERVERS)")
    String bootstrapServers;

    @Option(names = "--schema-registry-url", defaultValue = "${env:MMGR_SCHEMA_REGISTRY_URL}",
            description = "Confluent-compatible schema registry URL (default: the running scorer's; env MMGR_SCHEMA_REGISTRY_URL)")
    String registryUrl;

    @Option(names = "--data-dir", defaultValue = "${env:MMGR_DATA_DIR:-.mmgr}",
            description = "data directory of a running embedded scorer (default: ${DEFAULT-VALUE}; env MMGR_DATA_DIR)")
    Path dataDir;

    @Option(names = "--topic-prefix", defaultValue = "${env:MMGR_TOPIC_PREFIX}",
            description = "prefix of the scorer's topics (default: the running scorer's, else mmgr.; env MMGR_TOPIC_PREFIX)")
    String topicPrefix;

    @Option(names = {"-P", "--kafka-property"}, split = "\\R", defaultValue = "${env:MMGR_KAFKA_PROPERTIES}",
            description = "extra Kafka client property KEY=VALUE (security settings, ...); "
            + "mmgr.schema-registry.KEY=VALUE goes to the registry client. Values are never printed. "
            + "Env MMGR_KAFKA_PROPERTIES: KEY=VALUE lines", mapFallbackValue = "")
    Map<String, String> properties = new LinkedHashMap<>();

    /** The keys given with -P. */
    public java.util.Set<String> propertyKeys() {
        return java.util.Collections.unmodifiableSet(properties.keySet());
    }

    /** The endpoints to use, or a clear error when neither flags nor a running scorer tell them. */
    public Endpoints resolve() {
        Endpoints found = Endpoints.read(dataDir).orElse(null);
        String bootstrap = bootstrapServers != null ? bootstrapServers : found == null ? null : found.bootstrapServers();
        String registry = registryUrl != null ? registryUrl : found == null ? null : found.registryUrl();
        String prefix = topicPrefix != null ? topicPrefix : found == null ? "mmgr." : found.topicPrefix();
        if (bootstrap == null || registry == null) {
            throw new IllegalArgumentException("no scorer found in " + dataDir.toAbsolutePath()
                    + ": start one with 'bin/mmgr run' or pass --bootstrap-servers and --schema-registry-url");
        }
        return new Endpoints(bootstrap, registry, prefix);
    }

    /** Kafka client properties given with -P (not the registry's). */
    public Map<String, Object> kafkaProperties() {
        return io.mmgr.stream.topology.ScorerSettings.clientProperties(properties);
    }

    /** The same with the bootstrap servers set. */
    public Map<String, Object> kafkaProperties(String bootstrap) {
        Map<String, Object> out = kafkaProperties();
        out.put("bootstrap.servers", bootstrap);
        return out;
    }

    /** Registry client settings given as -P mmgr.schema-registry.KEY=VALUE. */
    public Map<String, Object> registryProperties() {
        return io.mmgr.stream.registry.SchemaRegistryClient.configFrom(properties);
    }
}
