package io.mmgr.stream.bench.cluster;

import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.bench.LoadReport;
import io.mmgr.stream.bench.LoadRunner;
import io.mmgr.stream.bench.MagmaWorkload;
import io.mmgr.stream.bench.RawThroughput;
import io.mmgr.stream.bench.RestartBench;
import io.mmgr.stream.bench.ScorerProcess;
import io.mmgr.stream.bench.ScriptedVlmServer;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A fault run on the {@link ClusterHarness}: scorers and the judge worker under a steady {@link MixedLoad}, faults one
 * after the other, each followed by the wait until every score partition has scored again; then the pass criteria
 * ({@link ClusterChecks}). Per fault it records the gap in scoring, the rebalances and the transactions aborted.
 */
public final class ClusterRun {

    /** What may go wrong, in the order a run takes them. */
    public enum Fault {
        /** kill -9 of the broker leading the most partitions, started again after {@code brokerDown}. */
        BROKER_LEADER("kill -9 the busiest leader broker"),
        /** kill -9 of the active controller (the KRaft quorum leader), started again after {@code brokerDown}. */
        CONTROLLER("kill -9 the active controller"),
        /** every broker stopped (controlled shutdown) and started again, one by one, all replicas back in sync between. */
        ROLLING_RESTART("rolling restart of every broker"),
        /** kill -9 of the scorer holding the most score-writing tasks, not started again. */
        SCORER_LOST("kill -9 a scorer for good"),
        /** kill -9 of the judge worker with calls in flight, started again. */
        JUDGE_WORKER("kill -9 the judge worker mid-batch, restart it"),
        /** a scorer started mid-run, then stopped cleanly. */
        SCORER_ADDED("add a scorer, then stop it cleanly");

        final String label;

        Fault(String label) {
            this.label = label;
        }
    }

    /** The faults the test runs within its time budget; the bench runs them all. */
    public static final List<Fault> COMPACT = List.of(Fault.BROKER_LEADER, Fault.SCORER_LOST, Fault.JUDGE_WORKER,
            Fault.SCORER_ADDED);

    /** A partition without a score for this long is still stalled (a steady load gives each several a second). */
    static final Duration QUIET = Duration.ofSeconds(3);

    /** How long a restarted broker may take to lead its partitions again (the controller checks every 10 s). */
    static final Duration LEADERSHIP_BACK = Duration.ofSeconds(60);

    /** How long a partition is silent after a fault's end before the scorers' threads are dumped (once a fault). */
    static final Duration STALL_DUMP = Duration.ofSeconds(20);

    /** The longest any score partition may go without a score after a fault. */
    public static final Duration RESUME_BOUND = Duration.ofSeconds(30);

    /**
     * @param scorers    scorers started side by side at the beginning
     * @param rate       events per second of the steady load
     * @param brokerDown how long a killed broker stays down
     * @param throughputSamples light samples sent as fast as possible with 1, 2 and 3 scorers after the checks, beside
     *                   the raw cluster's records/s; 0: not measured
     */
    public record Settings(ClusterHarness.Settings harness, List<Fault> faults, int scorers, double rate, Duration brokerDown,
                           long throughputSamples) {
    }

    /** One fault's timeline. */
    public record FaultResult(String fault, long at, long end, Duration took, ScoreTimeline.Gap gap, ScoreTimeline.Gap judgedGap,
                              ProcessLogs.Counts logs, String note, long abortedRecords) {
        public String describe() {
            return String.format(Locale.ROOT, "%-46s %s%n    judged scores: %s%n    %s; %s fault took %.1f s%s", fault,
                    gap.describe(), judgedGap.describe(), logs.describe(),
                    abortedRecords < 0 ? "" : abortedRecords + " score records in aborted transactions;",
                    took.toMillis() / 1000.0, note.isEmpty() ? "" : "\n    " + note);
        }

        FaultResult withNote(String text) {
            return new FaultResult(fault, at, end, took, gap, judgedGap, logs, text, abortedRecords);
        }

        FaultResult withAborted(List<Long> abortedAt) {
            return new FaultResult(fault, at, end, took, gap, judgedGap, logs, note,
                    abortedAt.stream().filter(t -> t >= at && t <= end).count());
        }
    }

