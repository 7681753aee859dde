package io.mmgr.stream.app;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Kafka Streams restores from changelogs, per store partition and in total, logged when each
 * restoration ends: how a restart's cost shows (a clean one restores nothing; an unclean one, with
 * transactional state stores, the records written since the last commit).
 */
public final class RestoreLog implements StateRestoreListener {

    private static final Logger LOG = LoggerFactory.getLogger(RestoreLog.class);

    private final Map<TopicPartition, Long> started = new ConcurrentHashMap<>();
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong partitions = new AtomicLong();
    private final AtomicLong nanos = new AtomicLong();

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
        started.put(partition, System.nanoTime());
        LOG.debug("restoring {} from {} offsets {}..{}", store, partition, startingOffset, endingOffset);
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
        records.addAndGet(numRestored);
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
        Long t0 = started.remove(partition);
        long took = t0 == null ? 0 : System.nanoTime() - t0;
        partitions.incrementAndGet();
        nanos.addAndGet(took);
        if (totalRestored > 0) {
            LOG.info("restored {} from {}: {} records in {} ms", store, partition, totalRestored, took / 1_000_000);
        } else {
            LOG.debug("restored {} from {}: nothing to restore", store, partition);
        }
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String store, long totalRestored) {
        started.remove(partition);
    }

    /** Records restored since start, over every store. */
    public long records() {
        return records.get();
    }

    /** Store partitions whose restoration ended since start. */
    public long partitions() {
        return partitions.get();
    }

    public String summary() {
        return String.format(Locale.ROOT, "%d records into %d store partitions (%.1f s summed over partitions)",
                records.get(), partitions.get(), nanos.get() / 1e9);
    }
}
