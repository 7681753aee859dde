package io.mmgr.stream.topology.leaderboard;

import io.mmgr.stream.avro.AgreementCounts;
import io.mmgr.stream.avro.AgreementKey;
import io.mmgr.stream.avro.AgreementStat;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.ItemScoreKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.PairCounts;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.leaderboard.Aggregates;
import io.mmgr.stream.leaderboard.Agreement;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.tasks.RubricMetric;
import io.mmgr.stream.contract.BenchmarkSeeds;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Stores;
import io.mmgr.stream.contract.Topics;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.TableJoined;

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

    private LeaderboardTopology() {
    }

    /** The leaderboard's own stores (see {@link Stores}): the score table, the aggregates, the joins and the rows. */
    public record OwnStores(Store<SampleKey, SampleScore> sampleScores, Store<ItemScoreKey, ScoreAggregate> items,
                            Store<LeaderboardKey, ScoreAggregate> taskSums, Store<LeaderboardKey, ScoreAggregate> tasks,
                            Store<LeaderboardKey, ScoreAggregate> checkpoints, Store<AgreementKey, AgreementCounts> agreement,
                            Store<LeaderboardKey, ScoreAggregate> taskFrechet, Store<LeaderboardKey, ScoreAggregate> taskRows,
                            Store<LeaderboardKey, LeaderboardRow> rows) {

        /** The leaderboard's stores of the scorer's registry. */
        public static OwnStores of(Stores stores) {
            return new OwnStores(stores.sampleScores, stores.leaderboardItems, stores.leaderboardTaskSums, stores.leaderboardTasks,
                    stores.leaderboardCheckpoints, stores.agreement, stores.taskFrechet, stores.taskRows, stores.leaderboardRows);
        }
    }

    /**
     * What the leaderboard uses: the public topics, its stores, the global table of benchmark items intake
     * builds (expected samples) with the counts cached once for the scorer, the rubrics (metric types for
     * agreement) and the agreement policy.
     */
    public record Deps(Topics topics, OwnStores stores, Store<String, BenchmarkItem> benchmarkItems,
                       BenchmarkSeeds.Shared seedCounts, RubricCatalog rubrics, Agreement.Policy agreement) {
    }

    /**
     * The sample-score table, read back from {@code mmgr.sample-scores}. With {@link #OPTIMIZATION} the topic is
     * its store's changelog: assembly writes each score once, and no second copy goes to a changelog. Reading it
     * back costs the leaderboard no extra hop: a table built on assembly's stream itself would need a repartition
     * there, since intake changed the key upstream of assembly. Uncached: its keys are samples, nearly each
     * written once, so a cache holds them for nothing and they crowd the few hot aggregate keys out of the
     * thread's record cache (alternating bench load runs: 7-11 % less wall time and 5-13 % less CPU).
     */
    public static KTable<SampleKey, SampleScore> scores(StreamsBuilder builder, Deps deps) {
        Topics topics = deps.topics();
        return builder.table(topics.sampleScores.name(), topics.sampleScores.consumed("leaderboard-scores"),
                deps.stores().sampleScores().materialized().withCachingDisabled());
    }

    /** The topology optimization {@link #scores} relies on: a table's source topic serves as its changelog. */
    public static final String OPTIMIZATION = org.apache.kafka.streams.StreamsConfig.REUSE_KTABLE_SOURCE_TOPICS;

    /** {@code table}: the sample scores ({@link #scores}); {@code frechet}: each task row's live FID / FVD (the live FID / FVD sub-flow's table). */
    public static void build(StreamsBuilder builder, Deps deps, KTable<SampleKey, SampleScore> table,
                             KTable<LeaderboardKey, FrechetStat> frechet) {
        Topics topics = deps.topics();
        OwnStores stores = deps.stores();
        RubricCatalog rubrics = deps.rubrics();
        Agreement.Policy policy = deps.agreement();

        KTable<ItemScoreKey, ScoreAggregate> items = table
                .groupBy((k, s) -> KeyValue.pair(SampleKeys.item(k), Aggregates.ofScore(s)),
                        Grouped.with("leaderboard-by-item", stores.items().keySerde(), stores.items().valueSerde()))
                .aggregate(Aggregates::empty, (k, v, agg) -> Aggregates.add(agg, v),
                        (k, v, agg) -> Aggregates.subtract(agg, v), Named.as("leaderboard-item-aggregate"),
                        stores.items().materialized());

        KTable<LeaderboardKey, ScoreAggregate> tasks = items
                .groupBy((k, a) -> KeyValue.pair(SampleKeys.board(k), Aggregates.ofItem(a)),
                        Grouped.with("leaderboard-by-task", stores.taskSums().keySerde(),
                                stores.taskSums().valueSerde()))
                .aggregate(Aggregates::empty, (k, v, agg) -> Aggregates.add(agg, v),
                        (k, v, agg) -> Aggregates.subtract(agg, v), Named.as("leaderboard-task-aggregate"),
                        stores.taskSums().materialized())
                // materialized so that the all-tasks row subtracts exactly what it once added
                .transformValues(() -> new ExpectedSamples(deps.benchmarkItems(), deps.seedCounts()),
                        stores.tasks().materialized(), Named.as("leaderboard-task-expected"));

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
                        Grouped.with("leaderboard-agreement-by-task-model", stores.agreement().keySerde(),
                                stores.agreement().valueSerde()))
                .aggregate(() -> new AgreementCounts(new HashMap<>()),
                        (k, v, agg) -> new AgreementCounts(Agreement.add(agg.getPairs(), v.getPairs(), 1)),
                        (k, v, agg) -> new AgreementCounts(Agreement.add(agg.getPairs(), v.getPairs(), -1)),
                        Named.as("leaderboard-agreement-aggregate"),
                        stores.agreement().materialized());

        // the row's live FID / FVD, same key and partitions: a new distance re-emits the row
        KTable<LeaderboardKey, ScoreAggregate> withFrechet = tasks.leftJoin(frechet, LeaderboardTopology::withFrechet,
                Named.as("leaderboard-frechet-join"), stores.taskFrechet().materialized());
        // every task row of a task x model follows its agreement (a foreign-key join: a new label re-emits them all)
        KTable<LeaderboardKey, ScoreAggregate> taskRows = withFrechet.leftJoin(agreement,
                (k, a) -> a.getModel() == null ? null : new AgreementKey(k.getTask(), a.getModel()),
                (a, c) -> withAgreement(a, c == null ? Map.of() : c.getPairs()),
                TableJoined.as("leaderboard-agreement-join"),
                stores.taskRows().materialized());
        // the join answers two hops later (subscription and response topics); a changed row goes out now with
        // the agreement its last join gave, and the join's answer follows only if the agreement changed since
        // (LeaderboardRows publishes no row that shows nothing new)
        KStream<LeaderboardKey, ScoreAggregate> taskRowsNow = withFrechet.toStream(Named.as("leaderboard-task-rows-now"))
                .processValues(() -> new LastAgreement(stores.taskRows()), Named.as("leaderboard-task-last-agreement"),
                        stores.taskRows().name());

        // from the task sums beside the agreement join, not behind it: the join's two extra hops would
        // delay every all-tasks row while adding nothing it carries (agreement is per task)
        KTable<LeaderboardKey, ScoreAggregate> checkpoints = tasks
                .groupBy((k, a) -> KeyValue.pair(SampleKeys.allTasks(k), withoutAgreement(Aggregates.ofTask(k.getTask(), a))),
                        Grouped.with("leaderboard-by-checkpoint", stores.checkpoints().keySerde(),
                                stores.checkpoints().valueSerde()))
                .aggregate(Aggregates::empty, (k, v, agg) -> Aggregates.add(agg, v),
                        (k, v, agg) -> Aggregates.subtract(agg, v), Named.as("leaderboard-checkpoint-aggregate"),
                        stores.checkpoints().materialized());

        builder.addStateStore(stores.rows().persistent());
        taskRows.toStream(Named.as("leaderboard-task-rows"))
                .merge(taskRowsNow, Named.as("leaderboard-task-rows-merge"))
                .merge(checkpoints.toStream(Named.as("leaderboard-checkpoint-rows")), Named.as("leaderboard-rows-merge"))
                .process(() -> new LeaderboardRows(rubrics, policy, stores.rows(), deps.benchmarkItems(), deps.seedCounts()),
                        Named.as("leaderboard-row"), stores.rows().name())
                .to(topics.leaderboard.name(), topics.leaderboard.produced("leaderboard-sink"));
    }

    private static ScoreAggregate withFrechet(ScoreAggregate a, FrechetStat f) {
        ScoreAggregate r = Aggregates.copy(a);
        r.setFrechet(f == null ? new HashMap<>() : new HashMap<>(Map.of(f.getMetric(), f)));
        return r;
    }

    /** A copy of a task row with these agreement counts (the join's answer, or the last one it gave). */
    static ScoreAggregate withAgreement(ScoreAggregate a, Map<String, PairCounts> pairs) {
        ScoreAggregate r = Aggregates.copy(a);
        r.setAgreement(new HashMap<>(pairs));
        return r;
    }

    /** Agreement is per task x model: it does not add up into the all-tasks row. */
    private static ScoreAggregate withoutAgreement(ScoreAggregate a) {
        a.setAgreement(new HashMap<>());
        return a;
    }

    /**
     * The published row; task rows carry the agreement of their task x model and its reliability flag.
     * {@link LeaderboardRows} keeps what it makes in {@link Stores#leaderboardRows}, which the REST API reads.
     */
    static LeaderboardRow row(LeaderboardKey k, ScoreAggregate v, RubricCatalog rubrics, Agreement.Policy policy, Instant now) {
        LeaderboardRow row = Aggregates.toRow(k.getRunId(), k.getCheckpointId(), k.getTask(), v, now);
        if (!SampleKeys.ALL_TASKS.equals(k.getTask())) {
            Map<String, AgreementStat> stats = Agreement.stats(k.getTask(), v.getModel(), v.getAgreement(), policy);
            row.setAgreement(new HashMap<>(stats));
            row.setReliability(Agreement.rowReliability(stats,
                    rubrics.find(k.getTask()).isPresent() || stats.containsKey(Agreement.JUDGE_VS_HUMAN)));
        }
        return row;
    }
}
