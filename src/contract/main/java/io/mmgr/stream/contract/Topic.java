package io.mmgr.stream.contract;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StreamPartitioner;

/** A topic with its key and value serdes, so a topology can never pair a topic with the wrong types. */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {

    public Consumed<K, V> consumed(String processorName) {
        return Consumed.with(keySerde, valueSerde).withName(processorName);
    }

    public Produced<K, V> produced(String processorName) {
        return Produced.with(keySerde, valueSerde).withName(processorName);
    }

    public Produced<K, V> produced(String processorName, StreamPartitioner<? super K, ? super V> partitioner) {
        return Produced.with(keySerde, valueSerde, partitioner).withName(processorName);
    }
}
