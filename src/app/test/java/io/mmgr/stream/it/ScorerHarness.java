package io.mmgr.stream.it;

import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Stores;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.app.TopicAdmin;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;

/**
 * A real single-node KRaft broker and our registry, both in this JVM, with a scorer on them and
 * helpers to publish and to read the scorer's topics.
 */
public final class ScorerHarness implements AutoCloseable {

    final EmbeddedKafka kafka;
    final RegistryServer registry;
    /** Null until the scorer starts (see {@link #withoutScorer}). */
    ScorerApp scorer;
    final Topics topics;
    final Stores stores;
    final KafkaProducer<byte[], byte[]> producer;
    final Map<String, Object> clientConfig;
    private final Path dir;
    private final ScorerSettings settings;
    private final ScorerApp.Options options;
    /** Whether the broker and registry are this harness's to close. */
    private final boolean ownsBroker;
    /** One reader per topic read, kept open: tests poll them until the scorer is done. */
    private final Map<String, TopicFollower> followers = new java.util.concurrent.ConcurrentHashMap<>();

    public ScorerHarness(Path dir, ScorerSettings settings) throws Exception {
        this(dir, settings, ScorerApp.Options.defaults());
    }

    /** The same with the scorer's options (e.g. its web server). */
    public ScorerHarness(Path dir, ScorerSettings settings, ScorerApp.Options options) throws Exception {
        this(dir, settings, options, Map.of(), bootstrap -> { });
    }

    /**
     * The same on a broker with {@code brokerOverrides}; {@code beforeScorer} runs once the broker is up,
     * before the scorer starts (to create topics with their own configuration, as an operator would).
     */
    public ScorerHarness(Path dir, ScorerSettings settings, ScorerApp.Options options, Map<String, String> brokerOverrides,
                         java.util.function.Consumer<String> beforeScorer) throws Exception {
        this(dir, settings, options, brokerOverrides, beforeScorer, true);
    }

    private ScorerHarness(Path dir, ScorerSettings settings, ScorerApp.Options options, Map<String, String> brokerOverrides,
                          java.util.function.Consumer<String> beforeScorer, boolean startScorer) throws Exception {
        this(dir, settings, options, broker(dir, brokerOverrides, beforeScorer), null, startScorer);
    }

    /**
     * The topics of a scorer (its own topic prefix and application id) on a broker and registry that others share,
     * without the scorer yet ({@link #startScorer()}): closing it leaves the broker and registry running, so a test
     * class can start them once for several scorers.
     */
    public ScorerHarness(Path dir, ScorerSettings settings, EmbeddedKafka kafka, RegistryServer registry) throws Exception {
        this(dir, settings, ScorerApp.Options.defaults(), kafka, registry, false);
    }

