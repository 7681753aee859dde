package io.mmgr.stream.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.MetricStat;
import io.mmgr.stream.embedded.registry.RegistryServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Bytes that are not what the deserializer expects fail with a message that says what is wrong. */
@Tag("unit")
class WireFormatTest {

    private static RegistryServer server;
    private static AvroSerdes serdes;

    @BeforeAll
    static void start() throws IOException {
        server = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null);
        serdes = new AvroSerdes(new SchemaRegistryClient(server.url()), true);
    }

    @AfterAll
    static void stop() {
        serdes.client().close();
        server.close();
    }

    private final Deserializer<GenerationEvent> events = serdes.forValues(GenerationEvent.class).deserializer();

    @Test
    void jsonTextHasTheWrongMagicByte() {
        byte[] json = "{\"runId\":\"r\"}".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> events.deserialize("events", json))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("not Confluent Avro wire format: magic byte 0x7b")
                .hasMessageContaining("topic 'events'");
    }

    @Test
    void aNonZeroMagicByteIsRefusedEvenWithAValidBody() {
        byte[] good = serdes.forValues(MetricStat.class).serializer().serialize("stats", new MetricStat(1.0, 2L));
        byte[] bad = good.clone();
        bad[0] = 1;

        assertThatThrownBy(() -> serdes.forValues(MetricStat.class).deserializer().deserialize("stats", bad))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("magic byte 0x01");
    }

    @Test
    void fewerThanFiveBytesAreTooShort() {
        for (byte[] data : new byte[][] {{}, {0}, {0, 0, 0, 1}}) {
            assertThatThrownBy(() -> events.deserialize("events", data))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("not Confluent Avro wire format: " + data.length + " byte(s)");
        }
    }

    @Test
    void nullIsNotAnError() {
        assertThat(events.deserialize("events", null)).isNull();
    }

    @Test
    void anUnknownSchemaIdIsNamed() {
        byte[] data = ByteBuffer.allocate(6).put((byte) 0).putInt(12345).put((byte) 0).array();

        assertThatThrownBy(() -> events.deserialize("events", data))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("unknown schema id 12345")
                .hasMessageContaining(server.url());
    }

    @Test
    void truncatedAvroIsReportedAsTruncated() {
        byte[] whole = serdes.forValues(GenerationEvent.class).serializer()
                .serialize("events", TestRecords.generationEvent());
        assertThat(events.deserialize("events", whole)).isEqualTo(TestRecords.generationEvent());

        for (int keep : new int[] {5, 6, whole.length / 2, whole.length - 1}) {
            byte[] cut = Arrays.copyOf(whole, keep);
            assertThatThrownBy(() -> events.deserialize("events", cut))
                    .as("cut to %d of %d bytes", keep, whole.length)
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("truncated Avro data for schema id " + ByteBuffer.wrap(whole, 1, 4).getInt());
        }
    }

    @Test
    void aWriterSchemaTheClassCannotReadIsRefusedWithTheReason() throws IOException {
        // same record name, but "count" became a string: no Avro resolution from string to long
        Schema alien = new Schema.Parser().parse("""
                {"type": "record", "name": "MetricStat", "namespace": "io.mmgr.stream.avro", "fields": [
                  {"name": "mean", "type": "double"}, {"name": "count", "type": "string"}]}""");
        int id = serdes.client().register("alien-value", alien);
        GenericRecord record = new GenericData.Record(alien);
        record.put("mean", 1.0);
        record.put("count", "many");
        byte[] data = RegistryContractTest.frame(id, alien, record);

        Deserializer<MetricStat> stats = serdes.forValues(MetricStat.class).deserializer();
        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> stats.deserialize("alien", data))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("schema id " + id)
                    .hasMessageContaining("cannot be read as io.mmgr.stream.avro.MetricStat")
                    .hasMessageContaining("/fields/1/type");
        }
    }

    @Test
    void aClassAvroWouldNotInstantiateIsRefusedWhenTheSerdeIsMade() {
        ClassSecurityValidator.ClassSecurityPredicate trusted = ClassSecurityValidator.getGlobal();
        try {
            ClassSecurityValidator.setGlobal(type -> !type.getPackageName().equals("io.mmgr.stream.avro"));

            assertThatThrownBy(() -> serdes.forValues(MetricStat.class))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("io.mmgr.stream.avro.MetricStat")
                    .hasMessageContaining("org.apache.avro.SERIALIZABLE_PACKAGES");
        } finally {
            ClassSecurityValidator.setGlobal(trusted);
        }
    }

    @Test
    void serializingNeedsATopicToNameTheSubject() {
        assertThatThrownBy(() -> serdes.forValues(MetricStat.class).serializer().serialize(null, new MetricStat(1.0, 1L)))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("TopicNameStrategy");
    }

    @Test
    void theHeaderCarriesTheRegisteredIdBigEndian() {
        // fill ids until one needs more than one byte, to see the byte order
        for (int i = 0; i < 300; i++) {
            serdes.client().register("filler-" + i, Schema.createFixed("F" + i, null, "x", 1));
        }
        byte[] data = serdes.forValues(MetricStat.class).serializer().serialize("big-ids", new MetricStat(3.0, 4L));
        int id = serdes.client().lookup("big-ids-value", MetricStat.getClassSchema()).orElseThrow();

        assertThat(id).isGreaterThan(255);
        assertThat(Arrays.copyOf(data, 5)).containsExactly(0, id >>> 24, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff);
    }
}
