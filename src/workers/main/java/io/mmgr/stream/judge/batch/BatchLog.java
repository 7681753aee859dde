package io.mmgr.stream.judge.batch;

import java.util.Collection;

/** Where the lane keeps its batches: the compacted batches topic ({@link KafkaBatchLog}). */
public interface BatchLog extends AutoCloseable {

    /**
     * Writes a record and returns once it is durable; throws when it cannot be written ({@link TooLarge} when the
     * record itself is refused for its size).
     */
    void append(BatchRecord record);

    /** Every batch's latest record, read to the end of the log. */
    Collection<BatchRecord> load();

    /**
     * The largest record ({@link BatchRecord#toJson()}) the log takes, in bytes; the lane cuts its batches to it. May
     * block to ask the broker: called on the lane's scheduler only. Unbounded for a log in memory.
     */
    default int maxRecordBytes() {
        return Integer.MAX_VALUE;
    }

    @Override
    default void close() {
    }

    /** The log refused a record for its size: written again as it is, it is refused again. */
    final class TooLarge extends IllegalStateException {
        private final int bytes;

        public TooLarge(String message, int bytes, Throwable cause) {
            super(message, cause);
            this.bytes = bytes;
        }

        /** The refused record's size ({@link BatchRecord#toJson()}). */
        public int bytes() {
            return bytes;
        }
    }
}
