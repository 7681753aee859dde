package io.mmgr.stream.topology.intake;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/** Reads each raw generation event with the {@link EventReader}; anything unusable becomes a dead letter. */
final class ParseProcessor implements FixedKeyProcessor<byte[], byte[], IntakeResult> {

    private final EventReader reader;
    private FixedKeyProcessorContext<byte[], IntakeResult> context;

    ParseProcessor(EventReader reader) {
        this.reader = reader;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], IntakeResult> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], byte[]> record) {
        RawRecord raw = new RawRecord(record.key(), record.value(), context.recordMetadata());
        context.forward(record.withValue(reader.read(raw)));
    }
}
