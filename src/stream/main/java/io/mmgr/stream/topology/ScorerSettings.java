package io.mmgr.stream.topology;

import io.mmgr.stream.artifacts.S3Settings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Settings of the scoring topology.
 *
 * @param topicPrefix       prefix of every public topic, e.g. {@code mmgr.}
 * @param applicationId     Kafka Streams application.id (also the prefix of internal topics)
 * @param partitions        partitions of the sample-keyed topics (all equal: parts of a sample meet in one partition)
 * @param replicationFactor replication of the topics created at start-up
 * @param judgeEnabled      whether judge parts are planned (false: judged metrics show as unavailable)
 * @param artifactRoots     directories file: artifacts may live under
 * @param maxArtifactBytes  artifacts larger than this are refused
 * @param streamThreads     Kafka Streams threads of this instance
 * @param kafkaOverrides    extra client properties (security, tuning), passed through as given
 * @param artifactHttpAllow hosts ({@code HOST} or {@code HOST:PORT}) http(s) artifacts may come from; empty: none
 * @param artifactS3        where s3:// artifacts are read (endpoint, region, path style, timeout)
 */
public record ScorerSettings(String topicPrefix, String applicationId, int partitions, short replicationFactor,
                             boolean judgeEnabled, List<Path> artifactRoots, long maxArtifactBytes,
                             int streamThreads, Map<String, String> kafkaOverrides, List<String> artifactHttpAllow,
                             S3Settings artifactS3) {

    public static final String DEFAULT_PREFIX = "mmgr.";
    public static final String DEFAULT_APPLICATION_ID = "mmgr-scorer";
    /** The scorer's own settings share the -P map with Kafka client properties, under this prefix. */
    public static final String SETTING_PREFIX = "mmgr.";

    /** The Kafka client properties among {@code properties}, all but the scorer's own {@code mmgr.*} settings, in a new map. */
    public static Map<String, Object> clientProperties(Map<String, String> properties) {
        Map<String, Object> out = new java.util.HashMap<>();
        properties.forEach((k, v) -> {
            if (!k.startsWith(SETTING_PREFIX)) {
                out.put(k, v);
            }
        });
        return out;
    }

    public ScorerSettings {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1");
        }
        artifactRoots = List.copyOf(artifactRoots);
        kafkaOverrides = Map.copyOf(kafkaOverrides);
        artifactHttpAllow = List.copyOf(artifactHttpAllow);
        artifactS3 = artifactS3 == null ? S3Settings.defaults() : artifactS3;
    }

    /** Settings with s3 artifacts read as the SDK's defaults and the environment say. */
    public ScorerSettings(String topicPrefix, String applicationId, int partitions, short replicationFactor,
                          boolean judgeEnabled, List<Path> artifactRoots, long maxArtifactBytes,
                          int streamThreads, Map<String, String> kafkaOverrides, List<String> artifactHttpAllow) {
        this(topicPrefix, applicationId, partitions, replicationFactor, judgeEnabled, artifactRoots, maxArtifactBytes,
                streamThreads, kafkaOverrides, artifactHttpAllow, S3Settings.defaults());
    }

    /** Settings without http artifact hosts. */
    public ScorerSettings(String topicPrefix, String applicationId, int partitions, short replicationFactor,
                          boolean judgeEnabled, List<Path> artifactRoots, long maxArtifactBytes,
                          int streamThreads, Map<String, String> kafkaOverrides) {
        this(topicPrefix, applicationId, partitions, replicationFactor, judgeEnabled, artifactRoots, maxArtifactBytes,
                streamThreads, kafkaOverrides, List.of());
    }

    /** Defaults for one machine: 6 partitions, one replica, no judge, artifacts under the working directory. */
    public static ScorerSettings defaults() {
        return new ScorerSettings(DEFAULT_PREFIX, DEFAULT_APPLICATION_ID, 6, (short) 1, false,
                List.of(Path.of("").toAbsolutePath()), io.mmgr.stream.artifacts.LocalArtifactResolver.DEFAULT_MAX_BYTES,
                2, Map.of());
    }

    public ScorerSettings withPrefix(String prefix) {
        return new ScorerSettings(prefix, applicationId, partitions, replicationFactor, judgeEnabled, artifactRoots,
                maxArtifactBytes, streamThreads, kafkaOverrides, artifactHttpAllow, artifactS3);
    }

    public ScorerSettings withJudge(boolean enabled) {
        return new ScorerSettings(topicPrefix, applicationId, partitions, replicationFactor, enabled, artifactRoots,
                maxArtifactBytes, streamThreads, kafkaOverrides, artifactHttpAllow, artifactS3);
    }

    public ScorerSettings withArtifactRoots(List<Path> roots) {
        return new ScorerSettings(topicPrefix, applicationId, partitions, replicationFactor, judgeEnabled, roots,
                maxArtifactBytes, streamThreads, kafkaOverrides, artifactHttpAllow, artifactS3);
    }

    public ScorerSettings withPartitions(int n) {
        return new ScorerSettings(topicPrefix, applicationId, n, replicationFactor, judgeEnabled, artifactRoots,
                maxArtifactBytes, streamThreads, kafkaOverrides, artifactHttpAllow, artifactS3);
    }

    public ScorerSettings withArtifactHttpAllow(List<String> hosts) {
        return new ScorerSettings(topicPrefix, applicationId, partitions, replicationFactor, judgeEnabled, artifactRoots,
                maxArtifactBytes, streamThreads, kafkaOverrides, hosts, artifactS3);
    }

    public ScorerSettings withMaxArtifactBytes(long max) {
        return new ScorerSettings(topicPrefix, applicationId, partitions, replicationFactor, judgeEnabled, artifactRoots,
                max, streamThreads, kafkaOverrides, artifactHttpAllow, artifactS3);
    }

    public ScorerSettings withApplicationId(String id) {
        return new ScorerSettings(topicPrefix, id, partitions, replicationFactor, judgeEnabled, artifactRoots,
                maxArtifactBytes, streamThreads, kafkaOverrides, artifactHttpAllow, artifactS3);
    }

    public ScorerSettings withStreamThreads(int threads) {
        return new ScorerSettings(topicPrefix, applicationId, partitions, replicationFactor, judgeEnabled, artifactRoots,
                maxArtifactBytes, threads, kafkaOverrides, artifactHttpAllow, artifactS3);
    }

    public ScorerSettings withKafkaOverrides(Map<String, String> overrides) {
        return new ScorerSettings(topicPrefix, applicationId, partitions, replicationFactor, judgeEnabled, artifactRoots,
                maxArtifactBytes, streamThreads, overrides, artifactHttpAllow, artifactS3);
    }

    public ScorerSettings withArtifactS3(S3Settings s3) {
        return new ScorerSettings(topicPrefix, applicationId, partitions, replicationFactor, judgeEnabled, artifactRoots,
                maxArtifactBytes, streamThreads, kafkaOverrides, artifactHttpAllow, s3);
    }
}
