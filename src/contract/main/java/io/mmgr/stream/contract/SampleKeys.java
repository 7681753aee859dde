package io.mmgr.stream.contract;

import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.ItemScoreKey;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/** Keys derived from events, and the partitioning that keeps all parts of a sample together. */
public final class SampleKeys {

    /** Task of the all-tasks leaderboard row of a checkpoint. */
    public static final String ALL_TASKS = "*";

    private SampleKeys() {
    }

    public static SampleKey of(GenerationEvent e) {
        return new SampleKey(e.getRunId(), e.getCheckpointId(), e.getTask(), e.getSampleId(), e.getSeed());
    }

    /** {@code run/checkpoint/task/sample#seed}, for messages and dead letters. */
    public static String ref(SampleKey k) {
        return k.getRunId() + "/" + k.getCheckpointId() + "/" + k.getTask() + "/" + k.getSampleId() + "#" + k.getSeed();
    }

    /** Key of the benchmark topic: {@code <task>/<sampleId>}. */
    public static String itemKey(String task, String sampleId) {
        return task + "/" + sampleId;
    }

    public static ItemScoreKey item(SampleKey k) {
        return new ItemScoreKey(k.getRunId(), k.getCheckpointId(), k.getTask(), k.getSampleId());
    }

    public static LeaderboardKey board(ItemScoreKey k) {
        return new LeaderboardKey(k.getRunId(), k.getCheckpointId(), k.getTask());
    }

    public static LeaderboardKey allTasks(LeaderboardKey k) {
        return new LeaderboardKey(k.getRunId(), k.getCheckpointId(), ALL_TASKS);
    }

    /**
     * Partition of a sample from its fields, not from serialized key bytes, so that every producer
     * (the topology, the judge worker, the label command) agrees whatever schema id the registry gave.
     */
    public static int partition(SampleKey k, int numPartitions) {
        String canonical = k.getRunId() + '\u0000' + k.getCheckpointId() + '\u0000' + k.getTask() + '\u0000'
                + k.getSampleId() + '\u0000' + k.getSeed();
        return Utils.toPositive(Utils.murmur2(canonical.getBytes(StandardCharsets.UTF_8))) % numPartitions;
    }
}
