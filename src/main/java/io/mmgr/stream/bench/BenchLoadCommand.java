package io.mmgr.stream.bench;

import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.cli.ConnectionOptions;
import io.mmgr.stream.cli.Progress;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.demo.EmbeddedLocalStack;
import io.mmgr.stream.embedded.EmbeddedStack;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.topology.ScorerSettings;
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

    @Option(names = "--dashboard", description = "also measure event produced -> dashboard update: the embedded scorer "
            + "serves its dashboard and a client of its live feed times the leaderboard updates (--dashboard-url with --attach)")
    boolean dashboard;

    @Option(names = "--dashboard-url", description = "the running scorer's dashboard, e.g. http://127.0.0.1:8080/ (with --attach)")
    String dashboardUrl;

    @Option(names = "--web-token", defaultValue = "${env:MMGR_WEB_TOKEN}", paramLabel = "TOKEN",
            description = "the attached scorer's access token, sent as 'Authorization: Bearer' to its live feed and /metrics "
                    + "(env MMGR_WEB_TOKEN)")
    String webToken;

    @Option(names = "--warmup", defaultValue = "PT10S", description = "dashboard updates in this first part of the run are left out (default: ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(names = "--timeout", defaultValue = "PT10M", description = "give up after (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--scorer-property", paramLabel = "KEY=VALUE",
            description = "a property of the embedded scorer, as 'mmgr run -P' takes it (e.g. commit.interval.ms=50), "
                    + "to measure a setting against the default; not with --attach")
    Map<String, String> scorerProperties = new java.util.LinkedHashMap<>();

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
                if (!scorerProperties.isEmpty()) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--scorer-property needs the embedded scorer, not --attach");
                }
                ep = connection.resolve();
                mazes = artifactDir != null ? artifactDir : Path.of("mmgr-bench-mazes");
            } else {
                rejectScorerPropertiesGivenAsClientProperties();
                tmp = Files.createTempDirectory("mmgr-load-");
                mazes = artifactDir != null ? artifactDir : tmp.resolve("mazes");
                Files.createDirectories(mazes);
                stack = EmbeddedStack.start(tmp, 0, 0);
                ScorerSettings settings = ScorerSettings.defaults();
                settings = settings.withStreamThreads(threads).withArtifactRoots(List.of(mazes)).withKafkaOverrides(scorerProperties);
                ScorerApp.Options options = ScorerApp.Options.defaults().withCompanion(EmbeddedLocalStack.sweep());
                options = dashboard ? options.withWeb("127.0.0.1", 0, "127.0.0.1") : options;
                scorer = ScorerApp.start(settings, options, stack.bootstrapServers(), stack.registryUrl(), tmp.resolve("streams"),
                        Duration.ofMinutes(2));
                if (dashboard) {
                    dashboardUrl = scorer.web().orElseThrow().url();
                }
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
                    String runId = "load-light-" + stamp;
                    DashboardLatencyProbe probe = dashboardUrl != null && (dashboard || attach)
                            ? new DashboardLatencyProbe(dashboardUrl, attach ? webToken : null, runId, items, samples) : null;
                    long started = System.currentTimeMillis();
                    Progress progress = new Progress(spec.commandLine().getErr(), samples, "light samples scored");
                    LoadReport report = runner.run(light, runId, samples, rate, timeout, n -> progress.step(),
                            probe == null ? (n, at) -> { } : probe);
                    progress.finish();
                    out.println(report.summary());
                    if (probe != null) {
                        Thread.sleep(1000); // the last updates
                        out.println(probe.summary(started + warmup.toMillis()));
                        out.println(probe.timeline(started, 10_000));
                        probe.close();
                        out.println("stage lag (event produced -> stage output visible), from " + dashboardUrl + "metrics:");
                        out.println(stageLags(dashboardUrl + "metrics", attach ? webToken : null));
                    }
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

    /** p50 and p95 of mmgr_stage_lag_seconds per stage, in milliseconds, from a Prometheus scrape. */
    static String stageLags(String metricsUrl, String token) {
        try {
            String text = java.net.http.HttpClient.newHttpClient().send(DashboardLatencyProbe.request(metricsUrl, token),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            java.util.Map<String, String> byStage = new java.util.TreeMap<>();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^mmgr_stage_lag_seconds\\{([^}]*)\\} ([0-9.eE+-]+)$",
                    java.util.regex.Pattern.MULTILINE).matcher(text);
            while (m.find()) {
                java.util.regex.Matcher q = java.util.regex.Pattern.compile("quantile=\"([0-9.]+)\"").matcher(m.group(1));
                java.util.regex.Matcher st = java.util.regex.Pattern.compile("stage=\"([a-z]+)\"").matcher(m.group(1));
                if (q.find() && st.find()) {
                    byStage.merge(st.group(1), "p" + Math.round(Double.parseDouble(q.group(1)) * 100) + " "
                            + Math.round(Double.parseDouble(m.group(2)) * 1000) + " ms", (a, b) -> a + ", " + b);
                }
            }
            StringBuilder b = new StringBuilder();
            byStage.forEach((stage, v) -> b.append(String.format("  %-12s %s%n", stage, v)));
            return b.toString();
        } catch (Exception e) {
            return "  (metrics unavailable: " + e.getMessage() + ")";
        }
    }

    static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temporary directory; the OS cleans what is left
        }
    }

    /**
     * Without --attach, -P configures the load generator's own clients, and Kafka clients only warn about a key
     * they do not know: a scorer setting given there (say -P commit.interval.ms=50) would be measured against
     * itself without a word. It is refused, naming the option that sets it.
     */
    private void rejectScorerPropertiesGivenAsClientProperties() {
        List<String> notClient = notClientProperties(connection.propertyKeys());
        if (!notClient.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-P " + String.join(", ", notClient)
                    + ": not a Kafka client property; -P sets the load generator's clients, a setting of the embedded "
                    + "scorer is --scorer-property KEY=VALUE");
        }
    }

    /** The keys no Kafka client (producer, consumer, admin) knows, but for the registry client's own. */
    static List<String> notClientProperties(java.util.Collection<String> keys) {
        java.util.Set<String> client = new java.util.HashSet<>(org.apache.kafka.clients.producer.ProducerConfig.configNames());
        client.addAll(org.apache.kafka.clients.consumer.ConsumerConfig.configNames());
        client.addAll(org.apache.kafka.clients.admin.AdminClientConfig.configNames());
        return keys.stream().filter(k -> !client.contains(k) && !k.startsWith(SchemaRegistryClient.PROPERTY_PREFIX)).sorted().toList();
    }
}
