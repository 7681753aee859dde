package io.mmgr.stream.topology.leaderboard;

import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.Stores;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.leaderboard.Agreement;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.contract.BenchmarkSeeds;
import io.mmgr.stream.contract.SampleKeys;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Turns task and all-tasks aggregates into published rows and keeps each row, as published, in
 * {@link Stores#leaderboardRows}: the REST API reads rows from there as they are, so a row
 * served and a row on the topic are the same record, {@code updatedAt} included. {@code updatedAt} is
 * the time the row last changed; an aggregate that changes nothing a row shows (a re-scored sample
 * with the same outcome) is neither stored again nor published. An all-tasks row expects every sample
 * of the benchmark from its first score on, not only those of the tasks scored so far.
 */
final class LeaderboardRows implements Processor<LeaderboardKey, ScoreAggregate, LeaderboardKey, LeaderboardRow> {

    private final RubricCatalog rubrics;
    private final Agreement.Policy policy;
    private final Store<LeaderboardKey, LeaderboardRow> published;
    private final Store<String, BenchmarkItem> benchmarkItems;
    private final BenchmarkSeeds.Shared counts;
    private ProcessorContext<LeaderboardKey, LeaderboardRow> context;
    private KeyValueStore<LeaderboardKey, LeaderboardRow> rows;
    private BenchmarkSeeds seeds;

    /** {@code published}: the leaderboard's rows store; {@code benchmarkItems}: the global table intake builds. */
    LeaderboardRows(RubricCatalog rubrics, Agreement.Policy policy, Store<LeaderboardKey, LeaderboardRow> published,
                    Store<String, BenchmarkItem> benchmarkItems, BenchmarkSeeds.Shared counts) {
        this.rubrics = rubrics;
        this.policy = policy;
        this.published = published;
        this.benchmarkItems = benchmarkItems;
        this.counts = counts;
    }

    @Override
    public void init(ProcessorContext<LeaderboardKey, LeaderboardRow> context) {
        this.context = context;
        this.rows = published.in(context);
        this.seeds = new BenchmarkSeeds(context.getStateStore(benchmarkItems.name()), counts);
    }

    @Override
    public void process(Record<LeaderboardKey, ScoreAggregate> record) {
        LeaderboardKey k = record.key();
        if (k == null) {
            return;
        }
        if (record.value() == null) {
            rows.delete(k); // deletes are not published (the topic keeps the last row), but the API stops serving it
            return;
        }
        Instant now = Instant.ofEpochMilli(context.currentSystemTimeMs());
        LeaderboardRow row = LeaderboardTopology.row(k, record.value(), rubrics, policy, now);
        if (SampleKeys.ALL_TASKS.equals(k.getTask())) {
            row.setSamplesExpected(Math.max(row.getSamplesExpected(),
                    seeds.totalAtLeast(row.getSamplesScored() + row.getSamplesPending())));
        }
        LeaderboardRow old = rows.get(k);
        if (old != null) {
            row.setUpdatedAt(old.getUpdatedAt());
            if (row.equals(old)) {
                return;
            }
            row.setUpdatedAt(now);
        }
        rows.put(k, row);
        context.forward(record.withValue(row));
    }
}
