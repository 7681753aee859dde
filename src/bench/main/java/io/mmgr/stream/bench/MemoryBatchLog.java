package io.mmgr.stream.bench;

import io.mmgr.stream.judge.batch.BatchLog;
import io.mmgr.stream.judge.batch.BatchRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The batches topic as compaction leaves it, in memory, for unit tests of the batch lane: the latest record of each
 * local id, and every write in order (the lane's tests on the broker use the topic itself).
 */
public final class MemoryBatchLog implements BatchLog {

    private final Map<String, BatchRecord> latest = new LinkedHashMap<>();
    private final List<BatchRecord> writes = new ArrayList<>();

    @Override
    public synchronized void append(BatchRecord record) {
        latest.put(record.localId(), record);
        writes.add(record);
    }

    @Override
    public synchronized Collection<BatchRecord> load() {
        return List.copyOf(latest.values());
    }

    public synchronized BatchRecord latest(String localId) {
        return latest.get(localId);
    }

    public synchronized List<BatchRecord> writes() {
        return List.copyOf(writes);
    }

    public synchronized List<BatchRecord.State> states() {
        return writes.stream().map(BatchRecord::state).toList();
    }
}
