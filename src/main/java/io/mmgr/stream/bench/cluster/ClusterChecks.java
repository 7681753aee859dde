package io.mmgr.stream.bench.cluster;

import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.MetricStat;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The pass criteria of a cluster run, read from the topics, the provider and the cluster at its end. Each
 * check adds a line to the verdict; a failed one also a failure. Nothing here retries: the caller waits for the
 * scores to drain first ({@link #awaitScored}).
 */
public final class ClusterChecks {

    private static final double EPS = 1e-9;

    private final Map<String, Object> client;
    private final Topics topics;
    private final String runId;
    private final List<String> lines = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    public ClusterChecks(Map<String, Object> client, Topics topics, String runId) {
        this.client = client;
        this.topics = topics;
        this.runId = runId;
    }

    /** Every committed score record of the run, per sample, in topic order. */
    public Map<SampleKey, List<SampleScore>> scores() {
        Map<SampleKey, List<SampleScore>> out = new LinkedHashMap<>();
        var keys = topics.sampleScores.keySerde().deserializer();
        var values = topics.sampleScores.valueSerde().deserializer();
        for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(client, topics.sampleScores.name(), Duration.ofSeconds(60))) {
            SampleKey k = keys.deserialize(r.topic(), r.key());
            if (runId.equals(k.getRunId())) {
                out.computeIfAbsent(k, x -> new ArrayList<>()).add(r.value() == null ? null : values.deserialize(r.topic(), r.value()));
            }
        }
        return out;
    }

    /** Waits until every expected sample has a final (not PENDING) score; returns the records, or the last read. */
    public Map<SampleKey, List<SampleScore>> awaitScored(Map<SampleKey, Double> expected, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<SampleKey, List<SampleScore>> s;
        while (true) {
            s = scores();
            Map<SampleKey, List<SampleScore>> now = s;
            long done = expected.keySet().stream().filter(k -> isFinal(now.get(k))).count();
            if (done == expected.size() || System.nanoTime() > deadline) {
                return s;
            }
            Thread.sleep(1000);
        }
    }

    private static boolean isFinal(List<SampleScore> records) {
        return records != null && !records.isEmpty() && records.get(records.size() - 1) != null
                && !"PENDING".equals(records.get(records.size() - 1).getStatus());
    }

    /**
     * Every sample scored exactly once: one final record each (a judged sample may first have PENDING ones, while
     * its verdict waits), nothing after it, nothing for a sample never sent, and each primary the known one.
     */
    public void scoredExactlyOnce(Map<SampleKey, Double> expected, Map<SampleKey, Map<String, Double>> gates,
                                  Map<SampleKey, List<SampleScore>> records) {
        List<String> missing = new ArrayList<>();
        List<String> twice = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (var e : expected.entrySet()) {
            List<SampleScore> rs = records.get(e.getKey());
            if (!isFinal(rs)) {
                missing.add(SampleKeys.ref(e.getKey()));
                continue;
            }
            long finals = rs.stream().filter(r -> r != null && !"PENDING".equals(r.getStatus())).count();
            if (finals != 1) {
                twice.add(SampleKeys.ref(e.getKey()) + " x" + finals);
            }
            SampleScore last = rs.get(rs.size() - 1);
            if (!"COMPLETE".equals(last.getStatus()) || last.getPrimary() == null
                    || Math.abs(last.getPrimary() - e.getValue()) > EPS) {
                wrong.add(SampleKeys.ref(e.getKey()) + ": " + last.getStatus() + " primary " + last.getPrimary() + ", expected "
                        + e.getValue());
            }
            gates.getOrDefault(e.getKey(), Map.of()).forEach((gate, value) -> {
                Double got = last.getGates().get(gate);
                if (got == null || Math.abs(got - value) > EPS) {
                    wrong.add(SampleKeys.ref(e.getKey()) + ": gate " + gate + " " + got + ", expected " + value);
                }
            });
        }
        List<String> unknown = records.keySet().stream().filter(k -> !expected.containsKey(k)).map(SampleKeys::ref).toList();
        long pendingFirst = records.values().stream().filter(rs -> rs.size() > 1).count();
        check(missing.isEmpty(), "samples without a final score: " + missing.size() + first(missing));
        check(twice.isEmpty(), "samples scored more than once: " + twice.size() + first(twice));
        check(wrong.isEmpty(), "samples whose score is not the known one: " + wrong.size() + first(wrong));
        check(unknown.isEmpty(), "scores of samples never sent: " + unknown.size() + first(unknown));
        lines.add(String.format("scores: %d samples, each scored once with its known primary (%d first PENDING)",
                expected.size(), pendingFirst));
    }

    /** Every leaderboard row of the run equals what the latest scores give, recomputed here on their own. */
    public void leaderboardMatchesScores(Map<SampleKey, List<SampleScore>> records, Duration timeout) throws InterruptedException {
        Map<LeaderboardKey, Recomputed> want = new TreeMap<>(java.util.Comparator.comparing(LeaderboardKey::toString));
        records.forEach((k, rs) -> {
            SampleScore s = rs.get(rs.size() - 1);
            if (s != null) {
                want.computeIfAbsent(new LeaderboardKey(runId, k.getCheckpointId(), k.getTask()), x -> new Recomputed()).add(s);
                want.computeIfAbsent(new LeaderboardKey(runId, k.getCheckpointId(), SampleKeys.ALL_TASKS), x -> new Recomputed())
                        .add(s);
            }
        });
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> diffs;
        Map<LeaderboardKey, LeaderboardRow> board;
        do {
            board = TopicSnapshot.latest(client, topics.leaderboard.name(), topics.leaderboard.keySerde().deserializer(),
                    topics.leaderboard.valueSerde().deserializer(), Duration.ofSeconds(60));
            diffs = new ArrayList<>();
            for (var e : want.entrySet()) {
                String d = e.getValue().differenceFrom(board.get(e.getKey()));
                if (d != null) {
                    diffs.add(e.getKey().getCheckpointId() + "/" + e.getKey().getTask() + ": " + d);
                }
            }
            if (diffs.isEmpty()) {
                break;
            }
            Thread.sleep(1000);
        } while (System.nanoTime() < deadline);
        long extra = board.entrySet().stream().filter(e -> runId.equals(e.getKey().getRunId()) && !want.containsKey(e.getKey())
                && e.getValue() != null && e.getValue().getSamplesScored() > 0).count();
        check(diffs.isEmpty(), "leaderboard rows that differ from the scores: " + diffs.size() + first(diffs));
        check(extra == 0, "leaderboard rows with samples no score gives: " + extra);
        lines.add("leaderboard: " + want.size() + " rows, each equal to its recomputation from the sample scores");
    }

    /** The sums a row is made of, from the latest score of each sample. */
    static final class Recomputed {
        long scored;
        long failed;
        long partial;
        long pending;
        long primaryCount;
        long successes;
        double primarySum;
        final Map<String, double[]> metrics = new HashMap<>();

        void add(SampleScore s) {
            if ("PENDING".equals(s.getStatus())) {
                pending++;
                return;
            }
            scored++;
            failed += "FAILED".equals(s.getStatus()) ? 1 : 0;
            partial += "PARTIAL".equals(s.getStatus()) ? 1 : 0;
            if (s.getPrimary() != null && Double.isFinite(s.getPrimary())) {
                primaryCount++;
                primarySum += s.getPrimary();
                successes += s.getPrimary() == 1.0 ? 1 : 0;
            }
            s.getMetrics().forEach((k, v) -> addMetric(k, v));
            s.getGates().forEach((k, v) -> addMetric("gate." + k, v));
        }

        private void addMetric(String name, Double v) {
            if (v != null && Double.isFinite(v)) {
                double[] sc = metrics.computeIfAbsent(name, x -> new double[2]);
                sc[0] += v;
                sc[1]++;
            }
        }

        /** What differs, or null when the row matches. */
        String differenceFrom(LeaderboardRow row) {
            if (row == null) {
                return "no row";
            }
            List<String> d = new ArrayList<>();
            if (row.getSamplesScored() != scored) {
                d.add("scored " + row.getSamplesScored() + " != " + scored);
            }
            if (row.getSamplesFailed() != failed || row.getSamplesPartial() != partial || row.getSamplesPending() != pending) {
                d.add("failed/partial/pending " + row.getSamplesFailed() + "/" + row.getSamplesPartial() + "/"
                        + row.getSamplesPending() + " != " + failed + "/" + partial + "/" + pending);
            }
            if (row.getPrimaryCount() != primaryCount || row.getPrimarySuccesses() != successes) {
                d.add("primary count/successes " + row.getPrimaryCount() + "/" + row.getPrimarySuccesses() + " != " + primaryCount
                        + "/" + successes);
            }
            Double rate = primaryCount == 0 ? null : primarySum / primaryCount;
            if ((rate == null) != (row.getPrimaryRate() == null)
                    || rate != null && Math.abs(rate - row.getPrimaryRate()) > EPS) {
                d.add("primary rate " + row.getPrimaryRate() + " != " + rate);
            }
            if (!row.getMetrics().keySet().equals(metrics.keySet())) {
                d.add("metrics " + new TreeMap<>(row.getMetrics()).keySet() + " != " + new TreeMap<>(metrics).keySet());
            } else {
                for (var e : metrics.entrySet()) {
                    MetricStat m = row.getMetrics().get(e.getKey());
                    double mean = e.getValue()[0] / e.getValue()[1];
                    if (m.getCount() != (long) e.getValue()[1] || Math.abs(m.getMean() - mean) > 1e-7) {
                        d.add(e.getKey() + " " + m.getMean() + "/" + m.getCount() + " != " + mean + "/" + (long) e.getValue()[1]);
                    }
                }
            }
            return d.isEmpty() ? null : String.join("; ", d);
        }
    }

    /** No dead letters: every sample of the load is valid. */
    public void noDeadLetters() {
        List<String> letters = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(client, topics.deadLetter.name(), Duration.ofSeconds(60))) {
            DeadLetter d = topics.deadLetter.valueSerde().deserializer().deserialize(r.topic(), r.value());
            letters.add(d.toString().length() > 300 ? d.toString().substring(0, 300) : d.toString());
        }
        check(letters.isEmpty(), "dead letters: " + letters.size() + first(letters));
        if (letters.isEmpty()) {
            lines.add("dead letters: none");
        }
    }

    /**
     * No judge request billed twice: the provider answered each request (the same body: the same judge request,
     * whichever case marker it has) at most once with a verdict, except a request whose answer died with a killed
     * worker: billed before the kill and not yet committed, it is asked again by the next owner. Those are counted
     * apart and must have been answered within {@code inFlight} before a kill.
     *
     * @param kills when the judge worker was killed (System.nanoTime, the provider's clock)
     */
    public void noJudgeRequestBilledTwice(ScriptedVlmServer provider, List<Long> kills, Duration inFlight) {
        Map<String, List<ScriptedVlmServer.Seen>> billed = provider.seen().stream().filter(s -> s.status() == 200)
                .collect(Collectors.groupingBy(ScriptedVlmServer.Seen::bodySha256, TreeMap::new, Collectors.toList()));
        List<String> twice = new ArrayList<>();
        int lostWithKill = 0;
        for (var e : billed.entrySet()) {
            if (e.getValue().size() < 2) {
                continue;
            }
            long first = e.getValue().stream().mapToLong(ScriptedVlmServer.Seen::arrivedNanos).min().orElseThrow();
            boolean inFlightAtKill = e.getValue().size() == 2
                    && kills.stream().anyMatch(k -> first <= k && k - first <= inFlight.toNanos());
            if (inFlightAtKill) {
                lostWithKill++;
            } else {
                twice.add((e.getValue().get(0).caseName().isEmpty() ? e.getKey().substring(0, 12) : e.getValue().get(0).caseName())
                        + " x" + e.getValue().size());
            }
        }
        check(twice.isEmpty(), "judge requests billed twice: " + twice.size() + first(twice));
        lines.add(String.format("judge: %d requests billed, none twice but %d answered just before a worker was killed "
                + "(their answers died with it)", billed.size(), lostWithKill));
    }

    /** No transaction left open: after every client stopped, the coordinators list none ongoing. */
    public void noHangingTransactions() throws Exception {
        try (Admin admin = Admin.create(client)) {
            List<String> open = new ArrayList<>();
            java.util.Collection<TransactionListing> all = admin.listTransactions().all().get(60, TimeUnit.SECONDS);
            List<String> ids = all.stream().map(TransactionListing::transactionalId).toList();
            if (!ids.isEmpty()) {
                for (var e : admin.describeTransactions(ids).all().get(60, TimeUnit.SECONDS).entrySet()) {
                    TransactionDescription d = e.getValue();
                    if (d.state() == TransactionState.ONGOING || d.state() == TransactionState.PREPARE_COMMIT
                            || d.state() == TransactionState.PREPARE_ABORT) {
                        open.add(e.getKey() + " " + d.state() + " on " + d.topicPartitions());
                    }
                }
            }
            check(open.isEmpty(), "transactions left open: " + open.size() + first(open));
            lines.add("transactions: " + ids.size() + " transactional ids, none left open");
        }
    }

    /** A check of the caller's own (a resume time, an API answer). */
    public void check(boolean ok, String failure, String line) {
        check(ok, failure);
        if (ok) {
            lines.add(line);
        }
    }

    private void check(boolean ok, String failure) {
        if (!ok) {
            failures.add(failure);
            lines.add("FAILED " + failure);
        }
    }

    private static String first(List<String> items) {
        return items.isEmpty() ? "" : " (e.g. " + String.join(", ", items.subList(0, Math.min(5, items.size()))) + ")";
    }

    public List<String> failures() {
        return List.copyOf(failures);
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }
}
