package io.mmgr.stream.topology.intake;

import io.mmgr.stream.contract.PartKind;
import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.PartResult;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.contract.Store;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Checks human labels before assembly applies them: the key's identifiers and the label's size, then
 * every field (finite metrics among them), then that the sample does not already hold
 * {@link InputLimits#labelsPerSample()} other annotators' labels (read from the assembly store, in the
 * same task). Refused labels become dead letters; a label's annotator may replace its own label.
 */
public final class LabelIntakeProcessor implements FixedKeyProcessor<SampleKey, byte[], IntakeResult> {

    static final String STAGE = "intake:labels";

    private final Deserializer<HumanLabel> deserializer;
    private final Serializer<SampleKey> keyBytes;
    private final InputCheck check;
    private final Store<SampleKey, AssemblyState> assemblyStore;
    private KeyValueStore<SampleKey, AssemblyState> store;
    private FixedKeyProcessorContext<SampleKey, IntakeResult> context;

    /** @param keyBytes an uncapped key serializer: the dead letter quotes the key's bytes however long it was */
    public LabelIntakeProcessor(Deserializer<HumanLabel> deserializer, Serializer<SampleKey> keyBytes, InputCheck check,
                                Store<SampleKey, AssemblyState> assemblyStore) {
        this.deserializer = deserializer;
        this.keyBytes = keyBytes;
        this.check = check;
        this.assemblyStore = assemblyStore;
    }

    @Override
    public void init(FixedKeyProcessorContext<SampleKey, IntakeResult> context) {
        this.context = context;
        this.store = assemblyStore.in(context);
    }

    @Override
    public void process(FixedKeyRecord<SampleKey, byte[]> record) {
        if (record.key() == null) {
            return;
        }
        context.forward(record.withValue(check(record.key(), record.value())));
    }

    IntakeResult check(SampleKey key, byte[] value) {
        Optional<InputCheck.Violation> badKey = check.check(key);
        if (badKey.isPresent()) {
            InputCheck.Violation v = badKey.get();
            return reject(key, value, v.reason().replace("field ", "key field "), v);
        }
        InputLimits limits = check.limits();
        String topic = context.recordMetadata().map(m -> m.topic()).orElse("human-labels");
        InputReader.Read<HumanLabel> read = InputReader.read(check, deserializer, topic, value, "label", limits.labelBytes(),
                "label-bytes", "HumanLabel", l -> check.checkLabel(l, l.getMetrics()));
        if (read.unreadable() != null) {
            return reject(key, value, read.unreadable(), null);
        }
        if (read.over() != null) {
            return reject(key, value, read.over().reason(), read.over());
        }
        HumanLabel label = read.record();
        if (label.getAnnotator().isBlank()) {
            return reject(key, value, "field annotator is empty", null);
        }
        AssemblyState state = store.get(key);
        if (state != null) {
            String part = PartKind.HUMAN_PART_PREFIX + label.getAnnotator();
            long others = state.getParts().values().stream().map(PartResult::getPart)
                    .filter(p -> p.startsWith(PartKind.HUMAN_PART_PREFIX) && !p.equals(part)).distinct().count();
            if (others >= limits.labelsPerSample()) {
                InputCheck.Violation v = new InputCheck.Violation("annotator", others + 1, limits.labelsPerSample(),
                        InputLimits.setting("labels-per-sample"), "the sample already has labels of " + others
                        + " annotators, the limit (" + InputLimits.setting("labels-per-sample") + ")");
                return reject(key, value, v.reason(), v);
            }
        }
        return new IntakeResult.ValidLabel(label);
    }

    private IntakeResult.Rejected reject(SampleKey key, byte[] value, String reason, InputCheck.Violation v) {
        String topic = context == null ? null : context.recordMetadata().map(m -> m.topic()).orElse(null);
        byte[] rawKey = keyBytes.serialize(topic == null ? "human-labels" : topic, key);
        return new IntakeResult.Rejected(DeadLetters.builder(STAGE, reason)
                .source(topic, context == null ? -1 : context.recordMetadata().map(m -> m.partition()).orElse(-1),
                        context == null ? -1L : context.recordMetadata().map(m -> m.offset()).orElse(-1L))
                .sampleRef(DeadLetters.shortRef(key.getRunId(), key.getCheckpointId(), key.getTask(), key.getSampleId(), key.getSeed()))
                .original(rawKey, value).limit(v).build());
    }
}
