package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.TopicAdmin;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.bench.RestartBench;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash tests: a real broker and registry in this JVM, scorers as separate JVMs ({@code mmgr run}),
 * a producer publishing Magma events at a steady rate. Scorers are killed with SIGKILL and
 * restarted, the broker is restarted under load, one of two instances is killed for good. Afterwards
 * every sample has exactly one score record (read committed), the leaderboard counts every sample
 * once, and the dead-letter topic is empty. Each test prints its kills and samples.
 */
@Tag("integration")
// not 'alone': it holds no latency bound (its deadlines are minutes), so it runs beside the other integration tests;
// the stall figures it prints are then taken on a busier machine (the load average is printed with them)
class CrashRecoveryTest {

    static final int PARTITIONS = 4;
    static final double RATE = 120; // events per second
    static final int ITEMS = 100;
    static final Duration START = Duration.ofMinutes(2);
    static final Duration DRAIN = Duration.ofMinutes(2);
    static final Duration PROGRESS = Duration.ofMinutes(2);

    @TempDir
    static Path dir;
    static Infrastructure infra;

    @BeforeAll
    static void start() throws Exception {
        infra = new Infrastructure(dir.resolve("infra"));
    }

    @AfterAll
    static void stop() {
        if (infra != null) {
            infra.close();
        }
    }

    /** Topics created and benchmark items published before any scorer starts, so none misses an item. */
    static Topics prepare(String prefix, SteadyLoad[] load, String runId) throws Exception {
        Topics t = infra.topics(prefix, PARTITIONS);
        try (Admin admin = Admin.create(infra.clientConfig())) {
            TopicAdmin.ensure(admin, t.definitions());
        }
        load[0] = new SteadyLoad(infra.clientConfig(), t, runId, ITEMS, RATE).publishItems();
        return t;
    }

    static ChildScorer scorer(String name, String prefix, String applicationId) {
        List<String> args = List.of("--bootstrap-servers", infra.bootstrapServers(),
                "--schema-registry-url", infra.registryUrl(), "--application-id", applicationId,
                "--topic-prefix", prefix, "--partitions", String.valueOf(PARTITIONS), "--replication-factor", "1",
                "--threads", "2",
                // a killed member is noticed in seconds, not the 45 s default
                "-P", "session.timeout.ms=6000", "-P", "heartbeat.interval.ms=1500");
        return new ChildScorer(name, dir.resolve(prefix + name), args, Map.of("MMGR_LOG_LEVEL", "INFO"));
    }

    /** Waits until at least {@code more} records were added to the score topic since {@code from}; returns the new gauge. */
    static long progress(Topics t, SteadyLoad load, long from, long more, ChildScorer... scorers) throws InterruptedException {
        return progress(t, load, from, more, System.nanoTime() + PROGRESS.toNanos(), scorers);
    }

    /** As above, by a deadline ({@link System#nanoTime}) that several waits can share. */
    static long progress(Topics t, SteadyLoad load, long from, long more, long deadline, ChildScorer... scorers)
            throws InterruptedException {
        long now;
        while ((now = infra.endOffsets(t.sampleScores.name())) < from + more) {
            if (System.nanoTime() > deadline) {
                // a load that stopped sending starves the scorer as surely as a stuck scorer: say which it was
                StringBuilder why = new StringBuilder("no scoring progress in " + PROGRESS.toSeconds() + " s: " + now + " records, wanted " + (from + more)
                        + "; " + load.describe());
                for (ChildScorer s : scorers) {
                    why.append('\n').append(s.problems());
                }
                throw new AssertionError(why);
            }
            Thread.sleep(200);
        }
        return now;
    }

