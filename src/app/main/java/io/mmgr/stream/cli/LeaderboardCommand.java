package io.mmgr.stream.cli;

import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.MetricStat;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mmgr leaderboard}: the current leaderboard rows as a table (or JSON lines). */
@Command(name = "leaderboard", mixinStandardHelpOptions = true,
        description = "Print the current leaderboard: one row per run x checkpoint x task, and '*' for all tasks of a checkpoint.")
public final class LeaderboardCommand implements Callable<Integer> {

    @Option(names = "--run", description = "only this run")
    String run;

    @Option(names = "--task", description = "only this task ('*' for the all-tasks rows)")
    String task;

    @Option(names = "--metrics", description = "also print the mean of every fine-grained metric and, on task rows, the agreement between judge, evaluators and human labels")
    boolean metrics;

    @Option(names = "--json", description = "one JSON object per row instead of a table")
    boolean json;

    @Mixin
    ConnectionOptions connection;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Endpoints ep = connection.resolve();
        PrintWriter out = spec.commandLine().getOut();
        List<LeaderboardRow> rows;
        try (SchemaRegistryClient registry = new SchemaRegistryClient(ep.registryUrl(), connection.registryProperties())) {
            Topics topics = new Topics(ep.topicPrefix(), 1, (short) 1, new AvroSerdes(registry, false));
            Map<LeaderboardKey, LeaderboardRow> latest = TopicSnapshot.latest(connection.kafkaProperties(ep.bootstrapServers()),
                    topics.leaderboard.name(), topics.leaderboard.keySerde().deserializer(),
                    topics.leaderboard.valueSerde().deserializer(), Duration.ofSeconds(30));
            rows = new ArrayList<>(latest.values());
        }
        rows.removeIf(r -> (run != null && !run.equals(r.getRunId())) || (task != null && !task.equals(r.getTask())));
        rows.sort(Comparator.comparing(LeaderboardRow::getRunId)
                .thenComparingLong(LeaderboardRow::getTrainingStep)
                .thenComparing(LeaderboardRow::getCheckpointId)
                .thenComparing(r -> SampleKeys.ALL_TASKS.equals(r.getTask()) ? "\uffff" : r.getTask()));
        if (json) {
            rows.forEach(r -> out.println(JsonAvro.toJson(r)));
        } else {
            printTable(out, rows, metrics);
        }
        out.flush();
        return 0;
    }

    static void printTable(PrintWriter out, List<LeaderboardRow> rows, boolean withMetrics) {
        if (rows.isEmpty()) {
            out.println("(no leaderboard rows yet)");
            return;
        }
        String fmt = "%-16s %-14s %10s %-20s %13s %8s %17s %7s %7s  %s%n";
        out.printf(fmt, "RUN", "CHECKPOINT", "STEP", "TASK", "SCORED/EXPECT", "PRIMARY", "95% CI", "FAILED", "PENDING", "PASS@K");
        for (LeaderboardRow r : rows) {
            out.printf(fmt, clip(r.getRunId(), 16), clip(r.getCheckpointId(), 14), r.getTrainingStep(), clip(r.getTask(), 20),
                    r.getSamplesScored() + "/" + r.getSamplesExpected(),
                    r.getPrimaryRate() == null ? "-" : String.format("%.3f", r.getPrimaryRate()),
                    r.getPrimaryCiLow() == null ? "-" : String.format("[%.3f, %.3f]", r.getPrimaryCiLow(), r.getPrimaryCiHigh()),
                    r.getSamplesFailed(), r.getSamplesPending(), passAtK(r.getPassAtK()));
            if (withMetrics) {
                new TreeMap<>(r.getMetrics()).forEach((k, v) -> out.printf("      %-48s %.4f (n=%d)%n", k, v.getMean(), v.getCount()));
                new TreeMap<>(r.getAgreement()).forEach((k, a) -> out.printf("      agreement %-38s %s, %d pairs, agree %s, kappa %s (%s)%n",
                        k, a.getReliability(), a.getPairs(),
                        a.getPercentAgreement() == null ? "-" : String.format("%.1f%%", a.getPercentAgreement() * 100),
                        kappa(a), a.getBasis()));
            }
        }
    }

    private static String passAtK(Map<String, MetricStat> pass) {
        StringBuilder sb = new StringBuilder();
        TreeMap<Integer, MetricStat> byK = new TreeMap<>();
        pass.forEach((k, v) -> byK.put(Integer.parseInt(k.substring(k.indexOf('@') + 1)), v));
        byK.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append("@").append(k).append("=").append(String.format("%.2f", v.getMean())));
        return sb.length() == 0 ? "-" : sb.toString();
    }

    private static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "~";
    }

    /** Kappa with its 95 % interval when the row carries one (rows written before it existed do not). */
    static String kappa(io.mmgr.stream.avro.AgreementStat a) {
        if (a.getKappa() == null) {
            return "-";
        }
        String k = String.format("%.2f", a.getKappa());
        return a.getKappaLow() == null || a.getKappaHigh() == null ? k
                : k + String.format(" [%.2f, %.2f]", a.getKappaLow(), a.getKappaHigh());
    }
}