    /** With {@code registry} null, this harness starts a registry and owns it and {@code kafka}. */
    private ScorerHarness(Path dir, ScorerSettings settings, ScorerApp.Options options, EmbeddedKafka kafka, RegistryServer registry,
                          boolean startScorer) throws Exception {
        this.dir = dir;
        this.settings = settings;
        this.options = options;
        this.kafka = kafka;
        this.ownsBroker = registry == null;
        this.registry = registry != null ? registry
                : RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), dir.resolve("registry"));
        AvroSerdes serdes = new AvroSerdes(new SchemaRegistryClient(this.registry.url()), true);
        topics = new Topics(settings.topicPrefix(), settings.partitions(), (short) 1, serdes);
        stores = new Stores(serdes);
        clientConfig = Map.of("bootstrap.servers", kafka.bootstrapServers());
        // large enough for any record a broker of the tests accepts (the hostile-size corpus sends 8 MB ones)
        producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all",
                "linger.ms", 5, "max.request.size", 16 << 20), new ByteArraySerializer(), new ByteArraySerializer());
        if (startScorer) {
            startScorer();
        } else {
            try (Admin admin = Admin.create(clientConfig)) {
                TopicAdmin.ensure(admin, topics.definitions());
            }
        }
    }

    private static EmbeddedKafka broker(Path dir, Map<String, String> overrides, java.util.function.Consumer<String> beforeScorer)
            throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0, overrides, null);
        beforeScorer.accept(kafka.bootstrapServers());
        return kafka;
    }

    /**
     * The broker, the registry and the scorer's topics, without the scorer: a test publishes a backlog
     * first and then calls {@link #startScorer()}.
     */
    public static ScorerHarness withoutScorer(Path dir, ScorerSettings settings) throws Exception {
        return new ScorerHarness(dir, settings, ScorerApp.Options.defaults(), Map.of(), bootstrap -> { }, false);
    }

    public void startScorer() {
        scorer = ScorerApp.start(settings, options, kafka.bootstrapServers(), registry.url(), dir.resolve("streams"), Duration.ofMinutes(2));
    }

    public void publish(BenchmarkItem item) {
        ProducerRecord<byte[], byte[]> r = record(item);
        send(r.topic(), r.key(), r.value());
    }

    public void publish(GenerationEvent event) {
        ProducerRecord<byte[], byte[]> r = record(event);
        send(r.topic(), r.key(), r.value());
    }

    private ProducerRecord<byte[], byte[]> record(BenchmarkItem item) {
        String topic = topics.benchmark.name();
        return new ProducerRecord<>(topic, SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8),
                topics.benchmark.valueSerde().serializer().serialize(topic, item));
    }

    private ProducerRecord<byte[], byte[]> record(GenerationEvent event) {
        String topic = topics.generations.name();
        return new ProducerRecord<>(topic, SampleKeys.ref(SampleKeys.of(event)).getBytes(StandardCharsets.UTF_8),
                topics.generations.valueSerde().serializer().serialize(topic, event));
    }

    /**
     * Every item, then every event, each set sent at once and then awaited (not one round trip per record, which made
     * 600 records take seconds); the items are acknowledged before any event is sent, as {@link #publish} one by one.
     */
    public void publishAll(List<BenchmarkItem> items, List<GenerationEvent> events) {
        List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
        for (BenchmarkItem item : items) {
            sent.add(producer.send(record(item)));
        }
        awaitSent(sent, topics.benchmark.name());
        for (GenerationEvent event : events) {
            sent.add(producer.send(record(event)));
        }
        awaitSent(sent, topics.generations.name());
    }

    private static void awaitSent(List<java.util.concurrent.Future<?>> sent, String topic) {
        try {
            for (java.util.concurrent.Future<?> f : sent) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish to " + topic, e);
        }
        sent.clear();
    }

    public void publishRaw(byte[] key, byte[] value) {
        send(topics.generations.name(), key, value);
    }

    void send(String topic, byte[] key, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish to " + topic, e);
        }
    }

    public ScorerApp scorer() {
        return scorer;
    }

    public Topics topics() {
        return topics;
    }

    /** The changelog topic of one of the scorer's stores: one record per write of the store. */
    public String changelog(Store<?, ?> store) {
        return org.apache.kafka.streams.processor.internals.ProcessorStateManager.storeChangelogTopic(
                settings.applicationId(), store.name(), null); // Kafka Streams' own naming rule
    }

    /** Client properties that reach this harness's broker. */
    public Map<String, Object> clientConfig() {
        return clientConfig;
    }

    /** Every committed record of a topic, in partition order (read committed): duplicates show. */
    public List<ConsumerRecord<byte[], byte[]>> records(String topic) {
        return followers.computeIfAbsent(topic, t -> new TopicFollower(clientConfig, t)).all(Duration.ofSeconds(30));
    }

    public Map<SampleKey, SampleScore> scores() {
        return TopicSnapshot.latest(records(topics.sampleScores.name()), topics.sampleScores.keySerde().deserializer(),
                topics.sampleScores.valueSerde().deserializer());
    }

    public Map<LeaderboardKey, LeaderboardRow> leaderboard() {
        return TopicSnapshot.latest(records(topics.leaderboard.name()), topics.leaderboard.keySerde().deserializer(),
                topics.leaderboard.valueSerde().deserializer());
    }

    public List<DeadLetter> deadLetters() {
        List<DeadLetter> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records(topics.deadLetter.name())) {
            out.add(topics.deadLetter.valueSerde().deserializer().deserialize(topics.deadLetter.name(), r.value()));
        }
        return out;
    }

    /** Committed records per sample key in a sample-keyed topic of the scorer (a valid sample has one score, one request per part). */
    public Map<SampleKey, Integer> recordsPerSample(String topic) {
        Map<SampleKey, Integer> out = new java.util.HashMap<>();
        var keys = topics.sampleScores.keySerde().deserializer();
        for (ConsumerRecord<byte[], byte[]> r : records(topic)) {
            out.merge(keys.deserialize(r.topic(), r.key()), 1, Integer::sum);
        }
        return out;
    }

    /** Polls {@code read} until {@code done} holds (the scorer works asynchronously), or fails after the timeout. */
    public static <T> T await(java.util.function.Supplier<T> read, Predicate<T> done, Duration timeout, String what) {
        // polled on this thread: the readers (consumers, stores) are not shared across threads; the timeout names the last value read
        return Awaitility.await(what).atMost(timeout).pollInSameThread().pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(250)).until(read::get, done);
    }

    @Override
    public void close() {
        followers.values().forEach(TopicFollower::close);
        producer.close();
        if (scorer != null) {
            scorer.close();
        }
        if (ownsBroker) {
            registry.close();
            kafka.close();
        }
    }
}
