package io.mmgr.stream.topology.status;

import io.mmgr.stream.avro.CheckpointKey;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Keys of the status stores: strings {@code run NUL checkpoint NUL [task ...]}, so that a prefix scan
 * lists everything of one checkpoint. Everything of a run lives in one partition, chosen from the run
 * alone (not from serialized key bytes, which depend on the registry's schema ids): a checkpoint's answer
 * waits for its baseline's (the previous checkpoint of the same run), so both must be in one store.
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

    /** The prefix of every key of the checkpoint's run. */
    static String runOf(String checkpointKey) {
        return checkpointKey.substring(0, checkpointKey.indexOf(SEP) + 1);
    }

    static CheckpointKey parse(String checkpointKey) {
        String[] p = checkpointKey.split(String.valueOf(SEP), -1);
        return new CheckpointKey(p[0], p[1]);
    }

    static int partition(String run, int numPartitions) {
        byte[] bytes = run.getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(bytes)) % numPartitions;
    }

    /** Partitions the rows, comparisons, alerts and markers flowing into the status by run. */
    static final class ByRun<V> implements StreamPartitioner<CheckpointKey, V> {
        @Override
        public Optional<Set<Integer>> partitions(String topic, CheckpointKey key, V value, int numPartitions) {
            return Optional.of(Set.of(partition(key.getRunId(), numPartitions)));
        }
    }
}
