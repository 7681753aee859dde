package io.mmgr.stream.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.Pose;
import io.mmgr.stream.avro.UiAction;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A payload's generic values as plain Java and the contract's classes, through the single-object encoding and back. */
@Tag("unit")
class PayloadValuesTest {

    /** A family's schema with its own copy of Pose (fields in another order) and of a part of UiAction. */
    static final Schema TRUTH = new Schema.Parser().parse("""
            {"type": "record", "name": "T", "namespace": "family.x", "fields": [
             {"name": "poses", "type": ["null", {"type": "array", "items": {"type": "record", "name": "Pose", "fields": [
               {"name": "y", "type": "double"}, {"name": "x", "type": "double"}, {"name": "frame", "type": "int", "default": 0},
               {"name": "z", "type": ["null", "double"], "default": null}]}}], "default": null},
             {"name": "steps", "type": ["null", {"type": "array", "items": {"type": "record", "name": "UiAction", "fields": [
               {"name": "element", "type": ["null", "string"], "default": null},
               {"name": "bbox", "type": ["null", {"type": "array", "items": "double"}], "default": null}]}}], "default": null},
             {"name": "names", "type": {"type": "array", "items": "string"}},
             {"name": "cells", "type": {"type": "array", "items": {"type": "array", "items": "int"}}},
             {"name": "roles", "type": {"type": "map", "values": "string"}}]}""");

    @Test
    void valuesComeBackAsPlainJavaAndRecordsAsTheContractsClassesByFieldName() throws IOException {
        List<Pose> poses = List.of(Pose.newBuilder().setFrame(2).setX(1.5).setY(-3).setZ(0.25).build(),
                Pose.newBuilder().setFrame(3).setX(0).setY(0).build());
        List<UiAction> steps = List.of(UiAction.newBuilder().setElement("go").setBbox(List.of(1.0, 2.0, 3.0, 4.0)).setOp("CLICK").build());
        GenericRecord r = new GenericRecordBuilder(TRUTH).set("poses", PayloadValues.generic(TRUTH, "poses", poses))
                .set("steps", PayloadValues.generic(TRUTH, "steps", steps)).set("names", List.of("a", "b"))
                .set("cells", List.of(List.of(1, 2), List.of(3))).set("roles", Map.of("agent", "blue")).build();
        // through the encoding, where strings come back as Utf8 and arrays as GenericData.Array
        ByteBuffer bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), TRUTH).encode(r);
        GenericRecord back = new BinaryMessageDecoder<GenericRecord>(GenericData.get(), TRUTH).decode(bytes);

        assertThat(PayloadValues.records(back, "poses", Pose::new)).isEqualTo(poses);
        // the copy has no op: the contract's field keeps its default
        assertThat(PayloadValues.records(back, "steps", UiAction::new))
                .containsExactly(UiAction.newBuilder().setElement("go").setBbox(List.of(1.0, 2.0, 3.0, 4.0)).build());
        List<String> names = PayloadValues.get(back, "names");
        assertThat(names).containsExactly("a", "b").allSatisfy(n -> assertThat(n).isInstanceOf(String.class));
        List<List<Integer>> cells = PayloadValues.get(back, "cells");
        assertThat(cells).isEqualTo(List.of(List.of(1, 2), List.of(3)));
        Map<String, String> roles = PayloadValues.get(back, "roles");
        assertThat(roles).isEqualTo(Map.of("agent", "blue"));
        // a field the writer's version did not have reads as null
        assertThat((Object) PayloadValues.get(back, "markers")).isNull();
        assertThat(PayloadValues.records(back, "trials", Pose::new)).isNull();
        assertThat(PayloadValues.generic(TRUTH, "poses", null)).isNull();
    }
}
