package io.mmgr.stream.tasks.physics;

import static io.mmgr.stream.tasks.PayloadValues.get;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.FamilyPayload;
import org.apache.avro.generic.GenericRecordBuilder;

/**
 * A Physical Concepts or Sports item's ground truth: its Physics Focus. It travels in the item's payload
 * (family {@code physics}, schema {@code PhysicsTruth.avsc} in this folder); an item without one keeps it
 * in the shared {@code physicsFocus} field it used before, read the same way.
 *
 * @param physicsFocus the seed's Physics Focus, or null
 */
public record PhysicsTruth(String physicsFocus) {

    static final FamilyPayload PAYLOAD = FamilyPayload.load(PhysicsMetrics.FAMILY, PhysicsTruth.class, "PhysicsTruth");

    /** The item's physics ground truth: its payload, else the shared field. */
    public static PhysicsTruth of(GroundTruth gt) throws EvaluationException {
        return PAYLOAD.read(gt, r -> new PhysicsTruth(get(r, "physicsFocus")), g -> new PhysicsTruth(g.getPhysicsFocus()));
    }

    /** Sets this as {@code gt}'s payload. */
    public GroundTruth.Builder into(GroundTruth.Builder gt) {
        return PAYLOAD.write(gt, new GenericRecordBuilder(PAYLOAD.schema()).set("physicsFocus", physicsFocus).build());
    }
}
