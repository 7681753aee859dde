package io.mmgr.stream.topology;

import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Stores;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.leaderboard.Table5;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.InMemorySchemaRegistry;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.tasks.TaskFamily;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The shared set-up of the topology tests: the real serdes against an in-memory schema registry (the
 * registry server's own state without its HTTP layer, see {@link InMemorySchemaRegistry}), the typed
 * topics and stores, a {@link ScorerContext}, and a TopologyTestDriver running either the whole scorer
 * ({@link Builder#scorer()}) or what a test adds with the sub-flow builders it calls itself
 * ({@link Builder#subFlows}). Dead letters the safety nets write go through the same registry.
 */
public final class TopologyFixture implements AutoCloseable {

    public final InMemorySchemaRegistry registry;
    public final AvroSerdes serdes;
    public final ScorerSettings settings;
    public final Topics topics;
    public final Stores stores;
    public final ScorerContext context;
    public final ArtifactResolver artifacts;
    public final TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> generations;
    private TestInputTopic<String, BenchmarkItem> benchmark;
    private TestOutputTopic<byte[], DeadLetter> deadLetters;
    private EvaluationBridge evaluation;

    private TopologyFixture(Builder b, TopologyBuild build) {
        registry = new InMemorySchemaRegistry();
        serdes = new AvroSerdes(registry, true);
        settings = b.settings;
        topics = new Topics(settings.topicPrefix(), settings.partitions(), (short) 1, serdes);
        // the echo task and file: artifacts under the fixture's directory, unless the test's context says otherwise
        context = b.context.apply(ScorerContext.from(settings, topics, serdes)
                .tasks(EchoTask.catalog(), EchoTask.evaluators())
                .artifacts(new LocalArtifactResolver(List.of(b.dir), 1 << 20, b.dir)).rubrics(RubricCatalog.load())
                .agreementPriors(Table5.of(TaskFamily.installed()))).build();
        artifacts = context.artifacts();
        stores = context.stores();
        Properties props = ScoringTopology.streamsConfig(settings, "unused:9092", registry.baseUrl(), b.dir.resolve("state"),
                topics.deadLetter.name());
        props.put(DeadLetterHandlers.REGISTRY, registry);
        driver = new TopologyTestDriver(build.topology(context), props, b.start);
    }

    /** A fixture for topics named {@code prefix...}, with its state (and file: artifacts) under {@code dir}. */
    public static Builder builder(String prefix, Path dir) {
        return new Builder(prefix, dir);
    }

    /** What the driver runs, built from the fixture's context. */
    @FunctionalInterface
    public interface TopologyBuild {
        Topology topology(ScorerContext context);
    }

    public static final class Builder {
        private final Path dir;
        private ScorerSettings settings;
        private UnaryOperator<ScorerContext.Builder> context = UnaryOperator.identity();
        private Instant start = Instant.now();

        private Builder(String prefix, Path dir) {
            this.dir = dir;
            this.settings = ScorerSettings.defaults().withPrefix(prefix);
        }

        /** Changes the settings (partitions, judge, {@code mmgr.*} overrides); the prefix stays. */
        public Builder settings(UnaryOperator<ScorerSettings> change) {
            settings = change.apply(settings);
            return this;
        }

        /**
         * The context beyond what the settings give: the task plug-ins (the echo task's by default), the
         * artifact resolver (file: artifacts under the fixture's directory), sub-flow settings.
         */
        public Builder context(UnaryOperator<ScorerContext.Builder> change) {
            UnaryOperator<ScorerContext.Builder> before = context;
            context = b -> change.apply(before.apply(b));
            return this;
        }

        /** The driver's wall clock at start. */
        public Builder startingAt(Instant start) {
            this.start = start;
            return this;
        }

        /** The whole scorer ({@link ScoringTopology#build}). */
        public TopologyFixture scorer() {
            return new TopologyFixture(this, ScoringTopology::build);
        }

        /** Only what {@code add} puts on the builder: the sub-flows a test calls directly. */
        public TopologyFixture subFlows(BiConsumer<StreamsBuilder, ScorerContext> add) {
            return new TopologyFixture(this, ctx -> {
                StreamsBuilder builder = new StreamsBuilder();
                add.accept(builder, ctx);
                return builder.build();
            });
        }
    }

    /**
     * The global store of benchmark items that intake builds in the whole scorer, fed straight from the
     * benchmark topic: for a sub-flow that counts expected samples, tested without intake.
     */
    public static void benchmarkTable(StreamsBuilder builder, ScorerContext ctx) {
        builder.globalTable(ctx.topics().benchmark.name(), ctx.topics().benchmark.consumed("benchmark-source"),
                ctx.stores().benchmarkItems.materialized());
    }

    public <K, V> TestInputTopic<K, V> input(Topic<K, V> t) {
        return driver.createInputTopic(t.name(), t.keySerde().serializer(), t.valueSerde().serializer());
    }

    /** A topic read as raw bytes by the topology (generations, markers): to send what no serializer would write. */
    public TestInputTopic<byte[], byte[]> rawInput(Topic<?, ?> t) {
        return driver.createInputTopic(t.name(), new ByteArraySerializer(), new ByteArraySerializer());
    }

    public <K, V> TestOutputTopic<K, V> output(Topic<K, V> t) {
        return driver.createOutputTopic(t.name(), t.keySerde().deserializer(), t.valueSerde().deserializer());
    }

    /** The dead-letter topic (its key is a cut copy of the original key: read as bytes). */
    public TestOutputTopic<byte[], DeadLetter> deadLetters() {
        if (deadLetters == null) {
            deadLetters = driver.createOutputTopic(topics.deadLetter.name(), new ByteArrayDeserializer(),
                    topics.deadLetter.valueSerde().deserializer());
        }
        return deadLetters;
    }

    public <K, V> KeyValueStore<K, V> store(Store<K, V> store) {
        return driver.getKeyValueStore(store.name());
    }

    /** The evaluation worker's part, which the driver does not run (see {@link EvaluationBridge}). */
    public EvaluationBridge evaluation() {
        if (evaluation == null) {
            evaluation = new EvaluationBridge(driver, topics, context.evaluators(), artifacts);
        }
        return evaluation;
    }

    /** Publishes a benchmark item under its key. */
    public void item(BenchmarkItem item) {
        if (benchmark == null) {
            benchmark = input(topics.benchmark);
        }
        benchmark.pipeInput(SampleKeys.itemKey(item.getTask(), item.getSampleId()), item);
    }

    /** Publishes an event as a producer does (serialized, any key), without evaluating it. */
    public void send(GenerationEvent e) {
        if (generations == null) {
            generations = rawInput(topics.generations);
        }
        generations.pipeInput("k".getBytes(StandardCharsets.UTF_8), eventBytes(e));
    }

    /** Publishes an event and lets the evaluation worker's part evaluate what intake queued. */
    public void publish(GenerationEvent e) {
        send(e);
        evaluation().drain();
    }

    public byte[] eventBytes(GenerationEvent e) {
        return topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e);
    }

    /** Settings with these {@code mmgr.*} overrides added. */
    public static UnaryOperator<ScorerSettings> overrides(Map<String, String> overrides) {
        return s -> {
            Map<String, String> all = new java.util.HashMap<>(s.kafkaOverrides());
            all.putAll(overrides);
            return s.withKafkaOverrides(all);
        };
    }

    @Override
    public void close() {
        driver.close();
        registry.close();
    }
}
