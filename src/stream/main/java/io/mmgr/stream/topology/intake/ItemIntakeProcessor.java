package io.mmgr.stream.topology.intake;

import io.mmgr.stream.tasks.EventValidator;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.contract.SampleKeys;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Checks raw benchmark items against the input limits before anything reads them: the record's size,
 * then every field; then that the item can be keyed. A valid item is re-keyed {@code <task>/<sampleId>}
 * from its own fields (what intake looks it up by); a tombstone deletes the item its key names.
 *
 * <p>Why a validated copy feeds the global table rather than the table checking what it reads: Kafka
 * Streams cannot source one topic as both a stream and a global table, and a global table cannot write a
 * dead letter; so the checks run here, once, and decide both. The copy makes an item visible to intake a
 * little after it was published, which is why intake waits for items ({@link ItemWaitProcessor}).
 */
final class ItemIntakeProcessor implements Processor<byte[], byte[], String, IntakeResult> {

    static final String STAGE = "intake:benchmark";

    private final Deserializer<BenchmarkItem> deserializer;
    private final InputCheck check;
    private ProcessorContext<String, IntakeResult> context;

    ItemIntakeProcessor(Deserializer<BenchmarkItem> deserializer, InputCheck check) {
        this.deserializer = deserializer;
        this.check = check;
    }

    @Override
    public void init(ProcessorContext<String, IntakeResult> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RawRecord raw = new RawRecord(record.key(), record.value(), context.recordMetadata());
        IntakeResult result = check(raw);
        String key = result instanceof IntakeResult.ValidItem v ? v.key() : null;
        context.forward(new Record<>(key, result, record.timestamp()));
    }

    IntakeResult check(RawRecord raw) {
        if (raw.value() == null) {
            // a deletion: only of a key an item could have had
            String key = raw.key() == null ? null : new String(raw.key(), StandardCharsets.UTF_8);
            if (key == null || raw.key().length > 2 * check.limits().idBytes() + 1 || key.indexOf('/') < 0) {
                return reject(raw, "a tombstone whose key is not a benchmark item key (<task>/<sampleId>)", null);
            }
            return new IntakeResult.ValidItem(key, null);
        }
        String topic = raw.source().map(m -> m.topic()).orElse("benchmark");
        InputReader.Read<BenchmarkItem> read = InputReader.read(check, deserializer, topic, raw.value(), "item",
                check.limits().itemBytes(), "item-bytes", "BenchmarkItem", check::check);
        if (read.unreadable() != null) {
            return reject(raw, read.unreadable(), read.error());
        }
        if (read.over() != null) {
            return EventReader.rejectOver(raw, STAGE, read.over(), null);
        }
        BenchmarkItem item = read.record();
        for (String[] field : new String[][] {{"task", item.getTask()}, {"sampleId", item.getSampleId()}}) {
            if (field[1].isBlank() || !EventValidator.isId(field[1])) {
                return reject(raw, "field " + field[0] + " '" + field[1] + "' is empty, contains '/' or starts with a space", null);
            }
        }
        return new IntakeResult.ValidItem(SampleKeys.itemKey(item.getTask(), item.getSampleId()), item);
    }

    private static IntakeResult.Rejected reject(RawRecord raw, String reason, Throwable e) {
        return new IntakeResult.Rejected(DeadLetters.of(raw.source(), STAGE, reason, e, raw.key(), raw.value(), null));
    }
}
