package io.mmgr.stream.tasks.math;

import static io.mmgr.stream.tasks.PayloadValues.get;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.FamilyPayload;
import org.apache.avro.generic.GenericRecordBuilder;

/**
 * A math item's ground truth: its final answer. It travels in the item's payload (family {@code math},
 * schema {@code MathTruth.avsc} in this folder); an item without one keeps it in the shared
 * {@code answer} field it used before, read the same way.
 *
 * @param answer the final answer, or null when an item of before gives none
 */
public record MathTruth(String answer) {

    static final FamilyPayload PAYLOAD = FamilyPayload.load(MathMetrics.FAMILY, MathTruth.class, "MathTruth");

    /** The item's math ground truth: its payload, else the shared field. */
    public static MathTruth of(GroundTruth gt) throws EvaluationException {
        return PAYLOAD.read(gt, r -> new MathTruth(get(r, "answer")), g -> new MathTruth(g.getAnswer()));
    }

    /** Sets this as {@code gt}'s payload (the answer is required). */
    public GroundTruth.Builder into(GroundTruth.Builder gt) {
        if (answer == null) {
            throw new IllegalArgumentException("a math item's ground truth needs its answer");
        }
        return PAYLOAD.write(gt, new GenericRecordBuilder(PAYLOAD.schema()).set("answer", answer).build());
    }
}
