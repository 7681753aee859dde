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
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The serdes talk to the registry once per topic and once per schema id, never per record. */
@Tag("unit")
class ClientCachingTest {

    private RegistryServer server;

    @BeforeEach
    void start() throws IOException {
        server = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void serializingAgainMakesNoRequest() {
        try (SchemaRegistryClient client = new SchemaRegistryClient(server.url())) {
            Serializer<GenerationEvent> events = new AvroSerdes(client, true).forValues(GenerationEvent.class).serializer();
            long before = server.requestCount();

            byte[] first = events.serialize("events", TestRecords.generationEvent());
            assertThat(server.requestCount() - before).as("the one registration").isEqualTo(1);

            for (int i = 0; i < 1000; i++) {
                assertThat(events.serialize("events", TestRecords.sparseGenerationEvent())).isNotNull();
            }
            assertThat(events.serialize("events", TestRecords.generationEvent())).isEqualTo(first);
            // a second serde over the same client shares its cache
            new AvroSerdes(client, true).forValues(GenerationEvent.class).serializer()
                    .serialize("events", TestRecords.generationEvent());
            assertThat(server.requestCount() - before).isEqualTo(1);

            events.serialize("other-events", TestRecords.generationEvent());
            assertThat(server.requestCount() - before).as("a new topic is a new subject").isEqualTo(2);
        }
    }

    @Test
    void deserializingFetchesEachSchemaIdOnce() {
        byte[] data;
        try (SchemaRegistryClient writer = new SchemaRegistryClient(server.url())) {
            data = new AvroSerdes(writer, true).forValues(GenerationEvent.class).serializer()
                    .serialize("events", TestRecords.generationEvent());
        }
        try (SchemaRegistryClient reader = new SchemaRegistryClient(server.url())) {
            Deserializer<GenerationEvent> events = new AvroSerdes(reader, false).forValues(GenerationEvent.class)
                    .deserializer();
            long before = server.requestCount();

            assertThat(events.deserialize("events", data)).isEqualTo(TestRecords.generationEvent());
            assertThat(server.requestCount() - before).as("GET /schemas/ids/{id}").isEqualTo(1);

            for (int i = 0; i < 1000; i++) {
                events.deserialize("events", data);
            }
            assertThat(server.requestCount() - before).isEqualTo(1);
        }
    }

    @Test
    void registeringFillsTheIdCacheToo() {
        try (SchemaRegistryClient client = new SchemaRegistryClient(server.url())) {
            AvroSerdes serdes = new AvroSerdes(client, true);
            byte[] data = serdes.forValues(MetricStat.class).serializer().serialize("stats", new MetricStat(1.0, 1L));
            long before = server.requestCount();

            assertThat(serdes.forValues(MetricStat.class).deserializer().deserialize("stats", data))
                    .isEqualTo(new MetricStat(1.0, 1L));
            assertThat(server.requestCount()).isEqualTo(before);
        }
    }

    @Test
    void anUnknownIdIsNotAskedForAgainAndAgain() {
        byte[] unknown = ByteBuffer.allocate(6).put((byte) 0).putInt(999).put((byte) 0).array();
        try (SchemaRegistryClient client = new SchemaRegistryClient(server.url())) {
            Deserializer<MetricStat> stats = new AvroSerdes(client, false).forValues(MetricStat.class).deserializer();
            long before = server.requestCount();

            for (int i = 0; i < 50; i++) {
                assertThatThrownBy(() -> stats.deserialize("stats", unknown))
                        .isInstanceOf(SerializationException.class)
                        .hasMessageContaining("unknown schema id 999");
            }
            assertThat(server.requestCount() - before).isEqualTo(1);
        }
    }
}
