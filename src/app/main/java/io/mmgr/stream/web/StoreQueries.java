package io.mmgr.stream.web;

import io.mmgr.stream.contract.Stores;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.avro.JudgeSpend;
import io.mmgr.stream.contract.JudgeCostKeys;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.BenchmarkSeeds;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.ComparisonKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads this instance's share of the scorer's state stores through Kafka Streams' query interface
 * (never the processors). Every method answers from local partitions only; {@link ApiHandler} combines
 * the instances' answers (through {@link Cluster}).
 *
 * <p>The comparison stores are keyed by strings of fields joined by NUL, run first ({@link ComparisonKeys}),
 * so a query naming the run reads only that run's keys with a prefix scan, in the order a whole scan meets
 * them. The leaderboard rows and sample scores are keyed by Avro records in the registry's wire format: the
 * bytes start with the schema id the store's serde resolved for its changelog topic, which a prefix would
 * have to repeat and this reader does not know, so those are read whole and filtered.
 */
public final class StoreQueries {

    private final Function<String, ReadOnlyKeyValueStore<?, ?>> byName;
    private final Stores stores;

    public StoreQueries(KafkaStreams streams, Stores stores) {
        this(name -> streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore())), stores);
    }

    /** Over any source of read-only stores by name: a TopologyTestDriver's, in the web layer's tests. */
    StoreQueries(Function<String, ReadOnlyKeyValueStore<?, ?>> byName, Stores stores) {
        this.byName = byName;
        this.stores = stores;
    }

    /** The registry the stores are named in. */
    public Stores stores() {
        return stores;
    }

    @SuppressWarnings("unchecked")
    private <K, V> ReadOnlyKeyValueStore<K, V> store(Store<K, V> store) {
        return (ReadOnlyKeyValueStore<K, V>) byName.apply(store.name());
    }

    /** {@link BenchmarkSeeds} reads the values of a global store whichever way it is wrapped. */
    @SuppressWarnings("unchecked")
    private ReadOnlyKeyValueStore<String, Object> untyped(Store<String, ?> store) {
        return (ReadOnlyKeyValueStore<String, Object>) byName.apply(store.name());
    }

    /**
     * Task rows and all-tasks rows matching the filter (null: any), read as the leaderboard topic has
     * them from the store the topology keeps them in, {@code updatedAt} included.
     */
    public List<LeaderboardRow> rows(String run, String checkpoint, String task) {
        List<LeaderboardRow> out = new ArrayList<>();
        ReadOnlyKeyValueStore<LeaderboardKey, LeaderboardRow> s = store(stores.leaderboardRows);
        try (KeyValueIterator<LeaderboardKey, LeaderboardRow> it = s.all()) {
            while (it.hasNext()) {
                KeyValue<LeaderboardKey, LeaderboardRow> kv = it.next();
                LeaderboardKey k = kv.key;
                if (kv.value != null && matches(run, k.getRunId()) && matches(checkpoint, k.getCheckpointId())
                        && matches(task, k.getTask())) {
                    out.add(kv.value);
                }
            }
        }
        return out;
    }

    /** Every task of the benchmark with the samples a checkpoint should score on it (the global store). */
    public Map<String, Long> benchmarkTasks() {
        return new BenchmarkSeeds(untyped(stores.benchmarkItems)).expectedByTask();
    }

    public Optional<SampleScore> sample(SampleKey key) {
        ReadOnlyKeyValueStore<SampleKey, SampleScore> s = store(stores.sampleScores);
        return Optional.ofNullable(s.get(key));
    }

    /** Scores of one checkpoint and task, the failed and partial ones first, at most {@code limit}. */
    public List<SampleScore> samples(String run, String checkpoint, String task, Predicate<SampleScore> filter, int limit) {
        ReadOnlyKeyValueStore<SampleKey, SampleScore> s = store(stores.sampleScores);
        List<SampleScore> out = new ArrayList<>();
        try (KeyValueIterator<SampleKey, SampleScore> it = s.all()) {
            while (it.hasNext()) {
                KeyValue<SampleKey, SampleScore> kv = it.next();
                SampleKey k = kv.key;
                if (kv.value != null && matches(run, k.getRunId()) && matches(checkpoint, k.getCheckpointId())
                        && matches(task, k.getTask()) && filter.test(kv.value)) {
                    out.add(kv.value);
                }
            }
        }
        return out.size() > limit ? out.subList(0, limit) : out;
    }

    public List<CheckpointComparison> comparisons(String run, String task) {
        ReadOnlyKeyValueStore<String, CheckpointComparison> s = store(stores.comparisonResults);
        List<CheckpointComparison> out = new ArrayList<>();
        try (KeyValueIterator<String, CheckpointComparison> it = scan(s, isSet(run) && isSet(task) ? ComparisonKeys.runTask(run, task)
                : isSet(run) ? ComparisonKeys.run(run) : null)) {
            while (it.hasNext()) {
                CheckpointComparison c = it.next().value;
                if (c != null && matches(run, c.getRunId()) && matches(task, c.getTask())) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    public List<Alert> alerts(String run) {
        ReadOnlyKeyValueStore<String, Alert> s = store(stores.comparisonAlerts);
        List<Alert> out = new ArrayList<>();
        try (KeyValueIterator<String, Alert> it = scan(s, isSet(run) ? ComparisonKeys.run(run) : null)) {
            while (it.hasNext()) {
                Alert a = it.next().value;
                if (a != null && matches(run, a.getRunId())) {
                    out.add(a);
                }
            }
        }
        return out;
    }

    /**
     * This instance's judge spend per checkpoint of {@code run}: its partitions each keep their own sum under the same
     * key, and a query over the local partitions meets each of them, so they are added here.
     */
    public Map<String, JudgeSpend> judgeSpend(String run) {
        ReadOnlyKeyValueStore<String, JudgeSpend> s = store(stores.judgeSpend);
        Map<String, JudgeSpend> out = new TreeMap<>();
        try (KeyValueIterator<String, JudgeSpend> it = scan(s, JudgeCostKeys.run(run))) {
            while (it.hasNext()) {
                KeyValue<String, JudgeSpend> kv = it.next();
                if (kv.value != null) {
                    out.merge(JudgeCostKeys.checkpointOf(run, kv.key), kv.value, StoreQueries::plus);
                }
            }
        }
        return out;
    }

    private static JudgeSpend plus(JudgeSpend a, JudgeSpend b) {
        return new JudgeSpend(a.getVerdicts() + b.getVerdicts(), a.getCalls() + b.getCalls(), a.getInputTokens() + b.getInputTokens(),
                a.getOutputTokens() + b.getOutputTokens(), a.getCostUsd() + b.getCostUsd());
    }

    /** Every judge worker start's projection of {@code run}'s checkpoints (the global store: every instance holds all). */
    public List<JudgeProjection> judgeProjections(String run) {
        ReadOnlyKeyValueStore<String, JudgeProjection> s = store(stores.judgeProjections);
        List<JudgeProjection> out = new ArrayList<>();
        try (KeyValueIterator<String, JudgeProjection> it = scan(s, JudgeCostKeys.run(run))) {
            while (it.hasNext()) {
                JudgeProjection p = it.next().value;
                if (p != null && run.equals(p.getRunId())) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** The benchmark item of a sample (the global store: every instance holds all of it). */
    public Optional<BenchmarkItem> item(String task, String sampleId) {
        ReadOnlyKeyValueStore<String, BenchmarkItem> s = store(stores.benchmarkItems);
        return Optional.ofNullable(s.get(SampleKeys.itemKey(task, sampleId)));
    }

    /**
     * The keys of a NUL-keyed store that begin with {@code prefix} (null: every key). The values are still
     * filtered by their fields, so a prefix only spares reading what could not match.
     */
    private static <V> KeyValueIterator<String, V> scan(ReadOnlyKeyValueStore<String, V> s, String prefix) {
        return prefix == null ? s.all() : s.prefixScan(prefix, new StringSerializer());
    }

    private static boolean isSet(String wanted) {
        return wanted != null && !wanted.isEmpty();
    }

    private static boolean matches(String wanted, String actual) {
        return !isSet(wanted) || wanted.equals(actual);
    }
}
