package io.mmgr.stream.topology;

import io.mmgr.stream.registry.AvroSerdes;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The largest record each topic the scorer writes accepts, read from the broker at start: a topic's
 * {@code max.message.bytes}, else (internal topics Streams creates later) the broker's
 * {@code message.max.bytes}. Every Avro key and value the scorer writes is checked against it when it
 * is serialized ({@link #sizeCap()}), so an oversized record becomes a dead letter before it reaches
 * the producer: a record the broker refuses would abort the exactly-once transaction and be produced
 * again on every retry.
 *
 * <p>A value may take the topic's limit less {@link #HEADROOM} (the key, headers and the record
 * batch's own overhead); a key at most {@link #KEY_CAP}.
 */
public final class RecordCaps {

    /** Largest serialized key (sample keys and leaderboard keys are a few hundred bytes). */
    public static final int KEY_CAP = 4 << 10;
    /** What a value leaves of the topic's limit: the key, record and batch headers, Streams' headers. */
    public static final int HEADROOM = KEY_CAP + (4 << 10);
    /** The setting a handler finds this object under. */
    public static final String CONFIG = "mmgr.record-caps";

    private final Map<String, Integer> topicMax;
    private final int brokerMax;
    /** Topics that refused a record smaller than their configured limit (changed since start): the size they refused. */
    private final Map<String, Integer> learned = new ConcurrentHashMap<>();

    public RecordCaps(Map<String, Integer> topicMax, int brokerMax) {
        this.topicMax = Map.copyOf(topicMax);
        this.brokerMax = brokerMax;
    }

    /** Kafka's defaults: 1 MiB (+12 bytes of batch header) everywhere. */
    public static RecordCaps kafkaDefaults() {
        return new RecordCaps(Map.of(), 1_048_588);
    }

    /** The largest record {@code topic} accepts. */
    public int maxMessageBytes(String topic) {
        if (topic == null) {
            return brokerMax;
        }
        int configured = topicMax.getOrDefault(topic, brokerMax);
        Integer refused = learned.get(topic);
        return refused == null ? configured : Math.min(configured, refused - 1);
    }

    public int valueCap(String topic) {
        return Math.max(0, maxMessageBytes(topic) - HEADROOM);
    }

    /** The smallest limit of the topics the scorer writes (internal ones included): what every derived record must fit. */
    public int smallest() {
        int min = brokerMax;
        for (int v : topicMax.values()) {
            min = Math.min(min, v);
        }
        return min;
    }

    /** The largest limit: the producer's {@code max.request.size}, so that our own check, not the producer's, decides. */
    public int largest() {
        int max = brokerMax;
        for (int v : topicMax.values()) {
            max = Math.max(max, v);
        }
        return max;
    }

    public int brokerMax() {
        return brokerMax;
    }

    /**
     * The broker refused a record of {@code size} bytes on {@code topic} although it was under the limit
     * read at start (the topic's configuration changed): from now on, records that large are stopped when
     * serialized, so the retry of the aborted transaction dead-letters the record instead of sending it again.
     */
    public void refused(String topic, int size) {
        learned.merge(topic, Math.max(1, size), Math::min);
    }

    /** The check the serializers apply. */
    public AvroSerdes.SizeCap sizeCap() {
        return (topic, isKey) -> isKey ? KEY_CAP : valueCap(topic);
    }

    /**
     * Whether {@code other} gives every topic the same limit (what {@link #refused} learned since aside).
     * A topic one of them does not list takes the broker's limit there: the internal topics Kafka
     * Streams creates after the first start's limits were read are no change.
     */
    public boolean sameLimits(RecordCaps other) {
        if (other == null || brokerMax != other.brokerMax) {
            return false;
        }
        java.util.Set<String> topics = new java.util.HashSet<>(topicMax.keySet());
        topics.addAll(other.topicMax.keySet());
        for (String t : topics) {
            if (!topicMax.getOrDefault(t, brokerMax).equals(other.topicMax.getOrDefault(t, other.brokerMax))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the limits read at this start to {@code file}, so that the next start can build its
     * topology before the broker answers (and check them once it does).
     */
    public void store(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty(BROKER_KEY, String.valueOf(brokerMax));
        topicMax.forEach((t, v) -> p.setProperty(TOPIC_PREFIX + t, String.valueOf(v)));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp)) {
            p.store(w, "record limits read from the broker at the last start");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The limits {@link #store} wrote, or empty when there is no (readable) file. */
    public static Optional<RecordCaps> load(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
            Map<String, Integer> topics = new HashMap<>();
            for (String k : p.stringPropertyNames()) {
                if (k.startsWith(TOPIC_PREFIX)) {
                    topics.put(k.substring(TOPIC_PREFIX.length()), Integer.parseInt(p.getProperty(k)));
                }
            }
            return Optional.of(new RecordCaps(topics, Integer.parseInt(p.getProperty(BROKER_KEY))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // read from the broker instead, as on a first start
        }
    }

    private static final String BROKER_KEY = "broker.message.max.bytes";
    private static final String TOPIC_PREFIX = "topic.";

    @Override
    public String toString() {
        return "RecordCaps{broker=" + brokerMax + ", topics=" + topicMax + ", refused=" + learned + "}";
    }
}
