package io.mmgr.stream.tasks.example;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.FamilyPayload;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;

/**
 * The example's ground truth, in the item's payload (family {@code example}, schema {@code CountTruth.avsc}
 * in this folder): no field of the shared GroundTruth is used.
 *
 * @param count how many there are
 * @param what  what is counted ("apples")
 */
public record CountTruth(int count, String what) {

    static final FamilyPayload PAYLOAD = FamilyPayload.load(ExampleMetrics.FAMILY, CountTruth.class, "CountTruth");

    /** The item's count. */
    public static CountTruth of(GroundTruth gt) throws EvaluationException {
        GenericRecord r = PAYLOAD.read(gt).orElseThrow(() ->
                new EvaluationException("example item has no count (groundTruth.payload of family example)"));
        return new CountTruth((Integer) r.get("count"), r.get("what").toString());
    }

    /** A ground truth carrying this count. */
    public GroundTruth groundTruth() {
        GenericRecord r = new GenericRecordBuilder(PAYLOAD.schema()).set("count", count).set("what", what).build();
        return PAYLOAD.write(GroundTruth.newBuilder(), r).build();
    }
}
