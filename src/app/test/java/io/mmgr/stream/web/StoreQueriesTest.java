package io.mmgr.stream.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.leaderboard.AlertRule;
import io.mmgr.stream.topology.EchoTask;
import io.mmgr.stream.topology.Fixtures;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.topology.comparison.ComparisonSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The comparison queries read a run's keys by prefix and answer exactly what a whole-store scan filtered
 * by the records' fields answers (what they did before), in the same order: on a TopologyTestDriver's
 * stores holding three runs (one name a prefix of another's), two checkpoints and two tasks each, with
 * their all-tasks comparisons and the alerts of the second checkpoint's drop.
 */
@Tag("topology")
class StoreQueriesTest {

    static final int ITEMS = 30;
    static final List<String> RUNS = List.of("run-a", "run-a2", "run-b");
    static final List<String> TASKS = List.of(EchoTask.TASK, EchoTask.SECOND_TASK);

    @TempDir
    Path dir;

    TopologyFixture fx;
    /** Stores read whole through the queries, by name. */
    final Set<String> scannedWhole = new HashSet<>();
    StoreQueries queries;

    @BeforeEach
    void start() {
        fx = TopologyFixture.builder("sq.", dir)
                .context(c -> c.comparisons(new ComparisonSettings(new AlertRule(0.01, 0.05, 20), Duration.ofMillis(500))))
                .scorer();
        for (String task : TASKS) {
            for (int i = 0; i < ITEMS; i++) {
                fx.item(Fixtures.item(task, "s" + i, 1));
            }
        }
        for (String run : RUNS) {
            for (String task : TASKS) {
                publish(run, task, "ckpt-1000", 1000, true);
                publish(run, task, "ckpt-2000", 2000, false);
            }
        }
        fx.driver.advanceWallClockTime(Duration.ofSeconds(1));
        Function<String, ReadOnlyKeyValueStore<?, ?>> byName = name -> new Watched<>(fx.driver.getKeyValueStore(name), name);
        queries = new StoreQueries(byName, fx.stores);
    }

    @AfterEach
    void stop() {
        fx.close();
    }

    void publish(String run, String task, String checkpoint, long step, boolean good) {
        for (int i = 0; i < ITEMS; i++) {
            double ok = good ? (i % 10 == 0 ? 0 : 1) : (i % 10 < 2 ? 1 : 0);
            fx.send(Fixtures.event(run, checkpoint, step, task, "s" + i, 0, Map.of("ok", ok)));
        }
        fx.evaluation().drain();
        fx.driver.advanceWallClockTime(Duration.ofSeconds(1));
    }

    /** The answer of a whole-store scan filtered by the records' fields, as the queries read before. */
    <V> List<V> wholeScan(String store, java.util.function.Predicate<V> keep) {
        List<V> out = new ArrayList<>();
        try (KeyValueIterator<String, V> it = fx.driver.<String, V>getKeyValueStore(store).all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null && keep.test(kv.value)) {
                    out.add(kv.value);
                }
            });
        }
        return out;
    }

    static boolean matches(String wanted, String actual) {
        return wanted == null || wanted.isEmpty() || wanted.equals(actual);
    }

    @Test
    void comparisonsByRunAndTaskAreTheWholeScansRowsInItsOrderAndReadOnlyThatRun() {
        List<String> runs = new ArrayList<>(RUNS);
        runs.addAll(Arrays.asList(null, "", "run", "nope"));
        List<String> tasks = new ArrayList<>(TASKS);
        tasks.addAll(Arrays.asList(null, "", "*"));
        for (String run : runs) {
            for (String task : tasks) {
                List<CheckpointComparison> expected = wholeScan(fx.stores.comparisonResults.name(),
                        (CheckpointComparison c) -> matches(run, c.getRunId()) && matches(task, c.getTask()));
                scannedWhole.clear();
                assertThat(queries.comparisons(run, task)).as("run %s, task %s", run, task).containsExactlyElementsOf(expected);
                if (run != null && !run.isEmpty()) {
                    assertThat(scannedWhole).as("run %s, task %s: a prefix scan", run, task).isEmpty();
                }
            }
        }
        // not vacuous: every run has both checkpoints of every task and of all tasks, and nothing of the run named like it
        for (String run : RUNS) {
            List<CheckpointComparison> all = queries.comparisons(run, null);
            assertThat(all).extracting(CheckpointComparison::getRunId).containsOnly(run);
            assertThat(all).extracting(c -> c.getTask() + "@" + c.getCheckpointId()).containsExactlyInAnyOrder(
                    "echo@ckpt-1000", "echo@ckpt-2000", "echo-b@ckpt-1000", "echo-b@ckpt-2000", "*@ckpt-1000", "*@ckpt-2000");
        }
        scannedWhole.clear();
        assertThat(queries.comparisons(null, EchoTask.TASK)).hasSize(2 * RUNS.size());
        assertThat(scannedWhole).as("no run named: the whole store").containsExactly(fx.stores.comparisonResults.name());
    }

    @Test
    void alertsOfARunAreTheWholeScansInItsOrderAndReadOnlyThatRun() {
        List<String> runs = new ArrayList<>(RUNS);
        runs.addAll(Arrays.asList(null, "", "run", "nope"));
        for (String run : runs) {
            List<Alert> expected = wholeScan(fx.stores.comparisonAlerts.name(), (Alert a) -> matches(run, a.getRunId()));
            scannedWhole.clear();
            assertThat(queries.alerts(run)).as("run %s", run).containsExactlyElementsOf(expected);
            if (run != null && !run.isEmpty()) {
                assertThat(scannedWhole).as("run %s: a prefix scan", run).isEmpty();
            }
        }
        for (String run : RUNS) {
            assertThat(queries.alerts(run)).as("the second checkpoint's drop, per task and on all tasks")
                    .extracting(a -> a.getTask() + "@" + a.getCheckpointId() + "/" + a.getRunId())
                    .contains("echo@ckpt-2000/" + run, "echo-b@ckpt-2000/" + run, "*@ckpt-2000/" + run)
                    .allSatisfy(s -> assertThat(s).endsWith("/" + run));
        }
        assertThat(queries.alerts(null)).hasSizeGreaterThanOrEqualTo(3 * RUNS.size());
    }

    /** A store read through, noting a whole-store read. */
    final class Watched<K, V> implements ReadOnlyKeyValueStore<K, V> {
        private final ReadOnlyKeyValueStore<K, V> store;
        private final String name;

        Watched(ReadOnlyKeyValueStore<K, V> store, String name) {
            this.store = store;
            this.name = name;
        }

        @Override
        public V get(K key) {
            return store.get(key);
        }

        @Override
        public KeyValueIterator<K, V> range(K from, K to) {
            return store.range(from, to);
        }

        @Override
        public KeyValueIterator<K, V> all() {
            scannedWhole.add(name);
            return store.all();
        }

        @Override
        public <PS extends Serializer<P>, P> KeyValueIterator<K, V> prefixScan(P prefix, PS prefixKeySerializer) {
            return store.prefixScan(prefix, prefixKeySerializer);
        }

        @Override
        public long approximateNumEntries() {
            return store.approximateNumEntries();
        }
    }
}
