package io.mmgr.stream.it;

import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.CheckpointKey;
import io.mmgr.stream.avro.CheckpointStatus;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.contract.Topics;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A KRaft broker and our registry in this JVM, without a scorer (scorers run elsewhere: child
 * JVMs or separate in-process apps), with readers for the scorer's topics. The broker can be
 * restarted on its data (ports kept).
 */
final class Infrastructure implements AutoCloseable {

    /** Faster recovery from a killed transactional producer than the broker's 10 s default check. */
    static final Map<String, String> BROKER_TUNING = Map.of(
            "transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000",
            "group.min.session.timeout.ms", "2000");

    private final Path dir;
    private final EmbeddedKafka.SaslPlain sasl;
    private volatile EmbeddedKafka kafka;
    private volatile RegistryServer registry;
    private final int registryPort;
    final SchemaRegistryClient registryClient;
    private final Map<String, TopicFollower> followers = new java.util.concurrent.ConcurrentHashMap<>();
    private KafkaConsumer<byte[], byte[]> offsets;

    Infrastructure(Path dir) throws Exception {
        this(dir, null);
    }

    Infrastructure(Path dir, EmbeddedKafka.SaslPlain sasl) throws Exception {
        this.dir = dir;
        this.sasl = sasl;
        this.kafka = EmbeddedKafka.start(dir.resolve("broker"), 0, BROKER_TUNING, sasl);
        this.registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), dir.resolve("registry"));
        this.registryPort = java.net.URI.create(registry.url()).getPort();
        this.registryClient = new SchemaRegistryClient(registry.url());
    }

    String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    String saslBootstrapServers() {
        return kafka.saslBootstrapServers();
    }

    String registryUrl() {
        return registry.url();
    }

    Map<String, Object> clientConfig() {
        return Map.of("bootstrap.servers", kafka.bootstrapServers());
    }

    Topics topics(String prefix, int partitions) {
        return new Topics(prefix, partitions, (short) 1, new AvroSerdes(registryClient, true));
    }

    /** Stops the broker (controlled shutdown) and starts it again on the same data and ports. */
    Duration restartBroker(Duration down) throws InterruptedException {
        long t0 = System.nanoTime();
        kafka.close();
        Thread.sleep(down.toMillis());
        kafka = EmbeddedKafka.start(dir.resolve("broker"), 0, BROKER_TUNING, sasl);
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Stops the registry; {@link #startRegistry()} brings it back on the same port and data. */
    void stopRegistry() {
        registry.close();
    }

    void startRegistry() throws java.io.IOException {
        registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), registryPort), dir.resolve("registry"));
    }

    /** Every committed sample-score record, grouped by key: a key with two records was scored twice. */
    Map<SampleKey, List<SampleScore>> scoreRecords(Topics t) {
        Map<SampleKey, List<SampleScore>> out = new LinkedHashMap<>();
        var keys = t.sampleScores.keySerde().deserializer();
        var values = t.sampleScores.valueSerde().deserializer();
        for (ConsumerRecord<byte[], byte[]> r : records(t.sampleScores.name())) {
            out.computeIfAbsent(keys.deserialize(r.topic(), r.key()), k -> new ArrayList<>())
                    .add(r.value() == null ? null : values.deserialize(r.topic(), r.value()));
        }
        return out;
    }

    Map<LeaderboardKey, LeaderboardRow> leaderboard(Topics t) {
        return TopicSnapshot.latest(records(t.leaderboard.name()), t.leaderboard.keySerde().deserializer(),
                t.leaderboard.valueSerde().deserializer());
    }

    /** The latest answer to each checkpoint's done marker. */
    Map<CheckpointKey, CheckpointStatus> checkpointAnswers(Topics t) {
        return TopicSnapshot.latest(records(t.checkpointStatus.name()), t.checkpointStatus.keySerde().deserializer(),
                t.checkpointStatus.valueSerde().deserializer());
    }

    List<DeadLetter> deadLetters(Topics t) {
        List<DeadLetter> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records(t.deadLetter.name())) {
            out.add(t.deadLetter.valueSerde().deserializer().deserialize(t.deadLetter.name(), r.value()));
        }
        return out;
    }

    /** Records currently in a topic (end offsets summed, transaction markers included): a cheap progress gauge. */
    synchronized long endOffsets(String topic) {
        // one consumer for every call (tests poll this every 200 ms); read uncommitted, so markers count
        if (offsets == null) {
            offsets = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
        }
        return TopicSnapshot.endOffsets(offsets, topic, Duration.ofSeconds(30)).values().stream().mapToLong(Long::longValue).sum();
    }

    /** Every committed record of a topic in partition order, read on by one consumer per topic (see {@link TopicFollower}). */
    List<ConsumerRecord<byte[], byte[]>> records(String topic) {
        return followers.computeIfAbsent(topic, n -> new TopicFollower(clientConfig(), n)).all(Duration.ofSeconds(60));
    }

    @Override
    public void close() {
        followers.values().forEach(TopicFollower::close);
        synchronized (this) {
            if (offsets != null) {
                offsets.close(Duration.ofSeconds(5));
            }
        }
        registry.close();
        kafka.close();
    }
}
