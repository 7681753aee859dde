package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.registry.SchemaRegistryClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dead-letter handlers called as Kafka Streams calls them, with our registry on loopback: every
 * letter they return fits the dead-letter topic whatever the failed record's size, and a send refused
 * as too large lowers the topic's cap so that the retry is stopped at serialization.
 */
@Tag("unit")
class DeadLetterHandlersTest {

    @TempDir
    static Path dir;
    static RegistryServer registry;
    static Deserializer<DeadLetter> letters;

    @BeforeAll
    static void start() throws Exception {
        registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), dir);
        letters = new AvroSerdes(new SchemaRegistryClient(registry.url()), true).forValues(DeadLetter.class).deserializer();
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    record Ctx(byte[] sourceRawKey, byte[] sourceRawValue) implements ErrorHandlerContext {
        public String topic() {
            return "t.generations";
        }

        public int partition() {
            return 2;
        }

        public long offset() {
            return 41;
        }

        public Headers headers() {
            return new RecordHeaders();
        }

        public String processorNodeId() {
            return "assembly-assemble";
        }

        public TaskId taskId() {
            return new TaskId(1, 2);
        }

        public long timestamp() {
            return 0;
        }
    }

    Map<String, Object> config(RecordCaps caps) {
        return Map.of(DeadLetterHandlers.TOPIC, "t.dead-letter", DeadLetterHandlers.REGISTRY_URL, registry.url(), RecordCaps.CONFIG, caps);
    }

    static DeadLetter only(List<ProducerRecord<byte[], byte[]>> records) {
        assertThat(records).hasSize(1);
        ProducerRecord<byte[], byte[]> r = records.get(0);
        assertThat(r.topic()).isEqualTo("t.dead-letter");
        assertThat(r.value().length).as("serialized letter").isLessThanOrEqualTo(DeadLetters.MAX_LETTER_BYTES);
        assertThat(r.key() == null ? 0 : r.key().length).isLessThanOrEqualTo(DeadLetters.KEPT_KEY_BYTES);
        return letters.deserialize(r.topic(), r.value());
    }

    @Test
    void aRecordTheBrokerRefusesBecomesAMinimalLetterAndLowersItsTopicsCap() {
        RecordCaps caps = new RecordCaps(Map.of("t.sample-scores", 1_048_588), 1_048_588);
        var handler = new DeadLetterHandlers.Production();
        handler.configure(config(caps));
        byte[] sourceKey = random(200_000);
        byte[] sourceValue = random(3 << 20);
        ProducerRecord<byte[], byte[]> refused = new ProducerRecord<>("t.sample-scores", random(40), random(600_000));
        assertThat(caps.valueCap("t.sample-scores")).isGreaterThan(600_000);

        var response = handler.handleError(new Ctx(sourceKey, sourceValue), refused,
                new RecordTooLargeException("The request included a message larger than the max message size the server will accept."));

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
        DeadLetter d = only(response.deadLetterQueueRecords());
        assertThat(d.getStage()).isEqualTo("produce:t.sample-scores");
        assertThat(d.getReason()).startsWith("cannot write a 600040-byte record to t.sample-scores: The request included");
        assertThat(d.getSourceTopic()).isEqualTo("t.generations");
        assertThat(d.getSourceOffset()).isEqualTo(41);
        assertThat(d.getOriginalValue()).isNull();
        assertThat(d.getOriginalValueBytes()).isEqualTo(3 << 20);
        assertThat(d.getOriginalValueSha256()).isEqualTo(DeadLetters.sha256(sourceValue));
        assertThat(d.getOriginalKeyBytes()).isEqualTo(200_000);
        // the retry of the aborted transaction meets the cap at serialization
        assertThat(caps.valueCap("t.sample-scores")).isLessThan(600_040);
        assertThat(caps.valueCap("t.leaderboard")).as("other topics keep theirs").isEqualTo(1_048_588 - RecordCaps.HEADROOM);

        var retry = handler.handleError(new Ctx(null, null), refused, new TimeoutException("expired"));
        assertThat(retry.result()).isEqualTo(ProductionExceptionHandler.Result.RETRY);
    }

    @Test
    void aRecordOverItsCapAtSerializationNamesTheSample() {
        var handler = new DeadLetterHandlers.Production();
        handler.configure(config(RecordCaps.kafkaDefaults()));
        AvroSerdes capped = new AvroSerdes(new SchemaRegistryClient(registry.url()), true).withSizeCap((topic, isKey) -> 100);
        SampleKey key = new SampleKey("run", "ckpt", "mind2web", "ep1", 3);
        Exception e;
        try {
            capped.forValues(SampleKey.class).serializer().serialize("t.sample-scores",
                    new SampleKey("r".repeat(200), "c", "t", "s", 0));
            throw new AssertionError("the cap did not apply");
        } catch (AvroSerdes.OversizedRecordException x) {
            e = x;
        }
        var response = handler.handleSerializationError(new Ctx("k".getBytes(), "v".getBytes()),
                new ProducerRecord<>("t.sample-scores", key, "value"), e, ProductionExceptionHandler.SerializationExceptionOrigin.VALUE);
        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
        DeadLetter d = only(response.deadLetterQueueRecords());
        assertThat(d.getSampleRef()).isEqualTo("run/ckpt/mind2web/ep1#3");
        assertThat(d.getReason()).contains("SampleKey value for topic 't.sample-scores' is").contains("over the 100 bytes it may take");
    }

    @Test
    void processingAndDeserializationLettersKeepTheirBytesUpToTheCaps() {
        var processing = new DeadLetterHandlers.Processing();
        processing.configure(config(RecordCaps.kafkaDefaults()));
        byte[] value = random(5 << 20);
        byte[] key = random(10_000);
        var response = processing.handleError(new Ctx(key, value), new Record<>("k", "v", 0L),
                new IllegalStateException("x".repeat(50_000)));
        DeadLetter d = only(response.deadLetterQueueRecords());
        assertThat(d.getStage()).isEqualTo("process:assembly-assemble");
        assertThat(d.getOriginalValue().remaining()).isEqualTo(DeadLetters.KEPT_VALUE_BYTES);
        assertThat(d.getOriginalValueBytes()).isEqualTo(5 << 20);
        assertThat(d.getOriginalKey().remaining()).isEqualTo(DeadLetters.KEPT_KEY_BYTES);
        assertThat(d.getReason()).hasSizeLessThanOrEqualTo(DeadLetters.MAX_REASON_CHARS).endsWith("[50000 chars]");
        assertThat(d.getTruncated()).isTrue();

        var deserialization = new DeadLetterHandlers.Deserialization();
        deserialization.configure(config(RecordCaps.kafkaDefaults()));
        var unreadable = deserialization.handleError(new Ctx(key, value), null, new org.apache.kafka.common.errors.SerializationException("bad"));
        DeadLetter u = only(unreadable.deadLetterQueueRecords());
        assertThat(u.getStage()).isEqualTo("deserialize:t.generations");
        assertThat(u.getOriginalValueSha256()).isEqualTo(DeadLetters.sha256(value));
    }
}
