package io.mmgr.stream.demo;

import io.mmgr.stream.web.WebAccess;
import io.mmgr.stream.embedded.EmbeddedStack;
import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.contract.GenerationRecords;
import io.mmgr.stream.leaderboard.AlertRule;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.tasks.SimulatedTask;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.topology.comparison.ComparisonSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The demo: an embedded broker, registry and scorer with its dashboard; a benchmark from every
 * {@link SimulatedTask} found; then a simulated training run whose checkpoints answer it better and
 * better, published as generation events. Judged metrics show as unavailable (no judge configured).
 */
public final class DemoRun implements AutoCloseable {

    public static final String MODEL = "demo-model";

    private final DemoSettings settings;
    private final EmbeddedStack stack;
    private final ScorerApp scorer;
    private final SchemaRegistryClient registry;
    private final Topics topics;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Map<SimulatedTask, List<BenchmarkItem>> benchmark = new LinkedHashMap<>();
    private final String runId;
    private volatile boolean stopped;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private DemoRun(DemoSettings settings, EmbeddedStack stack, ScorerApp scorer, String runId) {
        this.settings = settings;
        this.stack = stack;
        this.scorer = scorer;
        this.runId = runId;
        this.registry = new SchemaRegistryClient(stack.registryUrl());
        this.topics = new Topics(ScorerSettings.DEFAULT_PREFIX, 1, (short) 1, new AvroSerdes(registry, true));
        this.producer = new KafkaProducer<>(Map.of("bootstrap.servers", stack.bootstrapServers(), "acks", "all",
                "linger.ms", 5, "compression.type", "lz4"), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Starts the stack and the scorer with its dashboard; nothing is published yet. */
    public static DemoRun start(DemoSettings settings) throws IOException {
        return start(settings, new PrintWriter(PrintWriter.nullWriter()));
    }

    /**
     * Starts the stack and the scorer with its dashboard, printing each step as it begins and ends, and
     * writes the endpoints file, so that every client command ({@code leaderboard}, {@code publish},
     * {@code report}) finds the demo through {@code --data-dir} as it finds {@code bin/mmgr run}.
     */
    public static DemoRun start(DemoSettings settings, PrintWriter steps) throws IOException {
        return start(settings, steps, WebAccess.open());
    }

    /** The same, its web layer readable only with {@code access}'s token (when it has one). */
    public static DemoRun start(DemoSettings settings, PrintWriter steps, WebAccess access) throws IOException {
        Files.createDirectories(settings.dataDir());
        long t0 = System.nanoTime();
        step(steps, "Starting the embedded Kafka broker and schema registry ...");
        EmbeddedStack stack = EmbeddedStack.start(settings.dataDir(), settings.brokerPort(), settings.registryPort());
        step(steps, String.format(Locale.ROOT, "  broker %s and registry %s up (%.1f s)", stack.bootstrapServers(),
                stack.registryUrl(), seconds(t0)));
        ScorerApp scorer;
        try {
            step(steps, "Starting the scorer (Kafka Streams: topics, state stores, first rebalance) ...");
            ScorerSettings scorerSettings = ScorerSettings.defaults().withArtifactRoots(List.of(settings.dataDir().toAbsolutePath()));
            // a demo benchmark is small: alert from 10 compared samples instead of the default 20
            ScorerApp.Options options = ScorerApp.Options.defaults().withCompanion(EmbeddedLocalStack.sweep())
                    .withComparisons(new ComparisonSettings(DEMO_RULE, ComparisonSettings.DEFAULT.interval()))
                    .withWeb("127.0.0.1", settings.webPort(), "127.0.0.1").withWebAccess(access);
            scorer = ScorerApp.start(scorerSettings, options,
                    stack.bootstrapServers(), stack.registryUrl(), settings.dataDir().resolve("streams"), Duration.ofMinutes(2));
            step(steps, String.format(Locale.ROOT, "  scorer running (%.1f s)", seconds(t0)));
            new Endpoints(stack.bootstrapServers(), stack.registryUrl(), scorerSettings.topicPrefix()).write(settings.dataDir());
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
        return new DemoRun(settings, stack, scorer, "demo-run-" + Long.toString(System.currentTimeMillis() % 100000, 36));
    }

    /** The demo's alert rule: its benchmark is small, so alerts start from 10 compared samples instead of 20. */
    public static final AlertRule DEMO_RULE = new AlertRule(0.01, 0.05, 10);

    private static void step(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    public String url() {
        return scorer.web().orElseThrow().url();
    }

    public String runId() {
        return runId;
    }

    public ScorerApp scorer() {
        return scorer;
    }

    public EmbeddedStack stack() {
        return stack;
    }

    /** The simulated families, filtered by the settings. */
    static List<SimulatedTask> simulations(List<String> families) {
        List<SimulatedTask> out = new ArrayList<>();
        for (TaskFamily family : TaskFamily.installed()) {
            for (SimulatedTask t : family.simulations()) {
                if (families.isEmpty() || families.contains(t.family())) {
                    out.add(t);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no simulated task family matches " + families);
        }
        return out;
    }

    /** Generates and publishes the benchmark; returns the number of items. */
    public int publishBenchmark(PrintWriter log) throws IOException {
        Path dir = settings.dataDir().resolve("demo").resolve("benchmark");
        int n = 0;
        for (SimulatedTask t : simulations(settings.families())) {
            List<BenchmarkItem> items = t.benchmark(settings.items(), settings.seed(), dir);
            List<BenchmarkItem> withSeeds = new ArrayList<>();
            for (BenchmarkItem item : items) {
                BenchmarkItem copy = BenchmarkItem.newBuilder(item).setSeeds(settings.seeds()).build();
                withSeeds.add(copy);
                String topic = topics.benchmark.name();
                producer.send(new ProducerRecord<>(topic,
                        SampleKeys.itemKey(copy.getTask(), copy.getSampleId()).getBytes(StandardCharsets.UTF_8),
                        topics.benchmark.valueSerde().serializer().serialize(topic, copy)));
            }
            benchmark.put(t, withSeeds);
            n += withSeeds.size();
            log.printf("  %-6s %d benchmark items%n", t.family(), withSeeds.size());
            log.flush();
        }
        producer.flush();
        return n;
    }

    /** Simulates the training run: every checkpoint answers the whole benchmark, with the settings' pause between. */
    public void simulate(PrintWriter log) throws IOException, InterruptedException {
        Random random = new Random(settings.seed());
        Path out = settings.dataDir().resolve("demo").resolve("outputs");
        for (int k = 1; k <= settings.checkpoints() && !stopped; k++) {
            long step = k * settings.stepSize();
            String checkpoint = "ckpt-" + step;
            double skill = settings.skill(k);
            long t0 = System.nanoTime();
            int sent = 0;
            for (Map.Entry<SimulatedTask, List<BenchmarkItem>> e : benchmark.entrySet()) {
                for (BenchmarkItem item : e.getValue()) {
                    for (int seed = 0; seed < settings.seeds() && !stopped; seed++) {
                        SimulatedTask.Answer a = e.getKey().answer(item, seed, skill, random, out.resolve(checkpoint));
                        publish(GenerationEvent.newBuilder().setRunId(runId).setModel(MODEL).setCheckpointId(checkpoint)
                                .setTrainingStep(step).setTask(item.getTask()).setSampleId(item.getSampleId()).setSeed(seed)
                                .setModality(a.modality()).setArtifacts(a.artifacts()).setInputs(a.inputs())
                                .setAttributes(Map.of("simulatedFault", a.fault()))
                                .setProducedAt(Instant.now()).build());
                        sent++;
                    }
                }
            }
            producer.flush();
            log.printf("  %s (step %d, skill %.2f%s): %d generations in %.1f s%n", checkpoint, step, skill,
                    k == settings.regressAt() ? ", made worse on purpose" : "", sent, (System.nanoTime() - t0) / 1e9);
            log.flush();
            if (k < settings.checkpoints()) {
                Thread.sleep(settings.interval().toMillis());
            }
        }
    }

    private void publish(GenerationEvent e) {
        String topic = topics.generations.name();
        producer.send(GenerationRecords.of(topic, producer.partitionsFor(topic).size(), e,
                topics.generations.valueSerde().serializer().serialize(topic, e)));
    }

    /** Waits until the scorer's benchmark table holds every item published: answers before that would be joined to nothing. */
    public void awaitBenchmarkLoaded(Duration timeout) throws InterruptedException {
        long wanted = benchmark.values().stream().mapToLong(List::size).sum();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!stopped && System.nanoTime() < deadline) {
            try {
                ReadOnlyKeyValueStore<String, Object> items = scorer.streams().store(StoreQueryParameters.fromNameAndType(
                        scorer.stores().benchmarkItems.name(), QueryableStoreTypes.keyValueStore()));
                // counted, not approximateNumEntries(): RocksDB's estimate can stay under the true count for a table
                // this small, and the demo then waited out the whole timeout
                long have = 0;
                try (KeyValueIterator<String, Object> all = items.all()) {
                    while (all.hasNext() && have < wanted) {
                        all.next();
                        have++;
                    }
                }
                if (have >= wanted) {
                    return;
                }
            } catch (InvalidStateStoreException e) {
                // still starting
            }
            Thread.sleep(100);
        }
    }

    /** Waits until every checkpoint of the run has all its expected samples scored (or the timeout passes). */
    public boolean awaitScored(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!stopped && System.nanoTime() < deadline) {
            try {
                ReadOnlyKeyValueStore<LeaderboardKey, LeaderboardRow> rows = scorer.streams().store(StoreQueryParameters.fromNameAndType(
                        scorer.stores().leaderboardRows.name(), QueryableStoreTypes.keyValueStore()));
                int complete = 0;
                for (int k = 1; k <= settings.checkpoints(); k++) {
                    LeaderboardRow r = rows.get(new LeaderboardKey(runId, "ckpt-" + k * settings.stepSize(), SampleKeys.ALL_TASKS));
                    if (r != null && r.getSamplesExpected() > 0 && r.getSamplesScored() >= r.getSamplesExpected()) {
                        complete++;
                    }
                }
                if (complete == settings.checkpoints()) {
                    Thread.sleep(2L * ComparisonSettings.DEFAULT.interval().toMillis()); // the last comparisons follow the rows
                    return true;
                }
            } catch (InvalidStateStoreException e) {
                // rebalancing
            }
            Thread.sleep(200);
        }
        return false;
    }

    public void stop() {
        stopped = true;
    }

    @Override
    public void close() {
        stopped = true;
        if (!closed.compareAndSet(false, true)) {
            return; // Ctrl-C and the command's own stop can both get here
        }
        producer.close(Duration.ofSeconds(1));
        registry.close();
        scorer.close();
        stack.close();
    }
}
