package io.mmgr.stream.contract;

import io.mmgr.stream.avro.SampleKey;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Keys of the comparison stores: strings {@code run NUL task NUL checkpoint [NUL sample NUL seed]},
 * so that a prefix scan lists a run x task's checkpoints, or one checkpoint's samples in an order
 * every checkpoint shares (which lets two checkpoints be paired by walking both in step). Everything
 * of one run x task lives in one partition, chosen from run and task alone.
 */
public final class ComparisonKeys {

    public static final char SEP = '\u0000';

    private ComparisonKeys() {
    }

    /** The prefix of every key of a run. */
    public static String run(String run) {
        return run + SEP;
    }

    public static String runTask(String run, String task) {
        return run(run) + task + SEP;
    }

    public static String checkpoint(String run, String task, String checkpoint) {
        return runTask(run, task) + checkpoint;
    }

    public static String samplesOf(String checkpointKey) {
        return checkpointKey + SEP;
    }

    public static String sample(SampleKey k) {
        return samplesOf(checkpoint(k.getRunId(), k.getTask(), k.getCheckpointId())) + k.getSampleId() + SEP + k.getSeed();
    }

    /**
     * The key under which a sample counts for its checkpoint's all-tasks comparison: task {@code *},
     * sample {@code <task>/<sampleId>}, so that checkpoints pair on the same task's same sample.
     */
    public static SampleKey allTasks(SampleKey k) {
        return new SampleKey(k.getRunId(), k.getCheckpointId(), SampleKeys.ALL_TASKS, k.getTask() + "/" + k.getSampleId(),
                k.getSeed());
    }

    /** The task of a sample id made by {@link #allTasks}. */
    public static String taskOfAllTasksSample(String sampleId) {
        int slash = sampleId.indexOf('/');
        return slash < 0 ? sampleId : sampleId.substring(0, slash);
    }

    /** Alert store key. */
    public static String alert(String checkpointKey, String kind) {
        return checkpointKey + SEP + kind;
    }

    /** {run, task, checkpoint, ...} of a store key. */
    public static List<String> parts(String key) {
        return List.of(key.split(String.valueOf(SEP), -1));
    }

    public static int partition(String run, String task, int numPartitions) {
        byte[] bytes = (run + SEP + task).getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(bytes)) % numPartitions;
    }

    /** Partitions the outcomes flowing into the comparison by run x task. */
    public static final class ByRunTask<V> implements StreamPartitioner<SampleKey, V> {
        @Override
        public Optional<Set<Integer>> partitions(String topic, SampleKey key, V value, int numPartitions) {
            return Optional.of(Set.of(partition(key.getRunId(), key.getTask(), numPartitions)));
        }
    }
}
