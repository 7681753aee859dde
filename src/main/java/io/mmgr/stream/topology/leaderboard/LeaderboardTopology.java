package io.mmgr.stream.topology.leaderboard;

import io.mmgr.stream.avro.AgreementCounts;
import io.mmgr.stream.avro.AgreementKey;
import io.mmgr.stream.avro.AgreementStat;
import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.ItemScoreKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.leaderboard.Aggregates;
import io.mmgr.stream.leaderboard.Agreement;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.tasks.RubricMetric;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.topology.SampleKeys;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.topology.Topics;
import io.mmgr.stream.topology.intake.IntakeTopology;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Leaderboards aggregate the sample-score table, never the stream: a re-scored sample's new value
 * arrives with its old one, which is subtracted, so it replaces its contribution instead of adding.
 * Items (the seeds of one benchmark item) come first for pass@k, then run x checkpoint x task rows,
 * then the all-tasks row of each checkpoint. Task rows also carry the agreement between the judge,
 * the deterministic evaluators and human labels of their task x model (additive 2x2 counts aggregated
 * from the same table, joined onto the rows by task and model), and the live FID / FVD of their samples'
 * feature vectors where the benchmark carries reference statistics (io.mmgr.stream.topology.frechet).
 */
public final class LeaderboardTopology {

    public static final String SCORES_STORE = "sample-scores";
    public static final String ITEMS_STORE = "leaderboard-items";
    public static final String TASK_SUMS_STORE = "leaderboard-task-sums";
    /** Task rows with their expected counts: the store behind the per-task leaderboard. */
    public static final String TASKS_STORE = "leaderboard-tasks";
    public static final String CHECKPOINTS_STORE = "leaderboard-checkpoints";
    /** Agreement counts per task x model (judge, evaluators, human labels). */
    public static final String AGREEMENT_STORE = "leaderboard-agreement";
    /** Task rows with their task x model agreement joined in. */
    public static final String TASK_AGREEMENT_STORE = "leaderboard-task-agreement";
    /** Task rows as published: agreement and the live FID / FVD joined in. */
    public static final String TASK_ROWS_STORE = "leaderboard-task-rows";
    /** Every row as published (task and all-tasks), with the time it last changed: what the REST API serves. */
    public static final String ROWS_STORE = "leaderboard-rows";

    private LeaderboardTopology() {
    }

