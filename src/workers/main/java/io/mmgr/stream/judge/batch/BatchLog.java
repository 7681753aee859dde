package io.mmgr.stream.judge.batch;

import java.util.Collection;

/** Where the lane keeps its batches: the compacted batches topic ({@link KafkaBatchLog}). */
public interface BatchLog extends AutoCloseable {

    /** Writes a record and returns once it is durable; throws when it cannot be written. */
    void append(BatchRecord record);

    /** Every batch's latest record, read to the end of the log. */
    Collection<BatchRecord> load();

    @Override
    default void close() {
    }
}
