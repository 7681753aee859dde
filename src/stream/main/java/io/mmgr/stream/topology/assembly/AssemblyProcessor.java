package io.mmgr.stream.topology.assembly;

import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.Store;
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
    private final Store<SampleKey, AssemblyState> state;
    private KeyValueStore<SampleKey, AssemblyState> store;
    private FixedKeyProcessorContext<SampleKey, SampleScore> context;

    AssemblyProcessor(ScoreAssembler assembler, Store<SampleKey, AssemblyState> state) {
        this.assembler = assembler;
        this.state = state;
    }

    @Override
    public void init(FixedKeyProcessorContext<SampleKey, SampleScore> context) {
        this.context = context;
        this.store = state.in(context);
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
