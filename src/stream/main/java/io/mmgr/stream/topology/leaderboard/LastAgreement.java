package io.mmgr.stream.topology.leaderboard;

import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.contract.Store;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * A changed task row with the agreement its last foreign-key join gave it, so that the row is published
 * without waiting the join's two hops. A row the join has not answered yet is left to the join (its answer is
 * its first publication, agreement included), and so is a delete.
 */
final class LastAgreement implements FixedKeyProcessor<LeaderboardKey, ScoreAggregate, ScoreAggregate> {

    private final Store<LeaderboardKey, ScoreAggregate> joined;
    private FixedKeyProcessorContext<LeaderboardKey, ScoreAggregate> context;
    private TimestampedKeyValueStore<LeaderboardKey, ScoreAggregate> rows; // a table's store: values with their timestamps

    LastAgreement(Store<LeaderboardKey, ScoreAggregate> joined) {
        this.joined = joined;
    }

    @Override
    public void init(FixedKeyProcessorContext<LeaderboardKey, ScoreAggregate> context) {
        this.context = context;
        this.rows = context.getStateStore(joined.name());
    }

    @Override
    public void process(FixedKeyRecord<LeaderboardKey, ScoreAggregate> record) {
        if (record.value() == null) {
            return;
        }
        ScoreAggregate before = ValueAndTimestamp.getValueOrNull(rows.get(record.key()));
        if (before == null) {
            return;
        }
        context.forward(record.withValue(LeaderboardTopology.withAgreement(record.value(), before.getAgreement())));
    }
}
