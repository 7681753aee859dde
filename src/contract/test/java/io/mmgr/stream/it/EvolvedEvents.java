package io.mmgr.stream.it;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.registry.SchemaRegistryClient;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/** Events as a newer producer writes them: GenerationEvent plus one optional field, registered as the next version. */
final class EvolvedEvents {

    private EvolvedEvents() {
    }

    static Schema nextVersion() throws Exception {
        ObjectNode json = (ObjectNode) JsonAvro.MAPPER.readTree(GenerationEvent.getClassSchema().toString());
        ObjectNode field = ((ArrayNode) json.get("fields")).addObject().put("name", "promptVersion");
        field.set("type", JsonAvro.MAPPER.createArrayNode().add("null").add("string"));
        field.putNull("default");
        return new Schema.Parser().parse(json.toString());
    }

    /** Registers the next version under {@code subject}; returns its id. */
    static int register(SchemaRegistryClient client, String subject) throws Exception {
        return client.register(subject, nextVersion());
    }

    /** The event in the Confluent wire format, written with the next version (schema id {@code id}). */
    static byte[] write(GenerationEvent event, int id) throws Exception {
        Schema newer = nextVersion();
        ByteArrayOutputStream old = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(old, null);
        new SpecificDatumWriter<GenerationEvent>(GenerationEvent.getClassSchema()).write(event, enc);
        enc.flush();
        GenericRecord record = new GenericDatumReader<GenericRecord>(GenerationEvent.getClassSchema(), newer)
                .read(null, DecoderFactory.get().binaryDecoder(old.toByteArray(), null));
        record.put("promptVersion", "v2-prompt");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder enc2 = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(newer, GenericData.get()).write(record, enc2);
        enc2.flush();
        return out.toByteArray();
    }

    static byte[] withAddedField(GenerationEvent event, SchemaRegistryClient client, String subject) throws Exception {
        return write(event, register(client, subject));
    }
}
