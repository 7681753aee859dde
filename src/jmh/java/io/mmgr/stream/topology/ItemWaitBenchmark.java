package io.mmgr.stream.topology;

import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.contract.SampleKeys;
import java.util.List;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.topology.intake.IntakeTopology;
import io.mmgr.stream.topology.intake.ItemWait;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Produced;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Intake's wait for items, µs per operation on TopologyTestDriver (intake and item validation only,
 * real serdes against our registry on loopback):
 * <ul>
 *   <li>{@code presentItem}: an event whose item is in the table, through intake to its plan and
 *       evaluation request, while {@code parked} events of other items wait; the normal path, which
 *       should cost the same whatever waits;</li>
 *   <li>{@code check}: one run of the punctuator (every 250 ms) with {@code parked} events of as many
 *       missing items waiting: the cost of waiting.</li>
 * </ul>
 *
 * <p>{@code mvn -P jmh -DskipTests test-compile exec:exec -Djmh.args="ItemWaitBenchmark -f 1 -wi 3 -i 5"}
 */
@State(Scope.Benchmark)
@Fork(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class ItemWaitBenchmark {

    @Param({"0", "2000"})
    public int parked;

    RegistryServer registry;
    Path stateDir;
    TopologyTestDriver driver;
    Topics topics;
    TestInputTopic<byte[], byte[]> generations;
    TestOutputTopic<SampleKey, SamplePlan> plans;
    TestOutputTopic<SampleKey, EvaluationRequest> evaluations;
    byte[][] events;
    int next;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null);
        stateDir = Files.createTempDirectory("item-wait-bench");
        AvroSerdes serdes = new AvroSerdes(new SchemaRegistryClient(registry.url()), true);
        topics = new Topics("b.", 1, (short) 1, serdes);
        var keySerde = serdes.forKeys(SampleKey.class);
        var planSerde = serdes.forValues(SamplePlan.class);
        InputCheck check = new InputCheck(InputLimits.DEFAULTS);
        StreamsBuilder builder = new StreamsBuilder();
        ScorerContext ctx = ScorerContext.from(ScorerSettings.defaults().withPrefix("b.").withPartitions(1), topics, serdes)
                .tasks(EchoTask.catalog(), EchoTask.evaluators()).rubrics(RubricCatalog.load())
                .artifacts(new LocalArtifactResolver(List.of(stateDir), 1 << 20, stateDir)).check(check)
                .itemWait(new ItemWait(Duration.ofHours(1), 1_000_000, 1L << 40)).build();
        IntakeTopology.build(builder, ctx.intakeDeps())
                .to("b.plans", Produced.with(keySerde, planSerde).withName("bench-plans-sink"));
        IntakeTopology.validateItems(builder, ctx.intakeDeps());
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("b.").withPartitions(1);
        driver = new TopologyTestDriver(builder.build(), ScoringTopology.streamsConfig(settings, "unused:9092", registry.url(),
                stateDir, topics.deadLetter.name()), Instant.parse("2026-01-01T00:00:00Z"));
        generations = driver.createInputTopic(topics.generations.name(), new ByteArraySerializer(), new ByteArraySerializer());
        TestInputTopic<String, BenchmarkItem> benchmark = driver.createInputTopic(topics.benchmark.name(), new StringSerializer(),
                topics.benchmark.valueSerde().serializer());
        plans = driver.createOutputTopic("b.plans", keySerde.deserializer(), planSerde.deserializer());
        evaluations = driver.createOutputTopic(topics.evaluationRequests.name(), topics.evaluationRequests.keySerde().deserializer(),
                topics.evaluationRequests.valueSerde().deserializer());
        benchmark.pipeInput(SampleKeys.itemKey("echo", "present"), Fixtures.item("echo", "present", 1));
        for (int i = 0; i < parked; i++) {
            generations.pipeInput(key(), serialize(Fixtures.event("run", "c1", 1, "echo", "missing-" + i, 0, Map.of("ok", 1.0))));
        }
        // distinct generations of one sample, serialized once so that the operation measures intake
        events = new byte[1024][];
        for (int i = 0; i < events.length; i++) {
            events[i] = serialize(Fixtures.event("run", "c1", 1, "echo", "present", 0, Map.of("ok", 1.0, "n", (double) i)));
        }
    }

    static byte[] key() {
        return "k".getBytes(StandardCharsets.UTF_8);
    }

    byte[] serialize(GenerationEvent e) {
        return topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        driver.close();
        registry.close();
    }

    @Benchmark
    public Object presentItem() {
        generations.pipeInput(key(), events[next++ & (events.length - 1)]);
        evaluations.readValue();
        return plans.readValue();
    }

    @Benchmark
    public Object check() {
        driver.advanceWallClockTime(Duration.ofMillis(250));
        return driver;
    }
}
