package io.mmgr.stream.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.MetricStat;
import io.mmgr.stream.avro.SampleKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the serdes and the client must do against any Confluent-compatible registry. Subclasses
 * run it against our {@link io.mmgr.stream.embedded.registry.RegistryServer} and against Apicurio Registry; every test uses its
 * own topic, so subjects never collide. Checks go through fresh clients so caches prove nothing.
 */
abstract class RegistryContractTest {

    /** MetricStat v2: a field with a default inserted in the middle, an optional one at the end. */
    static final String METRIC_STAT_V2 = """
            {"type": "record", "name": "MetricStat", "namespace": "io.mmgr.stream.avro", "fields": [
              {"name": "mean", "type": "double"},
              {"name": "unit", "type": "string", "default": "ratio"},
              {"name": "count", "type": "long"},
              {"name": "stddev", "type": ["null", "double"], "default": null}
            ]}""";

    /** MetricStat with a new field that has no default: old data cannot be read with it. */
    static final String METRIC_STAT_BREAKING = """
            {"type": "record", "name": "MetricStat", "namespace": "io.mmgr.stream.avro", "fields": [
              {"name": "mean", "type": "double"},
              {"name": "count", "type": "long"},
              {"name": "unit", "type": "string"}
            ]}""";

    /** Root URL of the registry's Confluent-compatible API. */
    abstract String registryUrl();

    private SchemaRegistryClient client;
    private AvroSerdes serdes;
    private String topic;

