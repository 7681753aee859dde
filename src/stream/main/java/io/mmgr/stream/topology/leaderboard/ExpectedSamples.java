package io.mmgr.stream.topology.leaderboard;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.contract.BenchmarkSeeds;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.leaderboard.Aggregates;
import org.apache.kafka.streams.kstream.ValueTransformerWithKey;
import org.apache.kafka.streams.processor.ProcessorContext;

/** Sets a task row's expected samples from the benchmark (see {@link BenchmarkSeeds}). */
final class ExpectedSamples implements ValueTransformerWithKey<LeaderboardKey, ScoreAggregate, ScoreAggregate> {

    private final Store<String, BenchmarkItem> benchmarkItems;
    private final BenchmarkSeeds.Shared counts;
    private BenchmarkSeeds seeds;

    /** {@code benchmarkItems}: the global table intake builds. */
    ExpectedSamples(Store<String, BenchmarkItem> benchmarkItems, BenchmarkSeeds.Shared counts) {
        this.benchmarkItems = benchmarkItems;
        this.counts = counts;
    }

    @Override
    public void init(ProcessorContext context) {
        this.seeds = new BenchmarkSeeds(context.getStateStore(benchmarkItems.name()), counts);
    }

    @Override
    public ScoreAggregate transform(LeaderboardKey key, ScoreAggregate value) {
        if (value == null) {
            return null;
        }
        ScoreAggregate out = Aggregates.copy(value);
        out.setExpected(seeds.expectedAtLeast(key.getTask(), value.getScored() + value.getPending()));
        return out;
    }

    @Override
    public void close() {
        // the counts are the scorer's (shared with the other tasks), not this task's to drop
    }
}