    /** What a run found: the faults' timelines, the checks' lines, and the failures among them. */
    public record Report(List<FaultResult> faults, List<String> checks, List<String> failures, String load,
                         List<String> throughput, Duration took) {
        public boolean passed() {
            return failures.isEmpty();
        }

        public String describe() {
            StringBuilder b = new StringBuilder("Faults (gap in scoring: last score before the fault, first after; the longest "
                    + "any score partition went without a score):\n");
            faults.forEach(f -> b.append("  ").append(f.describe()).append('\n'));
            b.append(load).append('\n');
            if (!throughput.isEmpty()) {
                b.append("Throughput on the cluster, light samples sent as fast as possible:\n");
                throughput.forEach(t -> b.append("  ").append(t).append('\n'));
            }
            checks.forEach(c -> b.append("  ").append(c).append('\n'));
            b.append(String.format(Locale.ROOT, "Verdict: %s (%d of %d checks failed) in %.0f s%n", passed() ? "PASS" : "FAIL",
                    failures.size(), checks.size(), took.toMillis() / 1000.0));
            return b.toString();
        }
    }

    private final Settings settings;
    private final PrintWriter out;
    private final List<Long> judgeKills = new ArrayList<>();

    private ClusterRun(Settings settings, PrintWriter out) {
        this.settings = settings;
        this.out = out;
    }

    public static Report run(Settings settings, PrintWriter out) throws Exception {
        return new ClusterRun(settings, out).run();
    }

    private Report run() throws Exception {
        // this JVM's own clients lose brokers by design: their warnings say nothing the timeline does not
        org.apache.logging.log4j.core.config.Configurator.setLevel("org.apache.kafka", org.apache.logging.log4j.Level.ERROR);
        long t0 = System.nanoTime();
        String runId = "cluster-" + System.currentTimeMillis();
        try (ClusterHarness h = ClusterHarness.start(settings.harness(), out)) {
            h.startScorers(settings.scorers(), true);
            say("%d scorers started side by side, and the judge worker (%.1f s)", settings.scorers(), (System.nanoTime() - t0) / 1e9);
            ClusterChecks checks = new ClusterChecks(h.clientConfig(), h.topics(), runId);
            List<FaultResult> results = new ArrayList<>();
            Map<SampleKey, Double> expected;
            Map<SampleKey, Map<String, Double>> gates;
            Map<SampleKey, List<SampleScore>> scores;
            String loadLine;
            try (ScoreTimeline timeline = new ScoreTimeline(h.clientConfig(), h.topics());
                 ScoreTimeline written = new ScoreTimeline(h.clientConfig(), h.topics(), false);
                 MixedLoad load = new MixedLoad(h.clientConfig(), h.topics(), runId, h.artifacts(), settings.rate())) {
                load.start();
                long loadStart = System.currentTimeMillis();
                if (!timeline.awaitScores(loadStart, 100, Duration.ofMinutes(3))) {
                    throw new IllegalStateException("the cluster scored " + timeline.count() + " samples in 3 minutes; "
                            + load.describe());
                }
                say("scoring under load: %d samples scored (%.1f s)", timeline.count(), (System.nanoTime() - t0) / 1e9);
                for (Fault f : settings.faults()) {
                    results.addAll(apply(f, h, timeline, checks));
                }
                load.stop(Duration.ofMinutes(2));
                loadLine = load.describe();
                expected = load.expected();
                gates = load.expectedGates();
                say("load stopped: %s; waiting for every sample's score", loadLine);
                scores = checks.awaitScored(expected, Duration.ofMinutes(3));
                // every transaction has ended by now, and both timelines have read what it wrote
                Thread.sleep(2000);
                List<Long> aborted = written.abortedSince(timeline);
                results.replaceAll(r -> r.withAborted(aborted));
                loadLine += "; " + aborted.size() + " score records written in aborted transactions over the run";
            }
            checks.scoredExactlyOnce(expected, gates, scores);
            checks.leaderboardMatchesScores(scores, Duration.ofMinutes(1));
            checks.noDeadLetters();
            // a call in flight at the kill: answered within the provider's latency and the worker's commit before it
            checks.noJudgeRequestBilledTwice(h.provider(), judgeKills, settings.harness().providerLatency().plusSeconds(2));
            for (FaultResult r : results) {
                // judged samples apart as well: their lane (judge requests, the worker, verdicts) is what a judge
                // worker's loss stops, while the light samples on the same partitions go on scoring
                ScoreTimeline.Gap worst = r.judgedGap().stallMillis() > r.gap().stallMillis() ? r.judgedGap() : r.gap();
                checks.check(worst.stallMillis() <= RESUME_BOUND.toMillis(),
                        r.fault() + ": a score partition went " + (worst.open() ? "at least " : "")
                                + worst.stallMillis() / 1000.0 + " s without a" + (worst == r.gap() ? "" : " judged") + " score",
                        r.fault() + ": every score partition scored again within " + RESUME_BOUND.toSeconds()
                                + " s, judged samples too");
            }
            if (settings.faults().stream().anyMatch(f -> f == Fault.BROKER_LEADER || f == Fault.CONTROLLER
                    || f == Fault.ROLLING_RESTART)) {
                KafkaCluster.Leaders led = awaitPreferredLeaders(h.kafka(), LEADERSHIP_BACK);
                checks.check(led.notPreferred() == 0, led.notPreferred() + " partitions still led by another node than their "
                                + "preferred replica at the end: " + led.led(),
                        "every partition is led by its preferred replica again at the end (leader.imbalance.check.interval.seconds): "
                                + led.led());
            }
            List<String> throughput = settings.throughputSamples() > 0 ? throughput(h) : List.of();
            h.stopClients();
            checks.noHangingTransactions();
            return new Report(results, checks.lines(), checks.failures(), loadLine, throughput,
                    Duration.ofNanos(System.nanoTime() - t0));
        }
    }

