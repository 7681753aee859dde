package io.mmgr.stream.contract;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A state store with its key and value serdes, so that the processor that writes it, the table that
 * materializes it and the web layer that reads it agree on its name and types. The name is public
 * contract: it names the store's changelog topic.
 */
public record Store<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {

    /** A persistent (RocksDB), changelogged key-value store of this name and types, for processors. */
    public StoreBuilder<KeyValueStore<K, V>> persistent() {
        return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
                org.apache.kafka.streams.state.Stores.persistentKeyValueStore(name), keySerde, valueSerde);
    }

    /** A table materialized in this store. */
    public Materialized<K, V, KeyValueStore<Bytes, byte[]>> materialized() {
        return Materialized.<K, V, KeyValueStore<Bytes, byte[]>>as(name).withKeySerde(keySerde).withValueSerde(valueSerde);
    }

    /** The store as a processor connected to it sees it. */
    public KeyValueStore<K, V> in(ProcessingContext context) {
        return context.getStateStore(name);
    }
}