    /** The exactly-once check: one score record per sample sent, leaderboards counting each sample once, no dead letters. */
    static void assertEverySampleScoredOnce(Topics t, SteadyLoad load, String runId) throws InterruptedException {
        List<SampleKey> sent = load.keys();
        assertThat(new HashSet<>(sent)).as("each event is a distinct sample").hasSize(sent.size());
        long deadline = System.nanoTime() + DRAIN.toNanos();
        Map<SampleKey, List<SampleScore>> records;
        while ((records = infra.scoreRecords(t)).size() < sent.size()) {
            if (System.nanoTime() > deadline) {
                List<SampleKey> missing = new ArrayList<>(sent);
                missing.removeAll(records.keySet());
                throw new AssertionError(records.size() + " of " + sent.size() + " samples scored; missing e.g. "
                        + missing.subList(0, Math.min(5, missing.size())));
            }
            Thread.sleep(250); // the drain ends within moments of the load's stop: a 1 s poll waited most of a second
        }
        assertThat(records.keySet()).containsExactlyInAnyOrderElementsOf(sent);
        Map<SampleKey, Integer> duplicated = new TreeMap<>(java.util.Comparator.comparing(SampleKeys::ref));
        records.forEach((k, v) -> {
            if (v.size() != 1) {
                duplicated.put(k, v.size());
            }
        });
        assertThat(duplicated).as("samples with more than one score record").isEmpty();
        assertThat(records.values()).allSatisfy(v -> assertThat(v.get(0).getStatus()).isEqualTo("COMPLETE"));

        Map<String, Long> perCheckpoint = new TreeMap<>();
        for (SampleKey k : sent) {
            perCheckpoint.merge(k.getCheckpointId(), 1L, Long::sum);
        }
        Map<LeaderboardKey, LeaderboardRow> board = null;
        long boardDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < boardDeadline) {
            board = infra.leaderboard(t);
            if (countsMatch(board, perCheckpoint, runId)) {
                break;
            }
            Thread.sleep(250);
        }
        for (var e : perCheckpoint.entrySet()) {
            LeaderboardRow task = board.get(new LeaderboardKey(runId, e.getKey(), "mind2web"));
            LeaderboardRow all = board.get(new LeaderboardKey(runId, e.getKey(), SampleKeys.ALL_TASKS));
            assertThat(task).as("leaderboard row of %s", e.getKey()).isNotNull();
            assertThat(task.getSamplesScored()).as("samples scored of %s", e.getKey()).isEqualTo(e.getValue());
            assertThat(all.getSamplesScored()).as("all-task samples of %s", e.getKey()).isEqualTo(e.getValue());
            assertThat(task.getSamplesExpected()).isEqualTo(ITEMS);
        }
        long rows = board.keySet().stream().filter(k -> k.getRunId().equals(runId)).count();
        assertThat(rows).as("leaderboard rows: one per checkpoint and task, one per checkpoint").isEqualTo(2L * perCheckpoint.size());
        assertThat(infra.deadLetters(t)).as("dead letters").isEmpty();
    }

    static boolean countsMatch(Map<LeaderboardKey, LeaderboardRow> board, Map<String, Long> expected, String runId) {
        // the task row passes the agreement join and the all-tasks row does not: both must have caught up
        for (var e : expected.entrySet()) {
            for (String task : new String[] {SampleKeys.ALL_TASKS, "mind2web"}) {
                LeaderboardRow row = board.get(new LeaderboardKey(runId, e.getKey(), task));
                if (row == null || row.getSamplesScored() != e.getValue()) {
                    return false;
                }
            }
        }
        return true;
    }

    @Test
    void killNineOneScorerTwiceUnderLoadAndRestartIt() throws Exception {
        String run = "kill9";
        SteadyLoad[] load = new SteadyLoad[1];
        Topics t = prepare("crash-kill.", load, run);
        // twice: the second crash hits an instance that itself recovered from one
        int kills = 2;
        try (ChildScorer a = scorer("a", "crash-kill.", "crash-kill-app"); SteadyLoad l = load[0]) {
            a.start(START);
            l.start();
            long seen = progress(t, l, 0, 150, a);
            for (int k = 0; k < kills; k++) {
                a.kill(); // mid-stream: the load keeps coming and the scorer was just seen scoring
                a.start(START);
                seen = progress(t, l, seen, 150, a);
            }
            l.stop(Duration.ofMinutes(1));
            assertEverySampleScoredOnce(t, l, run);
            System.out.printf("crash test: %d x kill -9 of the only scorer at %.0f events/s: %d samples, each scored "
                    + "exactly once (%d events re-sent; load average %s)%n", kills, RATE, l.sent(), l.resent(), RestartBench.loadAverage());
            assertThat(a.starts()).isEqualTo(kills + 1);
            assertThat(a.stop()).as("clean stop after the last restart").isIn(0, 130, 143);
        }
    }

    @Test
    void brokerRestartedUnderLoad() throws Exception {
        String run = "broker";
        SteadyLoad[] load = new SteadyLoad[1];
        Topics t = prepare("crash-broker.", load, run);
        try (ChildScorer a = scorer("a", "crash-broker.", "crash-broker-app"); SteadyLoad l = load[0]) {
            a.start(START);
            l.start();
            long seen = progress(t, l, 0, 200, a);
            Duration outage = infra.restartBroker(Duration.ofSeconds(2));
            long back = System.nanoTime();
            long deadline = back + PROGRESS.toNanos(); // the first score and the 200 within one window, as before
            progress(t, l, seen, 1, deadline, a);
            double resumed = (System.nanoTime() - back) / 1e9;
            progress(t, l, seen, 200, deadline, a);
            l.stop(Duration.ofMinutes(1));
            assertEverySampleScoredOnce(t, l, run);
            assertThat(a.alive()).as("the scorer survived the broker's restart").isTrue();
            // a failover's client warnings went to mmgr.log, as with the embedded broker; the console has the scorer's lines
            assertThat(a.foreignConsoleLines()).as("Kafka's lines on the console (%d of them in mmgr.log)",
                    a.kafkaWarningsInFile()).isEmpty();
            System.out.printf("crash test: broker restarted (down %.1f s) under %.0f events/s, scoring again %.1f s after it was back: "
                    + "%d samples, each scored exactly once (%d events re-sent; load average %s)%n", outage.toMillis() / 1000.0, RATE,
                    resumed, l.sent(), l.resent(), RestartBench.loadAverage());
        }
    }

    @Test
    void twoInstancesOneKilledForGood() throws Exception {
        String run = "two";
        SteadyLoad[] load = new SteadyLoad[1];
        Topics t = prepare("crash-two.", load, run);
        try (ChildScorer a = scorer("a", "crash-two.", "crash-two-app");
             ChildScorer b = scorer("b", "crash-two.", "crash-two-app");
             SteadyLoad l = load[0]) {
            // side by side, as a deployment starts its instances: one after the other cost a whole JVM start
            var bStarted = java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    b.start(START);
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            a.start(START);
            bStarted.join();
            l.start();
            long seen = progress(t, l, 0, 200, a, b);
            b.kill();
            progress(t, l, seen, 300, a); // the survivor takes b's partitions over
            l.stop(Duration.ofMinutes(1));
            assertEverySampleScoredOnce(t, l, run);
            assertThat(a.alive()).isTrue();
            System.out.printf("crash test: 2 instances, 1 killed with kill -9 at %.0f events/s: %d samples, each scored "
                    + "exactly once by the pair then the survivor (load average %s)%n", RATE, l.sent(), RestartBench.loadAverage());
        }
    }

}
