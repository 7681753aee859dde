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
    void aPrefetchedSubjectIsServedWithoutARequestAndOnlyTheWantedOnesAreFetched() {
        byte[] written;
        try (SchemaRegistryClient writer = new SchemaRegistryClient(server.url())) {
            AvroSerdes serdes = new AvroSerdes(writer, true);
            written = serdes.forValues(GenerationEvent.class).serializer().serialize("app.events", TestRecords.generationEvent());
            serdes.forValues(MetricStat.class).serializer().serialize("app-store-changelog", new MetricStat(1.0, 1L));
            serdes.forValues(MetricStat.class).serializer().serialize("other.stats", new MetricStat(2.0, 2L));
        }
        try (SchemaRegistryClient joining = new SchemaRegistryClient(server.url())) {
            long before = server.requestCount();
            int cached = joining.prefetch(s -> s.startsWith("app.") || s.startsWith("app-"), java.time.Duration.ofSeconds(5));
            assertThat(cached).isEqualTo(2);
            // GET /subjects and one GET of each wanted subject's latest version; other.stats-value is left alone
            assertThat(server.requestCount() - before).isEqualTo(3);

            before = server.requestCount();
            AvroSerdes serdes = new AvroSerdes(joining, true);
            assertThat(serdes.forValues(GenerationEvent.class).serializer().serialize("app.events", TestRecords.generationEvent()))
                    .isEqualTo(written);
            serdes.forValues(MetricStat.class).serializer().serialize("app-store-changelog", new MetricStat(3.0, 3L));
            assertThat(serdes.forValues(GenerationEvent.class).deserializer().deserialize("app.events", written))
                    .isEqualTo(TestRecords.generationEvent());
            assertThat(server.requestCount() - before).as("ids and schemas of the prefetched subjects").isZero();

            serdes.forValues(MetricStat.class).serializer().serialize("other.stats", new MetricStat(4.0, 4L));
            assertThat(server.requestCount() - before).as("a subject left out is resolved on first use").isEqualTo(1);
        }
    }

    @Test
    void aPrefetchAgainstARegistryThatIsGoneCachesNothingAndFailsNothing() throws IOException {
        String url = server.url();
        server.close();
        try (SchemaRegistryClient joining = new SchemaRegistryClient(url)) {
            assertThat(joining.prefetch(s -> true, java.time.Duration.ofSeconds(2))).isZero();
            assertThatThrownBy(() -> joining.register("app.events-value", GenerationEvent.getClassSchema()))
                    .isInstanceOf(RegistryException.class).hasMessageContaining("unreachable");
        }
        server = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null);
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