    /** {@code frechet}: each task row's live FID / FVD ({@link io.mmgr.stream.topology.frechet.FrechetTopology}). */
    public static void build(StreamsBuilder builder, ScorerContext ctx, KStream<SampleKey, SampleScore> scores,
                             KTable<LeaderboardKey, FrechetStat> frechet) {
        Topics topics = ctx.topics();
        AvroSerdes serdes = ctx.serdes();
        RubricCatalog rubrics = ctx.rubrics();
        Agreement.Policy policy = ctx.agreement();
        Serde<SampleKey> sampleKey = serdes.forKeys(SampleKey.class);
        Serde<ItemScoreKey> itemKey = serdes.forKeys(ItemScoreKey.class);
        Serde<LeaderboardKey> boardKey = serdes.forKeys(LeaderboardKey.class);
        Serde<SampleScore> scoreSerde = serdes.forValues(SampleScore.class);
        Serde<ScoreAggregate> aggregateSerde = serdes.forValues(ScoreAggregate.class);
        Serde<AgreementKey> agreementKey = serdes.forKeys(AgreementKey.class);
        Serde<AgreementCounts> agreementSerde = serdes.forValues(AgreementCounts.class);
        KTable<SampleKey, SampleScore> table = scores.toTable(Named.as("leaderboard-scores-table"),
                Materialized.<SampleKey, SampleScore, KeyValueStore<Bytes, byte[]>>as(SCORES_STORE)
                        .withKeySerde(sampleKey).withValueSerde(scoreSerde));

        KTable<ItemScoreKey, ScoreAggregate> items = table
                .groupBy((k, s) -> KeyValue.pair(SampleKeys.item(k), Aggregates.ofScore(s)),
                        Grouped.with("leaderboard-by-item", itemKey, aggregateSerde))
                .aggregate(Aggregates::empty, (k, v, agg) -> Aggregates.add(agg, v),
                        (k, v, agg) -> Aggregates.subtract(agg, v), Named.as("leaderboard-item-aggregate"),
                        stored(ITEMS_STORE, itemKey, aggregateSerde));

        KTable<LeaderboardKey, ScoreAggregate> tasks = items
                .groupBy((k, a) -> KeyValue.pair(SampleKeys.board(k), Aggregates.ofItem(a)),
                        Grouped.with("leaderboard-by-task", boardKey, aggregateSerde))
                .aggregate(Aggregates::empty, (k, v, agg) -> Aggregates.add(agg, v),
                        (k, v, agg) -> Aggregates.subtract(agg, v), Named.as("leaderboard-task-aggregate"),
                        stored(TASK_SUMS_STORE, boardKey, aggregateSerde))
                // materialized so that the all-tasks row subtracts exactly what it once added
                .transformValues(() -> new ExpectedSamples(IntakeTopology.BENCHMARK_STORE),
                        stored(TASKS_STORE, boardKey, aggregateSerde), Named.as("leaderboard-task-expected"));

        // agreement per task x model, from the same table: a re-scored sample replaces its pairs
        Map<String, Map<String, RubricMetric>> metricTypes = new HashMap<>();
        for (JudgeRubric r : rubrics.all()) {
            Map<String, RubricMetric> byName = new HashMap<>();
            r.metrics().forEach(m -> byName.put(m.name(), m));
            metricTypes.put(r.id(), byName);
        }
        KTable<AgreementKey, AgreementCounts> agreement = table
                // most scores pair nothing (no judge next to a pipeline, no human label): they stop here
                .filter((k, s) -> !Agreement.ofScore(s, metricTypes.getOrDefault(k.getTask(), Map.of())).isEmpty(),
                        Named.as("leaderboard-agreement-has-pairs"))
                .groupBy((k, s) -> KeyValue.pair(new AgreementKey(k.getTask(), s.getModel()),
                                new AgreementCounts(Agreement.ofScore(s, metricTypes.getOrDefault(k.getTask(), Map.of())))),
                        Grouped.with("leaderboard-agreement-by-task-model", agreementKey, agreementSerde))
                .aggregate(() -> new AgreementCounts(new HashMap<>()),
                        (k, v, agg) -> new AgreementCounts(Agreement.add(agg.getPairs(), v.getPairs(), 1)),
                        (k, v, agg) -> new AgreementCounts(Agreement.add(agg.getPairs(), v.getPairs(), -1)),
                        Named.as("leaderboard-agreement-aggregate"),
                        Materialized.<AgreementKey, AgreementCounts, KeyValueStore<Bytes, byte[]>>as(AGREEMENT_STORE)
                                .withKeySerde(agreementKey).withValueSerde(agreementSerde));

        // every task row of a task x model follows its agreement (a foreign-key join: a new label re-emits them all)
        KTable<LeaderboardKey, ScoreAggregate> taskRows = tasks.leftJoin(agreement,
                (k, a) -> a.getModel() == null ? null : new AgreementKey(k.getTask(), a.getModel()),
                (a, c) -> {
                    ScoreAggregate r = ScoreAggregate.newBuilder(a).build();
                    r.setAgreement(c == null ? new HashMap<>() : new HashMap<>(c.getPairs()));
                    return r;
                },
                TableJoined.as("leaderboard-agreement-join"),
                stored(TASK_AGREEMENT_STORE, boardKey, aggregateSerde))
                // the row's live FID / FVD, same key and partitions: a new distance re-emits the row
                .leftJoin(frechet, LeaderboardTopology::withFrechet, Named.as("leaderboard-frechet-join"),
                        stored(TASK_ROWS_STORE, boardKey, aggregateSerde));

        // from the task sums beside the agreement join, not behind it: the join's two extra hops would
        // delay every all-tasks row while adding nothing it carries (agreement is per task)
        KTable<LeaderboardKey, ScoreAggregate> checkpoints = tasks
                .groupBy((k, a) -> KeyValue.pair(SampleKeys.allTasks(k), withoutAgreement(Aggregates.ofTask(k.getTask(), a))),
                        Grouped.with("leaderboard-by-checkpoint", boardKey, aggregateSerde))
                .aggregate(Aggregates::empty, (k, v, agg) -> Aggregates.add(agg, v),
                        (k, v, agg) -> Aggregates.subtract(agg, v), Named.as("leaderboard-checkpoint-aggregate"),
                        stored(CHECKPOINTS_STORE, boardKey, aggregateSerde));

        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ROWS_STORE),
                boardKey, topics.leaderboard.valueSerde()));
        taskRows.toStream(Named.as("leaderboard-task-rows"))
                .merge(checkpoints.toStream(Named.as("leaderboard-checkpoint-rows")), Named.as("leaderboard-rows-merge"))
                .process(() -> new LeaderboardRows(rubrics, policy, IntakeTopology.BENCHMARK_STORE), Named.as("leaderboard-row"),
                        ROWS_STORE)
                .to(topics.leaderboard.name(), topics.leaderboard.produced("leaderboard-sink"));
    }

    private static ScoreAggregate withFrechet(ScoreAggregate a, FrechetStat f) {
        ScoreAggregate r = ScoreAggregate.newBuilder(a).build();
        r.setFrechet(f == null ? new HashMap<>() : new HashMap<>(Map.of(f.getMetric(), f)));
        return r;
    }

    /** Agreement is per task x model: it does not add up into the all-tasks row. */
    private static ScoreAggregate withoutAgreement(ScoreAggregate a) {
        a.setAgreement(new HashMap<>());
        return a;
    }

    /**
     * The published row; task rows carry the agreement of their task x model and its reliability flag.
     * {@link LeaderboardRows} keeps what it makes in {@link #ROWS_STORE}, which the REST API reads.
     */
    static LeaderboardRow row(LeaderboardKey k, ScoreAggregate v, RubricCatalog rubrics, Agreement.Policy policy, Instant now) {
        LeaderboardRow row = Aggregates.toRow(k.getRunId(), k.getCheckpointId(), k.getTask(), v, now);
        if (!SampleKeys.ALL_TASKS.equals(k.getTask())) {
            Map<String, AgreementStat> stats = Agreement.stats(k.getTask(), v.getModel(), v.getAgreement(), policy);
            row.setAgreement(new HashMap<>(stats));
            row.setReliability(Agreement.rowReliability(stats,
                    rubrics.find(k.getTask()).isPresent() || stats.containsKey(Agreement.JUDGE + "~" + Agreement.HUMAN)));
        }
        return row;
    }

    private static <K> Materialized<K, ScoreAggregate, KeyValueStore<Bytes, byte[]>> stored(
            String name, Serde<K> keySerde, Serde<ScoreAggregate> valueSerde) {
        return Materialized.<K, ScoreAggregate, KeyValueStore<Bytes, byte[]>>as(name)
                .withKeySerde(keySerde).withValueSerde(valueSerde);
    }
}
