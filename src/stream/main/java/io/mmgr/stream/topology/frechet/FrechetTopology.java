package io.mmgr.stream.topology.frechet;

import io.mmgr.stream.contract.Store;
import io.mmgr.stream.avro.FrechetSample;
import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.tasks.ArtifactResolver;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The live FID / FVD: feature vectors from intake (keyed by their leaderboard row), running statistics
 * per row ({@link FrechetProcessor}), and the table of each row's latest distance that the leaderboard
 * joins onto its task rows. The distances are computed in a sub-topology of their own (a row's
 * eigenvalue problem never holds up the leaderboard's tasks) and repartitioned onto the task rows' partitions.
 */
public final class FrechetTopology {

    /** Suffix of the internal topic that carries distances to the leaderboard's partitions. */
    public static final String STATS_REPARTITION = "frechet-stats-by-row";

    private FrechetTopology() {
    }

    /**
     * What the live FID / FVD uses: the public topics, its stores (each sample's latest vector, each row's
     * latest distance), the artifact resolver (reference statistics) and its settings.
     */
    public record Deps(Topics topics, Store<String, FrechetSample> vectors, Store<LeaderboardKey, FrechetStat> stats,
                       ArtifactResolver artifacts, FrechetSettings settings) {
    }

    public static KTable<LeaderboardKey, FrechetStat> build(StreamsBuilder builder, Deps deps) {
        Topics topics = deps.topics();
        Store<LeaderboardKey, FrechetStat> stats = deps.stats();
        builder.addStateStore(deps.vectors().persistent());
        FrechetMemory memory = new FrechetMemory(deps.artifacts(), deps.settings());
        KStream<LeaderboardKey, FrechetOutcome> outcomes = builder
                .stream(topics.frechetSamples.name(), topics.frechetSamples.consumed("frechet-source"))
                .process(() -> new FrechetProcessor(memory, deps.vectors()), Named.as("frechet-update"),
                        deps.vectors().name());

        outcomes.filter((k, v) -> v.letter() != null, Named.as("frechet-has-dead-letter"))
                .map((k, v) -> org.apache.kafka.streams.KeyValue.pair((byte[]) null, v.letter()), Named.as("frechet-dead-letter"))
                .to(topics.deadLetter.name(), topics.deadLetter.produced("frechet-dead-letter-sink"));

        return outcomes.filter((k, v) -> v.stat() != null, Named.as("frechet-has-stat"))
                .mapValues(FrechetOutcome::stat, Named.as("frechet-stat"))
                // into the leaderboard's sub-topology, co-partitioned with the task rows it is joined to
                .repartition(Repartitioned.<LeaderboardKey, FrechetStat>with(stats.keySerde(), stats.valueSerde())
                        .withName(STATS_REPARTITION))
                .toTable(Named.as("frechet-stats-table"), stats.materialized());
    }
}
