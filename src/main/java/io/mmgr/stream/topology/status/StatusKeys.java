package io.mmgr.stream.topology.status;

import io.mmgr.stream.avro.CheckpointKey;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Keys of the status stores: strings {@code run NUL checkpoint NUL [task ...]}, so that a prefix scan
 * lists everything of one checkpoint. Everything of a checkpoint lives in one partition, chosen from
 * run and checkpoint alone (not from serialized key bytes, which depend on the registry's schema ids).
 */
final class StatusKeys {

    static final char SEP = '\u0000';

    private StatusKeys() {
    }

    /** The checkpoint's key, and the prefix of its rows, comparisons and alerts. */
    static String checkpoint(String run, String checkpoint) {
        return run + SEP + checkpoint + SEP;
    }

    static String alert(String checkpointKey, String task, String kind, String baseline) {
        return checkpointKey + task + SEP + kind + SEP + baseline;
    }

    /** The task of a row or comparison key. */
    static String task(String checkpointKey, String key) {
        return key.substring(checkpointKey.length());
    }

    static CheckpointKey parse(String checkpointKey) {
        String[] p = checkpointKey.split(String.valueOf(SEP), -1);
        return new CheckpointKey(p[0], p[1]);
    }

    static int partition(String run, String checkpoint, int numPartitions) {
        byte[] bytes = (run + SEP + checkpoint).getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(bytes)) % numPartitions;
    }

    /** Partitions the rows, comparisons, alerts and markers flowing into the status by run x checkpoint. */
    static final class ByCheckpoint<V> implements StreamPartitioner<CheckpointKey, V> {
        @Override
        public Optional<Set<Integer>> partitions(String topic, CheckpointKey key, V value, int numPartitions) {
            return Optional.of(Set.of(partition(key.getRunId(), key.getCheckpointId(), numPartitions)));
        }
    }
}
