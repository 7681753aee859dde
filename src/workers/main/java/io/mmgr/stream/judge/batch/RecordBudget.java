package io.mmgr.stream.judge.batch;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * How many bytes of requests one batch's record may hold: the batches log's record limit, less what a SUBMITTED or
 * ENDED record adds to the SUBMITTING one ({@link BatchRecord#MAX_GROWTH}) and the record's fixed part. Used on the
 * lane's scheduler and, for the due check, under the lane's lock.
 */
final class RecordBudget {

    /** The longest {@link Instant#toString()} before year 10000: a record's fixed part is at most this template's. */
    private static final Instant LONGEST_INSTANT = Instant.parse("2026-01-01T00:00:00.123456789Z");

    private final int fixed;
    private volatile long recordLimit;

    /**
     * @param logMax     {@link BatchLog#maxRecordBytes()}
     * @param workerId   the lane's worker id (its local ids are this, a dash and a UUID)
     * @param protocolId the protocol its records name
     */
    RecordBudget(int logMax, String workerId, String protocolId) {
        this.fixed = new BatchRecord(workerId + "-" + new UUID(0, 0), BatchRecord.State.SUBMITTING, null, protocolId, LONGEST_INSTANT,
                Map.of(), "").fixedBytes();
        this.recordLimit = (long) logMax - BatchRecord.MAX_GROWTH;
    }

    /** The bytes a batch's requests may take ({@link BatchRecord#requestBytes} summed). */
    long forRequests() {
        return Math.max(0, recordLimit - fixed);
    }

    /** Why a request whose entry takes {@code bytes} fits in no batch: its size and the limit, for its verdict. */
    String tooLarge(int bytes) {
        return "the request key takes " + bytes + " bytes in the batch record, over the " + forRequests()
                + " bytes a record of the batches topic leaves for requests (records of up to " + (recordLimit + BatchRecord.MAX_GROWTH)
                + " bytes, read from its max.message.bytes and the producer's max.request.size less headroom)";
    }

    /**
     * The log refused a record of {@code bytes} (its limit was lowered after it was read): from now on batches take
     * half of what was refused (or of the budget, if smaller), so the next ones fit at once instead of one refusal each.
     *
     * @return the new record limit
     */
    long refused(int bytes) {
        recordLimit = Math.min(recordLimit, bytes) / 2;
        return recordLimit;
    }
}
