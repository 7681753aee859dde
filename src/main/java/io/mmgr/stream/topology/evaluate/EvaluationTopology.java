package io.mmgr.stream.topology.evaluate;

import io.mmgr.stream.artifacts.ArtifactResolver;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.topology.SamplePartitioner;
import io.mmgr.stream.topology.Topics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * Deterministic evaluation: a sub-topology of its own, reading evaluation requests, so that the
 * CPU-heavy evaluators scale with its partitions and never hold up intake or assembly.
 */
public final class EvaluationTopology {

    private EvaluationTopology() {
    }

    public static void build(StreamsBuilder builder, Topics topics, EvaluatorRegistry registry, ArtifactResolver artifacts) {
        KStream<SampleKey, Evaluated> evaluated = builder
                .stream(topics.evaluationRequests.name(),
                        Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("evaluate-source"))
                .process(() -> new EvaluateProcessor(registry, artifacts,
                                topics.evaluationRequests.keySerde().deserializer(),
                                topics.evaluationRequests.valueSerde().deserializer()),
                        Named.as("evaluate-run"));

        evaluated.filter((k, v) -> v.result() != null && k != null, Named.as("evaluate-has-result"))
                .mapValues(Evaluated::result, Named.as("evaluate-result"))
                .to(topics.cvResults.name(),
                        topics.cvResults.produced("evaluate-result-sink", new SamplePartitioner<DeterministicResult>()));

        evaluated.filter((k, v) -> v.letter() != null, Named.as("evaluate-has-dead-letter"))
                .map((k, v) -> KeyValue.pair(v.letter().getOriginalKey() == null ? null
                        : toBytes(v.letter().getOriginalKey()), v.letter()), Named.as("evaluate-dead-letter"))
                .to(topics.deadLetter.name(), topics.deadLetter.produced("evaluate-dead-letter-sink"));
    }

    private static byte[] toBytes(java.nio.ByteBuffer buffer) {
        java.nio.ByteBuffer b = buffer.duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
