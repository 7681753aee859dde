package io.mmgr.stream.topology.comparison;

import io.mmgr.stream.contract.ComparisonKeys;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Stores;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleOutcome;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.registry.AvroSerdes;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Checkpoint comparison: every sample score's primary goes, partitioned by run x task, to a
 * processor that keeps the latest outcome per sample and checkpoint and compares each checkpoint
 * with the previous one and with the best earlier one (paired on the samples both scored).
 * Comparisons go to the compacted comparisons topic, significant drops to the alerts topic. Every outcome
 * also feeds its checkpoint's all-tasks comparison (task {@code *}, paired over the samples of every task),
 * which is to the all-tasks leaderboard row what a task's comparison is to its task row.
 *
 * <p>State stays bounded by the samples the leaderboard already holds: one outcome per sample and
 * checkpoint (replaced on re-scoring), one sum per checkpoint, one comparison per checkpoint, and the
 * alerts raised.
 */
public final class ComparisonTopology {

    public static final String REPARTITION = "comparison-by-run-task";

    private ComparisonTopology() {
    }

    /** The comparison's own stores (see {@link Stores} for their keys). */
    public record OwnStores(Store<String, Double> outcomes, Store<String, ScoreAggregate> checkpoints,
                            Store<String, CheckpointComparison> results, Store<String, Alert> alerts) {

        /** The comparison's stores of the scorer's registry. */
        public static OwnStores of(Stores stores) {
            return new OwnStores(stores.comparisonOutcomes, stores.comparisonCheckpoints, stores.comparisonResults,
                    stores.comparisonAlerts);
        }
    }

    /**
     * What the comparison uses: the public topics, its stores, the global table of benchmark items intake
     * builds (the samples a checkpoint expects), the serdes of its repartition and its settings.
     */
    public record Deps(Topics topics, OwnStores stores, Store<String, BenchmarkItem> benchmarkItems, AvroSerdes serdes,
                       ComparisonSettings settings) {
    }

    public static void build(StreamsBuilder builder, Deps deps, KStream<SampleKey, SampleScore> scores) {
        Topics topics = deps.topics();
        OwnStores stores = deps.stores();
        builder.addStateStore(stores.outcomes().persistent());
        // cached: every sample of a checkpoint updates its sums, the changelog gets one record per commit
        builder.addStateStore(stores.checkpoints().persistent().withCachingEnabled());
        builder.addStateStore(stores.results().persistent());
        builder.addStateStore(stores.alerts().persistent());

        KStream<LeaderboardKey, SpecificRecord> out = scores
                // each outcome counts for its task and for the all-tasks comparison of its checkpoint
                .flatMap((k, s) -> {
                    SampleOutcome o = new SampleOutcome(s.getTrainingStep(), s.getModel(), s.getStatus(), s.getPrimary());
                    return List.of(KeyValue.pair(k, o), KeyValue.pair(ComparisonKeys.allTasks(k), o));
                }, Named.as("comparison-outcome"))
                .repartition(Repartitioned.<SampleKey, SampleOutcome>with(deps.serdes().forKeys(SampleKey.class),
                                deps.serdes().forValues(SampleOutcome.class))
                        .withName(REPARTITION)
                        .withStreamPartitioner(new ComparisonKeys.ByRunTask<>()))
                .process(() -> new ComparisonProcessor(deps.settings(), stores, deps.benchmarkItems()),
                        Named.as("comparison-compare"), stores.outcomes().name(), stores.checkpoints().name(),
                        stores.results().name(), stores.alerts().name());

        var routes = out.split(Named.as("comparison-out-"))
                .branch((k, v) -> v instanceof Alert, Branched.as("alerts"))
                .defaultBranch(Branched.as("results"));
        routes.get("comparison-out-alerts")
                .mapValues(v -> (Alert) v, Named.as("comparison-alert"))
                .to(topics.alerts.name(), topics.alerts.produced("comparison-alerts-sink"));
        routes.get("comparison-out-results")
                .mapValues(v -> (CheckpointComparison) v, Named.as("comparison-result"))
                .to(topics.comparisons.name(), topics.comparisons.produced("comparison-results-sink"));
    }
}
