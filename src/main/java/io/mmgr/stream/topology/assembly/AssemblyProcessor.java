package io.mmgr.stream.topology.assembly;

import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Applies arrivals to the changelogged per-sample store and forwards the scores the assembler emits.
 * A fixed-key processor: the score keeps the sample's key and partition, so the score table
 * downstream needs no repartition.
 */
final class AssemblyProcessor implements FixedKeyProcessor<SampleKey, Arrival, SampleScore> {

    private final ScoreAssembler assembler;
    private final String storeName;
    private KeyValueStore<SampleKey, AssemblyState> store;
    private FixedKeyProcessorContext<SampleKey, SampleScore> context;

    AssemblyProcessor(ScoreAssembler assembler, String storeName) {
        this.assembler = assembler;
        this.storeName = storeName;
    }

    @Override
    public void init(FixedKeyProcessorContext<SampleKey, SampleScore> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
    }

    @Override
    public void process(FixedKeyRecord<SampleKey, Arrival> record) {
        if (record.key() == null || record.value() == null) {
            return;
        }
        AssemblyState state = assembler.apply(store.get(record.key()), record.value());
        var emission = assembler.score(record.key(), state, Instant.now());
        emission.ifPresent(e -> state.setLastEmitted(e.fingerprint()));
        store.put(record.key(), state);
        emission.ifPresent(e -> context.forward(record.withValue(e.score())));
    }
}