    @BeforeEach
    void setUp() {
        client = new SchemaRegistryClient(registryUrl());
        serdes = new AvroSerdes(client, true);
        topic = "contract-" + UUID.randomUUID();
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    /**
     * A client joining a deployment caches what is registered for its topics, and the registry answers the latest
     * version with the schema as registered, so the serdes' own schema finds its id without a request.
     */
    @Test
    void aPrefetchCachesTheIdsOfTheWantedSubjects() {
        serdes.forValues(GenerationEvent.class).serializer().serialize(topic, TestRecords.generationEvent());
        serdes.forKeys(SampleKey.class).serializer().serialize(topic, TestRecords.key("s-1", 7));
        try (SchemaRegistryClient joining = new SchemaRegistryClient(registryUrl())) {
            assertThat(joining.prefetch(s -> s.startsWith(topic), java.time.Duration.ofSeconds(20))).isEqualTo(2);
            assertThat(joining.knows(topic + "-value", GenerationEvent.getClassSchema())).isTrue();
            assertThat(joining.knows(topic + "-key", SampleKey.getClassSchema())).isTrue();
            assertThat(joining.knows(topic + "-value", MetricStat.getClassSchema())).isFalse();
        }
    }

    static Stream<Arguments> records() {
        return Stream.of(
                Arguments.of(GenerationEvent.class, TestRecords.generationEvent()),
                Arguments.of(GenerationEvent.class, TestRecords.sparseGenerationEvent()),
                Arguments.of(io.mmgr.stream.avro.BenchmarkItem.class, TestRecords.benchmarkItem()),
                Arguments.of(DeterministicResult.class, TestRecords.deterministicResult()),
                Arguments.of(io.mmgr.stream.avro.LeaderboardRow.class, TestRecords.leaderboardRow()),
                Arguments.of(io.mmgr.stream.avro.DeadLetter.class, TestRecords.deadLetter()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("records")
    <T extends SpecificRecord> void valuesRoundTripThroughTheRegistry(Class<T> type, T record) throws IOException {
        byte[] bytes = serdes.forValues(type).serializer().serialize(topic, record);

        assertThat(bytes[0]).as("magic byte").isZero();
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        try (SchemaRegistryClient fresh = new SchemaRegistryClient(registryUrl())) {
            assertThat(fresh.lookup(topic + "-value", record.getSchema())).contains(id);
            assertThat(fresh.schemaById(id)).isEqualTo(record.getSchema());
            // the payload after the header is plain Avro binary of the registered schema
            GenericRecord generic = readGeneric(bytes, fresh.schemaById(id), fresh.schemaById(id));
            assertThat(generic.getSchema().getFullName()).isEqualTo(type.getName());

            // a reader that knows nothing but the registry URL gets an equal record back
            T back = new AvroSerdes(fresh, false).forValues(type).deserializer().deserialize(topic, bytes);
            assertThat(back).isInstanceOf(type).isEqualTo(record);
        }
    }

    @Test
    void keysUseTheKeySubjectAndNullStaysNull() {
        Serde<SampleKey> keys = serdes.forKeys(SampleKey.class);
        SampleKey key = TestRecords.key("maze-0003", 2);

        byte[] bytes = keys.serializer().serialize(topic, key);

        try (SchemaRegistryClient fresh = new SchemaRegistryClient(registryUrl())) {
            assertThat(fresh.subjects()).contains(topic + "-key").doesNotContain(topic + "-value");
            assertThat(new AvroSerdes(fresh, false).forKeys(SampleKey.class).deserializer().deserialize(topic, bytes))
                    .isEqualTo(key);
        }
        assertThat(keys.serializer().serialize(topic, null)).isNull();
        assertThat(keys.deserializer().deserialize(topic, null)).isNull();
    }

    @Test
    void theSameSchemaHasTheSameIdInEverySubject() {
        int first = client.register(topic + "-value", MetricStat.getClassSchema());
        try (SchemaRegistryClient fresh = new SchemaRegistryClient(registryUrl())) {
            int second = fresh.register(topic + "-other-value", MetricStat.getClassSchema());
            int different = fresh.register(topic + "-other-key", SampleKey.getClassSchema());

            assertThat(second).isEqualTo(first);
            assertThat(different).isNotEqualTo(first);
        }
    }

    @Test
    void lookupFindsOnlyWhatIsRegisteredUnderTheSubject() {
        String subject = topic + "-value";
        Schema v2 = new Schema.Parser().parse(METRIC_STAT_V2);
        assertThat(client.lookup(subject, MetricStat.getClassSchema())).as("no such subject yet").isEmpty();

        int id = client.register(subject, MetricStat.getClassSchema());

        try (SchemaRegistryClient fresh = new SchemaRegistryClient(registryUrl())) {
            assertThat(fresh.lookup(subject, MetricStat.getClassSchema())).contains(id);
            assertThat(fresh.lookup(subject, v2)).as("never registered").isEmpty();
            assertThat(fresh.lookup(topic + "-key", MetricStat.getClassSchema())).as("other subject").isEmpty();
        }
    }

    @Test
    void withoutAutoRegistrationTheSchemaMustAlreadyBeRegistered() {
        Serde<MetricStat> lookupOnly = new AvroSerdes(client, false).forValues(MetricStat.class);
        MetricStat stat = new MetricStat(0.5, 3L);

        assertThatThrownBy(() -> lookupOnly.serializer().serialize(topic, stat))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("not registered under subject '" + topic + "-value'");
        try (SchemaRegistryClient fresh = new SchemaRegistryClient(registryUrl())) {
            assertThat(fresh.subjects()).as("the serializer registered nothing").doesNotContain(topic + "-value");
            int id = fresh.register(topic + "-value", MetricStat.getClassSchema());

            byte[] bytes = new AvroSerdes(new SchemaRegistryClient(registryUrl()), false).forValues(MetricStat.class)
                    .serializer().serialize(topic, stat);
            assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
        }
    }

    @Test
    void aCompatibleNewVersionIsAcceptedAndDataFlowsBothWays() throws IOException {
        String subject = topic + "-value";
        client.updateCompatibility(subject, "BACKWARD");
        assertThat(client.isCompatible(subject, new Schema.Parser().parse(METRIC_STAT_BREAKING)))
                .as("a subject without versions accepts anything").isTrue();
        byte[] writtenWithV1 = serdes.forValues(MetricStat.class).serializer().serialize(topic, new MetricStat(0.5, 7L));
        int v1 = ByteBuffer.wrap(writtenWithV1, 1, 4).getInt();
        Schema v2Schema = new Schema.Parser().parse(METRIC_STAT_V2);

        assertThat(client.isCompatible(subject, v2Schema)).isTrue();
        int v2 = client.register(subject, v2Schema);
        assertThat(v2).isNotEqualTo(v1);

        GenericRecord newer = new GenericData.Record(v2Schema);
        newer.put("mean", 0.25);
        newer.put("unit", "seconds");
        newer.put("count", 12L);
        newer.put("stddev", 0.01);
        byte[] writtenWithV2 = frame(v2, v2Schema, newer);
        try (SchemaRegistryClient fresh = new SchemaRegistryClient(registryUrl())) {
            // a consumer still on the v1 class reads v2 data: the new fields are skipped
            MetricStat read = new AvroSerdes(fresh, false).forValues(MetricStat.class).deserializer()
                    .deserialize(topic, writtenWithV2);
            assertThat(read).isEqualTo(new MetricStat(0.25, 12L));

            // a v2 reader reads v1 data: the defaults fill the new fields
            GenericRecord old = readGeneric(writtenWithV1, fresh.schemaById(v1), v2Schema);
            assertThat(old.get("mean")).isEqualTo(0.5);
            assertThat(old.get("count")).isEqualTo(7L);
            assertThat(old.get("unit").toString()).isEqualTo("ratio");
            assertThat(old.get("stddev")).isNull();
        }
    }

    @Test
    void aBreakingChangeIsRefusedWith409UnderBackward() {
        String subject = topic + "-value";
        client.updateCompatibility(subject, "BACKWARD");
        int v1 = client.register(subject, MetricStat.getClassSchema());
        Schema breaking = new Schema.Parser().parse(METRIC_STAT_BREAKING);

        assertThat(client.isCompatible(subject, breaking)).isFalse();
        RegistryException refused = catchThrowableOfType(RegistryException.class,
                () -> client.register(subject, breaking));

        assertThat(refused).isNotNull();
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.getMessage()).contains("409");
        try (SchemaRegistryClient fresh = new SchemaRegistryClient(registryUrl())) {
            assertThat(fresh.lookup(subject, breaking)).as("nothing registered").isEmpty();
            assertThat(fresh.lookup(subject, MetricStat.getClassSchema())).contains(v1);
        }
    }

    @Test
    void anUnknownSchemaIdIsASerializationError() {
        int unknown = 0x7f123456;
        byte[] bytes = ByteBuffer.allocate(7).put((byte) 0).putInt(unknown).put((byte) 2).put((byte) 'x').array();

        assertThatThrownBy(() -> serdes.forValues(MetricStat.class).deserializer().deserialize(topic, bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("unknown schema id " + unknown);
    }

    /** Confluent framing done by hand, independently of the serializer under test. */
    static byte[] frame(int id, Schema schema, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    static GenericRecord readGeneric(byte[] framed, Schema writer, Schema reader) throws IOException {
        return new GenericDatumReader<GenericRecord>(writer, reader)
                .read(null, DecoderFactory.get().binaryDecoder(framed, 5, framed.length - 5, null));
    }
}
