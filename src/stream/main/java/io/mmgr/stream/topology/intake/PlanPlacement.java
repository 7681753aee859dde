package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.contract.SampleKeys;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Marks a plan {@link Placed#local() local} when the task that made it is the one that assembles its sample:
 * the task's partition is the sample's ({@link SampleKeys#partition}). Intake and assembly share a sub-topology,
 * so task <i>p</i> holds assembly's store partition <i>p</i>; a local plan goes straight to it, and only the
 * others take the sample-plans repartition topic (a produce, a fetch and a serde round trip each). A producer
 * that sends each generation event to its sample's partition (the bundled clients do) makes every plan local.
 * The task, not the record's metadata, decides: an event that waited for its item is planned in a punctuation,
 * in the same task.
 */
final class PlanPlacement implements FixedKeyProcessor<SampleKey, SamplePlan, PlanPlacement.Placed> {

    /** A plan and whether this task assembles it. */
    record Placed(SamplePlan plan, boolean local) {
    }

    private final int partitions;
    private FixedKeyProcessorContext<SampleKey, Placed> context;

    PlanPlacement(int partitions) {
        this.partitions = partitions;
    }

    @Override
    public void init(FixedKeyProcessorContext<SampleKey, Placed> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<SampleKey, SamplePlan> record) {
        boolean local = SampleKeys.partition(record.key(), partitions) == context.taskId().partition();
        context.forward(record.withValue(new Placed(record.value(), local)));
    }
}
