package io.mmgr.stream.cli;

import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.report.ReportPage;
import io.mmgr.stream.contract.Topics;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mmgr report}: one run's result as a self-contained HTML page, read from the scorer's topics. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write one run's result as a single self-contained HTML page: the curves, the checkpoints with the best "
                + "one marked, a checkpoint's leaderboard with its comparisons, and the alerts. Styles and the chart are inline; "
                + "no scripts, nothing fetched: attach it to a pull request or print it to PDF."})
public final class ReportCommand implements Callable<Integer> {

    @Option(names = "--run", required = true, description = "the run")
    String run;

    @Option(names = "--checkpoint", description = "the checkpoint whose leaderboard the page shows (default: the latest)")
    String checkpoint;

    @Option(names = "--out", required = true, description = "the HTML file to write")
    Path out;

    @Mixin
    ConnectionOptions connection;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Endpoints ep = connection.resolve();
        Map<String, Object> client = connection.kafkaProperties(ep.bootstrapServers());
        Duration timeout = Duration.ofSeconds(30);
        List<LeaderboardRow> rows;
        List<CheckpointComparison> comparisons;
        List<Alert> alerts = new ArrayList<>();
        try (SchemaRegistryClient registry = new SchemaRegistryClient(ep.registryUrl(), connection.registryProperties())) {
            Topics t = new Topics(ep.topicPrefix(), 1, (short) 1, new AvroSerdes(registry, false));
            rows = new ArrayList<>(TopicSnapshot.latest(client, t.leaderboard.name(), t.leaderboard.keySerde().deserializer(),
                    t.leaderboard.valueSerde().deserializer(), timeout).values());
            comparisons = new ArrayList<>(TopicSnapshot.latest(client, t.comparisons.name(), t.comparisons.keySerde().deserializer(),
                    t.comparisons.valueSerde().deserializer(), timeout).values());
            // one key holds both kinds of a checkpoint's alerts: the last revision of each, withdrawn ones left out
            Map<String, Alert> latest = new LinkedHashMap<>();
            for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(client, t.alerts.name(), timeout)) {
                if (r.value() != null) {
                    Alert a = t.alerts.valueSerde().deserializer().deserialize(t.alerts.name(), r.value());
                    latest.put(a.getRunId() + "\u0000" + a.getCheckpointId() + "\u0000" + a.getTask() + "\u0000" + a.getKind(), a);
                }
            }
            latest.values().stream().filter(a -> !a.getCleared()).forEach(alerts::add);
        }
        String html;
        try {
            html = ReportPage.html(run, checkpoint, rows, comparisons, alerts, Instant.now());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(out, html, StandardCharsets.UTF_8);
        PrintWriter w = spec.commandLine().getOut();
        w.println("Wrote " + out.toAbsolutePath() + " (" + html.length() / 1024 + " KiB, run " + run + ")");
        w.flush();
        return 0;
    }
}
