package io.mmgr.stream.cli;

import io.mmgr.stream.app.EmbeddedStack;
import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.bench.LoadReport;
import io.mmgr.stream.bench.LoadRunner;
import io.mmgr.stream.bench.MagmaWorkload;
import io.mmgr.stream.bench.MazeWorkload;
import io.mmgr.stream.bench.RawThroughput;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.topology.Topics;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mmgr bench load}: end-to-end throughput and latency of the scorer on synthetic samples, light
 * (Magma episodes) and heavy (maze images), beside the raw broker's produce->consume throughput.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Publish synthetic samples and measure samples/s and latency (event -> sample score, "
                + "event -> leaderboard) for light (Mind2Web episodes) and heavy (maze image) samples, next to the raw "
                + "broker's produce->consume throughput measured first, on the same broker.",
                "By default it starts a fresh embedded broker, registry and scorer in a temporary directory;",
                "--attach measures the scorer already running in --data-dir (or at the given endpoints) instead."})
public final class BenchLoadCommand implements Callable<Integer> {

    enum Kind { light, heavy, both }

    @Option(names = "--workload", defaultValue = "both", description = "light, heavy or both (default: ${DEFAULT-VALUE})")
    Kind workload;

    @Option(names = "--samples", defaultValue = "20000", description = "light samples to send (default: ${DEFAULT-VALUE})")
    long samples;

    @Option(names = "--items", defaultValue = "1000", description = "light benchmark items (episodes) (default: ${DEFAULT-VALUE})")
    int items;

    @Option(names = "--steps", defaultValue = "5", description = "UI steps per episode (default: ${DEFAULT-VALUE})")
    int steps;

    @Option(names = "--heavy-samples", defaultValue = "1000", description = "heavy samples to send (default: ${DEFAULT-VALUE})")
    long heavySamples;

    @Option(names = "--heavy-items", defaultValue = "24", description = "mazes generated for the heavy samples (default: ${DEFAULT-VALUE})")
    int heavyItems;

    @Option(names = "--artifact-dir", description = "where the heavy samples' images are written; with --attach it must be "
            + "under the scorer's artifact roots (default: a temporary directory; with --attach ./mmgr-bench-mazes)")
    Path artifactDir;

    @Option(names = "--raw-records", defaultValue = "300000",
            description = "records of the raw broker measurement, 0 to skip it (default: ${DEFAULT-VALUE})")
    long rawRecords;

    @Option(names = "--rate", defaultValue = "0", description = "events per second; 0 = as fast as possible (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--threads", defaultValue = "2", description = "stream threads of the embedded scorer (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--attach", description = "measure the running scorer instead of starting one")
    boolean attach;

    @Option(names = "--timeout", defaultValue = "PT10M", description = "give up after (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Mixin
    ConnectionOptions connection;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path tmp = null;
        EmbeddedStack stack = null;
        ScorerApp scorer = null;
        try {
            Endpoints ep;
            Path mazes;
            if (attach) {
                ep = connection.resolve();
                mazes = artifactDir != null ? artifactDir : Path.of("mmgr-bench-mazes");
            } else {
                tmp = Files.createTempDirectory("mmgr-load-");
                mazes = artifactDir != null ? artifactDir : tmp.resolve("mazes");
                Files.createDirectories(mazes);
                stack = EmbeddedStack.start(tmp, 0, 0);
                ScorerSettings settings = ScorerSettings.defaults();
                settings = settings.withStreamThreads(threads).withArtifactRoots(List.of(mazes));
                scorer = ScorerApp.start(settings, stack.bootstrapServers(), stack.registryUrl(), tmp.resolve("streams"),
                        Duration.ofMinutes(2));
                ep = new Endpoints(stack.bootstrapServers(), stack.registryUrl(), settings.topicPrefix());
                out.printf("embedded broker started in %d ms%n", stack.kafka().startTime().toMillis());
            }
            try (SchemaRegistryClient registry = new SchemaRegistryClient(ep.registryUrl(), connection.registryProperties())) {
                Topics topics = new Topics(ep.topicPrefix(), 1, (short) 1, new AvroSerdes(registry, true));
                Map<String, Object> clientConfig = connection.kafkaProperties(ep.bootstrapServers());
                long stamp = System.currentTimeMillis();
                MagmaWorkload light = new MagmaWorkload(items, steps, 42);
                if (rawRecords > 0) {
                    byte[] payload = topics.generations.valueSerde().serializer()
                            .serialize(topics.generations.name(), light.event("raw", 0));
                    int partitions = ScorerSettings.defaults().partitions();
                    out.println(RawThroughput.measure(clientConfig, ep.topicPrefix() + "bench-raw-" + stamp, partitions,
                            rawRecords, payload, timeout).summary());
                    out.flush();
                }
                LoadRunner runner = new LoadRunner(clientConfig, topics);
                if (workload != Kind.heavy) {
                    Progress progress = new Progress(spec.commandLine().getErr(), samples, "light samples scored");
                    LoadReport report = runner.run(light, "load-light-" + stamp, samples, rate, timeout, n -> progress.step());
                    progress.finish();
                    out.println(report.summary());
                    out.flush();
                }
                if (workload != Kind.light) {
                    MazeWorkload heavy = MazeWorkload.generate(mazes, heavyItems, 42);
                    Progress progress = new Progress(spec.commandLine().getErr(), heavySamples, "heavy samples scored");
                    LoadReport report = runner.run(heavy, "load-heavy-" + stamp, heavySamples, rate, timeout, n -> progress.step());
                    progress.finish();
                    out.println(report.summary());
                }
            }
            return 0;
        } finally {
            if (scorer != null) {
                scorer.close();
            }
            if (stack != null) {
                stack.close();
            }
            if (tmp != null) {
                deleteRecursively(tmp);
            }
        }
    }

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temporary directory; the OS cleans what is left
        }
    }
}
