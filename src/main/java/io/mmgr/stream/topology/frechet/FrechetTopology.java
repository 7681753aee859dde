package io.mmgr.stream.topology.frechet;

import io.mmgr.stream.avro.FrechetSample;
import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.topology.Topics;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The live FID / FVD: feature vectors from intake (keyed by their leaderboard row), running statistics
 * per row ({@link FrechetProcessor}), and the table of each row's latest distance that the leaderboard
 * joins onto its task rows. The distances are computed in a sub-topology of their own (a row's
 * eigenvalue problem never holds up the leaderboard's tasks) and repartitioned onto the task rows' partitions.
 */
public final class FrechetTopology {

    /** Each sample's latest feature vector, keyed {@code run/checkpoint/task/sample#seed}; the source of every row's statistics. */
    public static final String VECTORS_STORE = "frechet-vectors";
    /** Suffix of the internal topic that carries distances to the leaderboard's partitions. */
    public static final String STATS_REPARTITION = "frechet-stats-by-row";
    /** Each row's latest distance. */
    public static final String STATS_STORE = "frechet-stats";

    private FrechetTopology() {
    }

    public static KTable<LeaderboardKey, FrechetStat> build(StreamsBuilder builder, ScorerContext ctx) {
        Topics topics = ctx.topics();
        Serde<LeaderboardKey> boardKey = ctx.serdes().forKeys(LeaderboardKey.class);
        Serde<FrechetStat> statSerde = ctx.serdes().forValues(FrechetStat.class);
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(VECTORS_STORE),
                Serdes.String(), topics.frechetSamples.valueSerde()));
        FrechetMemory memory = new FrechetMemory(ctx.artifacts(), ctx.frechet());
        KStream<LeaderboardKey, FrechetOutcome> outcomes = builder
                .stream(topics.frechetSamples.name(), topics.frechetSamples.consumed("frechet-source"))
                .process(() -> new FrechetProcessor(memory), Named.as("frechet-update"), VECTORS_STORE);

        outcomes.filter((k, v) -> v.letter() != null, Named.as("frechet-has-dead-letter"))
                .map((k, v) -> org.apache.kafka.streams.KeyValue.pair((byte[]) null, v.letter()), Named.as("frechet-dead-letter"))
                .to(topics.deadLetter.name(), topics.deadLetter.produced("frechet-dead-letter-sink"));

        return outcomes.filter((k, v) -> v.stat() != null, Named.as("frechet-has-stat"))
                .mapValues(FrechetOutcome::stat, Named.as("frechet-stat"))
                // into the leaderboard's sub-topology, co-partitioned with the task rows it is joined to
                .repartition(Repartitioned.<LeaderboardKey, FrechetStat>with(boardKey, statSerde).withName(STATS_REPARTITION))
                .toTable(Named.as("frechet-stats-table"),
                        Materialized.<LeaderboardKey, FrechetStat, KeyValueStore<Bytes, byte[]>>as(STATS_STORE)
                                .withKeySerde(boardKey).withValueSerde(statSerde));
    }
}
