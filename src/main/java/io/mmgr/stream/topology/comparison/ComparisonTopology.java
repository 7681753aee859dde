package io.mmgr.stream.topology.comparison;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleOutcome;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.topology.Topics;
import io.mmgr.stream.topology.intake.IntakeTopology;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

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

    /** Latest primary per sample: key {@code run/task/checkpoint/sample/seed} (see {@link ComparisonKeys}). */
    public static final String OUTCOMES_STORE = "comparison-outcomes";
    /** Primary sums per checkpoint: key {@code run/task/checkpoint}. */
    public static final String CHECKPOINTS_STORE = "comparison-checkpoints";
    /** Latest comparison per checkpoint: key {@code run/task/checkpoint}. */
    public static final String RESULTS_STORE = "checkpoint-comparisons";
    /** Alerts raised: key {@code run/task/checkpoint/kind}. */
    public static final String ALERTS_STORE = "comparison-alerts";
    static final String BENCHMARK_STORE = IntakeTopology.BENCHMARK_STORE;
    public static final String REPARTITION = "comparison-by-run-task";

    private ComparisonTopology() {
    }

    public static void build(StreamsBuilder builder, ScorerContext ctx, KStream<SampleKey, SampleScore> scores) {
        Topics topics = ctx.topics();
        AvroSerdes serdes = ctx.serdes();
        Serde<SampleKey> sampleKey = serdes.forKeys(SampleKey.class);
        Serde<SampleOutcome> outcomeSerde = serdes.forValues(SampleOutcome.class);
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(OUTCOMES_STORE),
                Serdes.String(), Serdes.Double()));
        // cached: every sample of a checkpoint updates its sums, the changelog gets one record per commit
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CHECKPOINTS_STORE),
                Serdes.String(), serdes.forValues(ScoreAggregate.class)).withCachingEnabled());
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(RESULTS_STORE),
                Serdes.String(), serdes.forValues(CheckpointComparison.class)));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ALERTS_STORE),
                Serdes.String(), serdes.forValues(Alert.class)));

        KStream<LeaderboardKey, SpecificRecord> out = scores
                // each outcome counts for its task and for the all-tasks comparison of its checkpoint
                .flatMap((k, s) -> {
                    SampleOutcome o = new SampleOutcome(s.getTrainingStep(), s.getModel(), s.getStatus(), s.getPrimary());
                    return List.of(KeyValue.pair(k, o), KeyValue.pair(ComparisonKeys.allTasks(k), o));
                }, Named.as("comparison-outcome"))
                .repartition(Repartitioned.<SampleKey, SampleOutcome>with(sampleKey, outcomeSerde)
                        .withName(REPARTITION)
                        .withStreamPartitioner(new ComparisonKeys.ByRunTask<>()))
                .process(() -> new ComparisonProcessor(ctx.comparisons()), Named.as("comparison-compare"),
                        OUTCOMES_STORE, CHECKPOINTS_STORE, RESULTS_STORE, ALERTS_STORE);

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