    private List<FaultResult> apply(Fault f, ClusterHarness h, ScoreTimeline timeline, ClusterChecks checks) throws Exception {
        long at = System.currentTimeMillis();
        String note = "";
        List<ScorerProcess> watched = new ArrayList<>(h.scorers());
        if (h.judgeWorker() != null) {
            watched.add(h.judgeWorker());
        }
        List<FaultResult> results = new ArrayList<>();
        switch (f) {
            case BROKER_LEADER, CONTROLLER -> {
                Map<Integer, Integer> led = h.kafka().leadership();
                int victim = f == Fault.BROKER_LEADER ? h.kafka().busiestLeader() : h.kafka().activeController();
                at = System.currentTimeMillis();
                h.kafka().kill(victim);
                Thread.sleep(settings.brokerDown().toMillis());
                h.kafka().restart(victim, settings.harness().timeout());
                long back = System.currentTimeMillis();
                // back means leading all its partitions again too: the controller's preferred-leader election moves
                // partitions and group coordinators to it, which must not fall into the next fault's window (a group
                // coordinator moved there gives every member a new session: the likely cause of a lost scorer found
                // 22.6 s after its kill, not 10 s, when this wait ended as soon as the node led any partition)
                KafkaCluster.Leaders after = awaitPreferredLeaders(h.kafka(), LEADERSHIP_BACK);
                note = String.format(Locale.ROOT, "node %d killed (leadership before: %s), back after %d s, leading again "
                        + "%.1f s later: %s", victim, led, (back - at) / 1000, (System.currentTimeMillis() - back) / 1000.0, after);
            }
            case ROLLING_RESTART -> {
                List<String> restarts = new ArrayList<>();
                for (KafkaCluster.NodeProcess n : h.kafka().nodes()) {
                    h.kafka().awaitFullIsr(Duration.ofMinutes(2));
                    long t = System.currentTimeMillis();
                    h.kafka().stop(n.id());
                    h.kafka().restart(n.id(), settings.harness().timeout());
                    long back = System.currentTimeMillis();
                    KafkaCluster.Leaders after = awaitPreferredLeaders(h.kafka(), LEADERSHIP_BACK);
                    restarts.add(String.format(Locale.ROOT, "node %d back in %.1f s, leading again %.1f s later%s", n.id(),
                            (back - t) / 1000.0, (System.currentTimeMillis() - back) / 1000.0,
                            after.notPreferred() == 0 ? "" : " (" + after + ")"));
                }
                note = "one by one: " + String.join("; ", restarts);
            }
            case SCORER_LOST -> {
                // the scorer whose loss stops the most scores: the one holding the most score-writing tasks (a
                // scorer holding none would be lost without a gap in scoring, saying nothing of the failover)
                Map<ScorerProcess, Integer> held = h.generationsHeld();
                ScorerProcess victim = held.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
                ScorerProcess survivor = h.scorers().stream().filter(s -> s != victim).findFirst().orElseThrow();
                String victimRoot = ClusterHarness.webRoot(victim);
                at = System.currentTimeMillis();
                victim.kill();
                String holders = held.entrySet().stream().map(e -> e.getKey().dataDir().getFileName() + " " + e.getValue())
                        .collect(java.util.stream.Collectors.joining(", "));
                checks.check(held.get(victim) > 0, "the lost scorer held no partition of the generations topic: " + holders,
                        "the lost scorer held score-writing tasks (" + holders + ")");
                note = String.format(Locale.ROOT, "%s killed, of the generations topic's %d partitions holding %d (%s); ",
                        victim.dataDir().getFileName(), settings.harness().partitions(), held.get(victim), holders)
                        + partialAnswer(ClusterHarness.webRoot(survivor), victimRoot, checks);
            }
            case JUDGE_WORKER -> {
                // mid-batch: calls under way at the provider
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (h.provider().requestCount() <= h.provider().seen().size() && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                int inFlight = h.provider().requestCount() - h.provider().seen().size();
                at = System.currentTimeMillis();
                judgeKills.add(System.nanoTime());
                h.killJudgeWorker();
                h.restartJudgeWorker();
                note = String.format(Locale.ROOT, "%d provider calls in flight at the kill; worker running again %.1f s later",
                        inFlight, (System.currentTimeMillis() - at) / 1000.0);
            }
            case SCORER_ADDED -> {
                ScorerProcess added = h.startScorers(1, false).get(0);
                results.add(settle("add a scorer", at, h, timeline, watched,
                        String.format(Locale.ROOT, "started in %.1f s", (System.currentTimeMillis() - at) / 1000.0)));
                watched.add(added);
                at = System.currentTimeMillis();
                int exit = added.stop();
                checks.check(exit == 0 || exit == 143, "the added scorer's clean stop exited with " + exit,
                        "the added scorer stopped cleanly (exit " + exit + ")");
                results.add(settle("stop the added scorer cleanly", at, h, timeline, watched, "exit " + exit));
                return results;
            }
            default -> throw new IllegalArgumentException(f.name());
        }
        FaultResult r = settle(f.label, at, h, timeline, watched, note);
        if (f == Fault.SCORER_LOST) {
            // where the stall went: the dead member's session and the rebalance, then the survivor's restore and catch-up
            ScorerProcess survivor = h.scorers().get(0);
            long rebalanced = ProcessLogs.firstAfter(survivor, ProcessLogs.REBALANCE, at);
            long running = rebalanced < 0 ? -1 : ProcessLogs.firstAfter(survivor, ProcessLogs.RUNNING_AGAIN, rebalanced);
            String survived = rebalanced < 0 ? "the survivor logged no rebalance"
                    : String.format(Locale.ROOT, "the survivor rebalanced %.1f s after the kill, ran again %s", (rebalanced - at) / 1000.0,
                    running < 0 ? "not yet" : String.format(Locale.ROOT, "%.1f s after it", (running - at) / 1000.0));
            r = r.withNote(r.note() + "; " + survived);
            out.println("    " + survived);
        }
        results.add(r);
        return results;
    }

    /**
     * Waits until every score partition has scored after the fault's end (or the resume bound and a margin have
     * passed), then reads the gap and the logs of the window.
     */
    private FaultResult settle(String fault, long at, ClusterHarness h, ScoreTimeline timeline, List<ScorerProcess> watched,
                               String note) throws InterruptedException {
        long done = System.currentTimeMillis();
        long deadline = done + RESUME_BOUND.toMillis() + 15_000;
        List<String> dumps = new ArrayList<>();
        while (System.currentTimeMillis() < deadline) {
            // a partition silent for STALL_DUMP after the fault's end: where every scorer's threads wait then
            if (dumps.isEmpty() && System.currentTimeMillis() - done > STALL_DUMP.toMillis()
                    && timeline.silentPartitions(done, STALL_DUMP, null) + timeline.silentPartitions(done, STALL_DUMP,
                    MixedLoad.JUDGED_TASK) > 0) {
                dumps.addAll(threadDumps(h, fault));
            }
            // every partition scored in the last moments and after the fault was over, judged samples too (a judge
            // worker's loss stops only those): the stall is over. After the fault, not only lately: a partition whose
            // last score came just before a kill counted as scoring for QUIET after it, which ended a lost scorer's
            // window 2.3 s after the kill, before its partitions moved (the rebalance then fell in the next fault's)
            if (System.currentTimeMillis() - done > 2000 && timeline.silentPartitions(done, QUIET, null) == 0
                    && timeline.silentPartitions(done, QUIET, MixedLoad.JUDGED_TASK) == 0) {
                break;
            }
            Thread.sleep(500);
        }
        long end = System.currentTimeMillis();
        ScoreTimeline.Gap gap = timeline.gap(at, Duration.ofMillis(end - at), null);
        ScoreTimeline.Gap judged = timeline.gap(at, Duration.ofMillis(end - at), MixedLoad.JUDGED_TASK);
        // where a judged stall sat: no calls at the provider means the worker's side (its requests, its consumer),
        // calls going on means downstream of it (its verdicts' writes, the scorers' join)
        String calls = h.provider() == null ? "" : providerGap(h.provider().seen(), at, end);
        if (!dumps.isEmpty()) {
            calls += "; thread dumps " + STALL_DUMP.toSeconds() + " s into a stall: " + String.join(", ", dumps);
        }
        FaultResult r = new FaultResult(fault, at, end, Duration.ofMillis(done - at), gap, judged,
                ProcessLogs.between(watched, at, end), note.isEmpty() ? calls : note + "; " + calls, -1);
        out.println(r.describe());
        out.flush();
        return r;
    }

    /** Each live scorer's thread dump, in its data directory; the files written. */
    private static List<String> threadDumps(ClusterHarness h, String fault) throws InterruptedException {
        List<String> files = new ArrayList<>();
        String name = "stall-" + fault.replaceAll("[^a-z0-9]+", "-") + "-" + System.currentTimeMillis() + ".txt";
        for (ScorerProcess s : h.scorers()) {
            Path file = s.dataDir().resolve(name);
            if (s.threadDump(file)) {
                files.add(s.dataDir().getFileName() + "/" + name);
            }
        }
        return files;
    }

    /** The longest time in [{@code at}, {@code end}] (epoch ms) without a call arriving at the provider. */
    static String providerGap(List<ScriptedVlmServer.Seen> seen, long at, long end) {
        // the provider stamps arrivals with this JVM's nanoTime
        long offset = System.currentTimeMillis() - System.nanoTime() / 1_000_000;
        List<Long> times = seen.stream().map(x -> x.arrivedNanos() / 1_000_000 + offset).filter(t -> t >= at && t <= end)
                .sorted().toList();
        ScoreTimeline.Silence s = ScoreTimeline.Silence.in(times, at, end);
        return String.format(Locale.ROOT, "provider calls: %d in the window, longest without one %.1f s (from +%.1f s)",
                times.size(), s.longest() / 1000.0, (s.longestFrom() - at) / 1000.0);
    }

    /**
     * Samples/s with one, two and three scorers (started or stopped to that count, each count measured once the
     * group has settled), beside the raw cluster's produce-to-consume records/s with the same payload, replication
     * and partitions, measured first in the same run.
     */
    private List<String> throughput(ClusterHarness h) throws Exception {
        List<String> lines = new ArrayList<>();
        MagmaWorkload light = new MagmaWorkload(500, 5, 42, "tp-");
        var topics = h.topics();
        byte[] payload = topics.generations.valueSerde().serializer().serialize(topics.generations.name(), light.event("raw", 0));
        RawThroughput.Result raw = RawThroughput.measure(h.clientConfig(), ClusterHarness.PREFIX + "bench-raw",
                settings.harness().partitions(), (short) 3, 20 * settings.throughputSamples(), payload, Duration.ofMinutes(5));
        lines.add(raw.summary() + " (replication 3, acks=all)");
        say("%s", lines.get(0));
        for (int k = 1; k <= 3; k++) {
            while (h.scorers().size() < k) {
                h.startScorers(1, false);
            }
            while (h.scorers().size() > k) {
                List<ScorerProcess> live = h.scorers();
                live.get(live.size() - 1).stop();
            }
            awaitSettled(h.scorers(), Duration.ofMinutes(2));
            LoadReport r = new LoadRunner(h.clientConfig(), topics).run(light, "throughput-" + k + "-" + System.currentTimeMillis(),
                    settings.throughputSamples(), 0, Duration.ofMinutes(5), n -> { });
            lines.add(String.format(Locale.ROOT, "%d scorer%s: %.0f samples/s (%d samples in %.1f s; event -> score p50 %d ms, "
                            + "p95 %d ms); load average %s", k, k == 1 ? "" : "s", r.samplesPerSecond(), r.samples(), r.scoreSeconds(),
                    LoadReport.percentile(r.scoreLatencies(), 50), LoadReport.percentile(r.scoreLatencies(), 95),
                    RestartBench.loadAverage()));
            say("%s", lines.get(lines.size() - 1));
        }
        return lines;
    }

    /**
     * Leadership once every partition is led by its preferred replica (the controller's preferred-leader election gave
     * a restarted node all its own back), or as it is after {@code timeout}.
     */
    private static KafkaCluster.Leaders awaitPreferredLeaders(KafkaCluster kafka, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        // twice in a row, a second apart: one answer may come from a node whose metadata lags
        KafkaCluster.Leaders now = kafka.leaders();
        int inARow = now.notPreferred() == 0 ? 1 : 0;
        while (inARow < 2 && System.nanoTime() < deadline) {
            Thread.sleep(1000);
            now = kafka.leaders();
            inARow = now.notPreferred() == 0 ? inARow + 1 : 0;
        }
        return now;
    }

    /** Waits until every scorer's state file has said RUNNING for three seconds in a row. */
    private static void awaitSettled(List<ScorerProcess> scorers, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long runningSince = 0;
        while (System.nanoTime() < deadline) {
            boolean all = scorers.stream().allMatch(s -> "RUNNING".equals(state(s)));
            runningSince = all ? (runningSince == 0 ? System.nanoTime() : runningSince) : 0;
            if (runningSince != 0 && System.nanoTime() - runningSince > 3_000_000_000L) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the scorers did not settle (all RUNNING) within " + timeout);
    }

    private static String state(ScorerProcess s) {
        try {
            return java.nio.file.Files.readString(s.dataDir().resolve("scorer.state")).strip();
        } catch (java.io.IOException e) {
            return "";
        }
    }

    /**
     * The survivor's REST API while the dead instance's session runs: the leaderboard it holds, 200, marked partial
     * with the dead instance named ({@code X-MMGR-Partial}), not a 503.
     */
    private static String partialAnswer(String survivor, String dead, ClusterChecks checks) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(survivor + "/api/leaderboard"))
                .timeout(Duration.ofSeconds(20)).GET().build(), HttpResponse.BodyHandlers.ofString());
        String partial = r.headers().firstValue("X-MMGR-Partial").orElse("");
        String deadHost = URI.create(dead).getAuthority();
        checks.check(r.statusCode() == 200 && partial.contains(deadHost),
                "the survivor's /api/leaderboard answered " + r.statusCode() + " with X-MMGR-Partial '" + partial
                        + "' while " + deadHost + " was dead",
                "REST API while the dead scorer's session ran: 200, X-MMGR-Partial: " + partial);
        return "survivor's /api/leaderboard right after the kill: " + r.statusCode() + ", X-MMGR-Partial: " + partial;
    }

    private void say(String format, Object... args) {
        out.printf(format + "%n", args);
        out.flush();
    }

    /** A harness directory under {@code base}, named by the time, so runs keep their logs side by side. */
    public static Path runDir(Path base) {
        return base.resolve("cluster-" + java.time.LocalDateTime.now().format(
                java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }
}
