package io.mmgr.stream.topology.status;

import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Stores;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.CheckpointDone;
import io.mmgr.stream.avro.CheckpointKey;
import io.mmgr.stream.avro.CheckpointStatus;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.contract.Topics;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Checkpoint status: a training job marks a checkpoint done (the checkpoint-done topic), and the scorer
 * answers on the compacted checkpoint-status topic once every expected sample is scored, or when the
 * deadline passes. The answer is assembled from what the scorer already published about the checkpoint
 * — its leaderboard rows, comparisons and alerts, read back from their topics and gathered by run x
 * checkpoint — so it says exactly what a dashboard says, and is rewritten when a late part changes it.
 * A run's checkpoints share a partition: an answer that compares with the previous checkpoint waits
 * for that checkpoint's own answer, when it has a marker.
 *
 * <p>State is one row and one comparison per run x checkpoint x task (as the leaderboard holds), the
 * alerts raised, and one marker, deadline and answer per checkpoint.
 */
public final class CheckpointStatusTopology {

    private CheckpointStatusTopology() {
    }

    /** The checkpoint status's own stores (see {@link Stores} for their keys). */
    public record OwnStores(Store<String, LeaderboardRow> rows, Store<String, CheckpointComparison> comparisons,
                            Store<String, Alert> alerts, Store<String, CheckpointDone> markers, Store<String, Long> deadlines,
                            Store<String, CheckpointStatus> answers) {

        /** The checkpoint status's stores of the scorer's registry. */
        public static OwnStores of(Stores stores) {
            return new OwnStores(stores.statusRows, stores.statusComparisons, stores.statusAlerts, stores.statusMarkers,
                    stores.statusDeadlines, stores.statusAnswers);
        }
    }

    /**
     * What the checkpoint status uses: the public topics, its stores, the global table of benchmark items
     * intake builds (the samples a checkpoint expects), its settings and the partitions of its repartitions.
     */
    public record Deps(Topics topics, OwnStores stores, Store<String, BenchmarkItem> benchmarkItems,
                       CheckpointStatusSettings settings, int partitions) {
    }

    /**
     * Adds the sub-flow. It reads the benchmark through the global store intake builds
     * ({@link Deps#benchmarkItems}), so it is added after intake. Its stores are keyed
     * {@code run NUL checkpoint NUL [task ...]} (see {@link StatusKeys}).
     */
    public static void build(StreamsBuilder builder, Deps deps) {
        Topics topics = deps.topics();
        int partitions = deps.partitions();
        OwnStores stores = deps.stores();
        Serde<CheckpointKey> checkpointKey = topics.checkpointStatus.keySerde();
        // cached: a burst of rows for one checkpoint reaches the changelog once per commit
        builder.addStateStore(stores.rows().persistent().withCachingEnabled());
        builder.addStateStore(stores.comparisons().persistent().withCachingEnabled());
        builder.addStateStore(stores.alerts().persistent());
        builder.addStateStore(stores.markers().persistent());
        builder.addStateStore(stores.deadlines().persistent());
        builder.addStateStore(stores.answers().persistent());

        KStream<CheckpointKey, SpecificRecord> rows = byCheckpoint(builder, topics.leaderboard, "rows", checkpointKey, partitions);
        KStream<CheckpointKey, SpecificRecord> comparisons = byCheckpoint(builder, topics.comparisons, "comparisons", checkpointKey,
                partitions);
        KStream<CheckpointKey, SpecificRecord> alerts = byCheckpoint(builder, topics.alerts, "alerts", checkpointKey, partitions);

        // markers come from training jobs: read raw, so that an unreadable one reaches the dead-letter topic intact
        var parsed = builder.stream(topics.checkpointDone.name(),
                        Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("checkpoint-status-markers-source"))
                .processValues(() -> new MarkerParser(topics.checkpointDone.valueSerde().deserializer()),
                        Named.as("checkpoint-status-parse-marker"))
                .split(Named.as("checkpoint-status-marker-"))
                .branch((k, v) -> v instanceof DeadLetter, Branched.as("rejected"))
                .defaultBranch(Branched.as("ok"));
        parsed.get("checkpoint-status-marker-rejected")
                .mapValues(v -> (DeadLetter) v, Named.as("checkpoint-status-marker-dead-letter"))
                .to(topics.deadLetter.name(), topics.deadLetter.produced("checkpoint-status-dead-letter-sink"));
        KStream<CheckpointKey, SpecificRecord> markers = parsed.get("checkpoint-status-marker-ok")
                .map((k, v) -> {
                    CheckpointDone d = (CheckpointDone) v;
                    return org.apache.kafka.streams.KeyValue.pair(new CheckpointKey(d.getRunId(), d.getCheckpointId()), d);
                }, Named.as("checkpoint-status-marker-key"))
                .repartition(Repartitioned.<CheckpointKey, CheckpointDone>with(checkpointKey, stores.markers().valueSerde())
                        .withName("checkpoint-status-markers")
                        .withNumberOfPartitions(partitions)
                        .withStreamPartitioner(new StatusKeys.ByRun<>()))
                .mapValues(v -> (SpecificRecord) v, Named.as("checkpoint-status-marker-input"));

        rows.merge(comparisons, Named.as("checkpoint-status-merge-comparisons"))
                .merge(alerts, Named.as("checkpoint-status-merge-alerts"))
                .merge(markers, Named.as("checkpoint-status-merge-markers"))
                .process(() -> new CheckpointStatusProcessor(deps.settings(), stores, deps.benchmarkItems()),
                        Named.as("checkpoint-status-answer"), stores.rows().name(), stores.comparisons().name(),
                        stores.alerts().name(), stores.markers().name(), stores.deadlines().name(), stores.answers().name())
                .to(topics.checkpointStatus.name(), topics.checkpointStatus.produced("checkpoint-status-sink"));
    }

    /** A published topic read back, keyed by run x checkpoint and partitioned by run. */
    private static <V extends SpecificRecord> KStream<CheckpointKey, SpecificRecord> byCheckpoint(
            StreamsBuilder builder, Topic<LeaderboardKey, V> topic, String what, Serde<CheckpointKey> checkpointKey, int partitions) {
        return builder.stream(topic.name(), topic.consumed("checkpoint-status-" + what + "-source"))
                .filter((k, v) -> k != null && v != null, Named.as("checkpoint-status-" + what + "-present"))
                .selectKey((k, v) -> new CheckpointKey(k.getRunId(), k.getCheckpointId()), Named.as("checkpoint-status-" + what + "-key"))
                .repartition(Repartitioned.<CheckpointKey, V>with(checkpointKey, topic.valueSerde())
                        .withName("checkpoint-status-" + what)
                        .withNumberOfPartitions(partitions)
                        .withStreamPartitioner(new StatusKeys.ByRun<>()))
                .mapValues(v -> (SpecificRecord) v, Named.as("checkpoint-status-" + what + "-input"));
    }
}
