package io.mmgr.stream.contract;

import io.mmgr.stream.avro.GenerationEvent;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * How the bundled producers send a generation event: keyed {@code run/checkpoint/task/sample#seed} for people
 * reading the topic, and to its sample's partition ({@link SampleKeys#partition}). The scorer accepts an event
 * on any partition, but one on its sample's partition is assembled by the task that read it, without the
 * sample-plans repartition topic (a produce, a fetch and a serde round trip per sample).
 */
public final class GenerationRecords {

    private GenerationRecords() {
    }

    /** {@code value}: the event serialized; {@code partitions}: the generations topic's partition count. */
    public static ProducerRecord<byte[], byte[]> of(String topic, int partitions, GenerationEvent e, byte[] value) {
        var key = SampleKeys.of(e);
        return new ProducerRecord<>(topic, SampleKeys.partition(key, partitions),
                SampleKeys.ref(key).getBytes(StandardCharsets.UTF_8), value);
    }
}
