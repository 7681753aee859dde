package io.mmgr.stream.cli;

import io.mmgr.stream.app.EmbeddedStack;
import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.bench.DashboardLatencyProbe;
import io.mmgr.stream.bench.LoadReport;
import io.mmgr.stream.bench.LoadRunner;
import io.mmgr.stream.bench.MagmaWorkload;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.topology.Topics;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mmgr bench load}: end-to-end throughput and latency of the scorer on synthetic Magma episodes. */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Publish synthetic Mind2Web episodes and measure samples/s and event->score latency.",
                "By default it starts a fresh embedded broker, registry and scorer in a temporary directory;",
                "--attach measures the scorer already running in --data-dir (or at the given endpoints) instead."})
public final class BenchLoadCommand implements Callable<Integer> {

    @Option(names = "--samples", defaultValue = "20000", description = "generation events to send (default: ${DEFAULT-VALUE})")
    long samples;

    @Option(names = "--items", defaultValue = "1000", description = "benchmark items (episodes) (default: ${DEFAULT-VALUE})")
    int items;

    @Option(names = "--steps", defaultValue = "5", description = "UI steps per episode (default: ${DEFAULT-VALUE})")
    int steps;

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

    @Option(names = "--warmup", defaultValue = "PT10S", description = "dashboard updates in this first part of the run are left out (default: ${DEFAULT-VALUE})")
    Duration warmup;

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
            if (attach) {
                ep = connection.resolve();
            } else {
                tmp = Files.createTempDirectory("mmgr-load-");
                stack = EmbeddedStack.start(tmp, 0, 0);
                ScorerSettings settings = ScorerSettings.defaults();
                settings = new ScorerSettings(settings.topicPrefix(), settings.applicationId(), settings.partitions(),
                        (short) 1, false, settings.artifactRoots(), settings.maxArtifactBytes(), threads, settings.kafkaOverrides());
                ScorerApp.Options options = dashboard
                        ? ScorerApp.Options.defaults().withWeb("127.0.0.1", 0, "127.0.0.1") : ScorerApp.Options.defaults();
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
                LoadRunner runner = new LoadRunner(connection.kafkaProperties(ep.bootstrapServers()), topics);
                Progress progress = new Progress(spec.commandLine().getErr(), samples, "samples scored");
                String runId = "load-" + System.currentTimeMillis();
                DashboardLatencyProbe probe = dashboardUrl != null && (dashboard || attach)
                        ? new DashboardLatencyProbe(dashboardUrl, runId, items, samples) : null;
                long started = System.currentTimeMillis();
                LoadReport report = runner.run(new MagmaWorkload(items, steps, 42), runId, samples, rate, 0.7, timeout,
                        n -> progress.step(), probe == null ? (n, at) -> { } : probe);
                progress.finish();
                out.println(report.summary());
                if (probe != null) {
                    Thread.sleep(1000); // the last updates
                    out.println(probe.summary(started + warmup.toMillis()));
                    probe.close();
                    out.println("stage lag (event produced -> stage output visible), from " + dashboardUrl + "metrics:");
                    out.println(stageLags(dashboardUrl + "metrics"));
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
    static String stageLags(String metricsUrl) {
        try {
            String text = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(metricsUrl)).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
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

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temporary directory; the OS cleans what is left
        }
    }
}
