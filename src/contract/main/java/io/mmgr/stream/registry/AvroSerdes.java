package io.mmgr.stream.registry;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serdes for generated Avro classes in the Confluent wire format: magic byte 0, the 4-byte
 * big-endian schema id, then Avro binary. Subjects follow TopicNameStrategy ("&lt;topic&gt;-key",
 * "&lt;topic&gt;-value"), so Confluent's own serdes and Python clients interoperate.
 *
 * <p>Serializers resolve the class's schema id once per topic; deserializers fetch a writer schema
 * once per id and resolve it against the class's schema, so records written with a newer
 * (compatible) schema are read. No per-record HTTP, no per-record schema parsing.
 *
 * <p>Errors: malformed bytes and unknown schema ids throw {@link SerializationException} (bad
 * data). A registry that cannot be reached throws {@link RegistryException} instead, so a
 * deserialization handler can tell an outage from a poison record.
 */
public final class AvroSerdes {

    static final byte MAGIC_BYTE = 0;
    static final int HEADER_SIZE = 5;
    /** Buffers that grew past this for one huge record are not kept per thread. */
    private static final int MAX_RETAINED_BUFFER = 1 << 20;

    private final SchemaRegistry client;
    private final boolean autoRegister;
    private final SizeCap cap;

    /**
     * The largest serialized key or value a topic may take ({@code Integer.MAX_VALUE}: any). A record
     * over it is refused with {@link OversizedRecordException} when it is serialized, before a producer
     * sees it.
     */
    @FunctionalInterface
    public interface SizeCap {
        int maxBytes(String topic, boolean isKey);

        SizeCap NONE = (topic, isKey) -> Integer.MAX_VALUE;
    }

    /** A serialized key or value larger than its topic takes. */
    public static final class OversizedRecordException extends SerializationException {
        private final String topic;
        private final int size;
        private final int limit;

        OversizedRecordException(String type, String topic, boolean isKey, int size, int limit) {
            super(type + " " + (isKey ? "key" : "value") + " for topic '" + topic + "' is " + size
                    + " bytes serialized, over the " + limit + " bytes it may take (the topic's max.message.bytes less "
                    + "room for the key and record overhead)");
            this.topic = topic;
            this.size = size;
            this.limit = limit;
        }

        public String topic() {
            return topic;
        }

        public int size() {
            return size;
        }

        public int limit() {
            return limit;
        }
    }

    public AvroSerdes(SchemaRegistry client, boolean autoRegister) {
        this(client, autoRegister, SizeCap.NONE);
    }

    private AvroSerdes(SchemaRegistry client, boolean autoRegister, SizeCap cap) {
        if (client == null) {
            throw new IllegalArgumentException("schema registry client is null");
        }
        this.client = client;
        this.autoRegister = autoRegister;
        this.cap = cap;
    }

    /** The same serdes, their serializers refusing records over {@code cap}. */
    public AvroSerdes withSizeCap(SizeCap cap) {
        return new AvroSerdes(client, autoRegister, cap);
    }

    /** Serde for record keys: subject "&lt;topic&gt;-key". */
    public <T extends SpecificRecord> Serde<T> forKeys(Class<T> type) {
        return serde(type, true);
    }

    /** Serde for record values: subject "&lt;topic&gt;-value". */
    public <T extends SpecificRecord> Serde<T> forValues(Class<T> type) {
        return serde(type, false);
    }

    public SchemaRegistry client() {
        return client;
    }

    private <T extends SpecificRecord> Serde<T> serde(Class<T> type, boolean isKey) {
        if (type == null) {
            throw new IllegalArgumentException("record class is null");
        }
        SpecificData model = SpecificData.getForClass(type);
        Schema schema = model.getSchema(type);
        if (schema == null || schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException(type.getName() + " is not a generated Avro record class");
        }
        // Avro 1.12 would silently decode generic records instead; fail when the topology is built
        if (!ClassSecurityValidator.getGlobal().isTrusted(type)) {
            throw new IllegalStateException("Avro will not instantiate " + type.getName() + ": add "
                    + type.getPackageName() + " to the system property org.apache.avro.SERIALIZABLE_PACKAGES");
        }
        return Serdes.serdeFrom(new AvroSerializer<>(schema, model, isKey), new AvroDeserializer<>(type, schema, model));
    }

    static String subject(String topic, boolean isKey) {
        if (topic == null || topic.isEmpty()) {
            throw new SerializationException("a topic name is required to pick the schema subject (TopicNameStrategy)");
        }
        return topic + (isKey ? "-key" : "-value");
    }

    /** Per-thread scratch space: encoders and decoders are not thread-safe but are cheap to reuse. */
    private static final class Scratch {
        final Buffer out = new Buffer();
        BinaryEncoder encoder;
        BinaryDecoder decoder;
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** A reusable output buffer that drops storage grown past MAX_RETAINED_BUFFER by one huge record. */
    private static final class Buffer extends ByteArrayOutputStream {
        Buffer() {
            super(256);
        }

        void restart() {
            if (buf.length > MAX_RETAINED_BUFFER) {
                buf = new byte[256];
            }
            count = 0;
        }
    }

    private final class AvroSerializer<T extends SpecificRecord> implements Serializer<T> {
        private final Schema schema;
        private final SpecificDatumWriter<T> writer;
        private final boolean isKey;
        private final Map<String, Integer> idByTopic = new ConcurrentHashMap<>();

        AvroSerializer(Schema schema, SpecificData model, boolean isKey) {
            this.schema = schema;
            this.writer = new SpecificDatumWriter<>(schema, model);
            this.isKey = isKey;
        }

        @Override
        public byte[] serialize(String topic, T record) {
            if (record == null) {
                return null;
            }
            Integer id = idByTopic.get(topic == null ? "" : topic);
            if (id == null) {
                id = resolveId(topic);
            }
            Scratch scratch = SCRATCH.get();
            Buffer out = scratch.out;
            out.restart();
            out.write(MAGIC_BYTE);
            out.write(id >>> 24);
            out.write(id >>> 16);
            out.write(id >>> 8);
            out.write(id);
            try {
                scratch.encoder = EncoderFactory.get().binaryEncoder(out, scratch.encoder);
                writer.write(record, scratch.encoder);
                scratch.encoder.flush();
            } catch (IOException | RuntimeException e) {
                throw new SerializationException("cannot write " + schema.getFullName() + " to topic '" + topic
                        + "' as Avro: " + e.getMessage(), e);
            }
            int limit = cap.maxBytes(topic, isKey);
            if (out.size() > limit) {
                throw new OversizedRecordException(schema.getName(), topic, isKey, out.size(), limit);
            }
            return out.toByteArray();
        }

        private int resolveId(String topic) {
            String subject = subject(topic, isKey);
            int id;
            if (autoRegister) {
                id = client.register(subject, schema);
            } else {
                id = client.lookup(subject, schema).orElseThrow(() -> new SerializationException("schema of "
                        + schema.getFullName() + " is not registered under subject '" + subject + "' at "
                        + client.baseUrl() + " and auto-registration is off"));
            }
            idByTopic.put(topic, id);
            return id;
        }
    }

    private final class AvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {
        private final Class<T> type;
        private final Schema readerSchema;
        private final SpecificData model;
        private final Map<Integer, SpecificDatumReader<T>> readers = new ConcurrentHashMap<>();
        /** Writer schemas this class cannot read: the reason, so repeats cost no schema check. */
        private final Map<Integer, String> unreadable = new ConcurrentHashMap<>();

        AvroDeserializer(Class<T> type, Schema readerSchema, SpecificData model) {
            this.type = type;
            this.readerSchema = readerSchema;
            this.model = model;
        }

        @Override
        public T deserialize(String topic, byte[] data) {
            if (data == null) {
                return null;
            }
            if (data.length < HEADER_SIZE) {
                throw new SerializationException("not Confluent Avro wire format: " + data.length
                        + " byte(s), need at least " + HEADER_SIZE + " (magic byte 0 and a 4-byte schema id)"
                        + where(topic));
            }
            if (data[0] != MAGIC_BYTE) {
                throw new SerializationException(String.format(
                        "not Confluent Avro wire format: magic byte 0x%02x, expected 0x00%s%s", data[0] & 0xff,
                        data[0] == '{' ? " (the payload looks like JSON text)" : "", where(topic)));
            }
            int id = ((data[1] & 0xff) << 24) | ((data[2] & 0xff) << 16) | ((data[3] & 0xff) << 8) | (data[4] & 0xff);
            SpecificDatumReader<T> reader = readers.get(id);
            if (reader == null) {
                reader = readerFor(id, topic);
            }
            Scratch scratch = SCRATCH.get();
            Object record;
            try {
                scratch.decoder = DecoderFactory.get().binaryDecoder(data, HEADER_SIZE, data.length - HEADER_SIZE,
                        scratch.decoder);
                record = reader.read(null, scratch.decoder);
            } catch (EOFException e) {
                throw new SerializationException("truncated Avro data for schema id " + id + where(topic)
                        + ": the payload ends after " + (data.length - HEADER_SIZE) + " byte(s), mid-record", e);
            } catch (IOException | RuntimeException e) {
                throw new SerializationException("corrupt Avro data for schema id " + id + where(topic) + ": "
                        + e.getMessage(), e);
            }
            if (!type.isInstance(record)) {
                // Avro falls back to generic records for classes outside the trusted packages
                throw new SerializationException("Avro decoded " + record.getClass().getName() + " instead of "
                        + type.getName() + "; add its package to the system property"
                        + " org.apache.avro.SERIALIZABLE_PACKAGES");
            }
            return type.cast(record);
        }

        private SpecificDatumReader<T> readerFor(int id, String topic) {
            String known = unreadable.get(id);
            if (known != null) {
                throw new SerializationException(known + where(topic));
            }
            Schema writerSchema;
            try {
                writerSchema = client.schemaById(id);
            } catch (RegistryException e) {
                if (e.isNotFound()) {
                    throw new SerializationException("unknown schema id " + id + where(topic) + ": the registry at "
                            + client.baseUrl() + " has no such schema", e);
                }
                throw e;
            }
            SchemaCompatibility.SchemaPairCompatibility compatibility =
                    SchemaCompatibility.checkReaderWriterCompatibility(readerSchema, writerSchema);
            if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
                String reason = "schema id " + id + " (" + writerSchema.getFullName() + ") cannot be read as "
                        + type.getName() + ": " + compatibility.getResult().getIncompatibilities().stream()
                                .map(i -> i.getMessage() + " at " + i.getLocation())
                                .reduce((a, b) -> a + "; " + b).orElse(compatibility.getDescription());
                unreadable.put(id, reason);
                throw new SerializationException(reason + where(topic));
            }
            SpecificDatumReader<T> reader = new SpecificDatumReader<>(writerSchema, readerSchema, model);
            SpecificDatumReader<T> raced = readers.putIfAbsent(id, reader);
            return raced == null ? reader : raced;
        }

        private String where(String topic) {
            return topic == null ? "" : " (topic '" + topic + "')";
        }
    }

}
