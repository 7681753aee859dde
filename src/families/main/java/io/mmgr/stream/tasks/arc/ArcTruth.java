package io.mmgr.stream.tasks.arc;

import static io.mmgr.stream.tasks.PayloadValues.get;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.FamilyPayload;
import java.util.List;
import org.apache.avro.generic.GenericRecordBuilder;

/**
 * An ARC item's ground truth. It travels in the item's payload (family {@code arc}, schema
 * {@code ArcTruth.avsc} in this folder); an item without one keeps it in the shared fields it used before
 * ({@code grid}, {@code answerRegion}), read the same way. Canvas sizes and the generator's notes stay in
 * {@code groundTruth.extra}.
 *
 * @param grid         the test output, rows of ARC colours, or null (a judged item may give a solution image instead)
 * @param answerRegion x, y, width, height of the answer in an output canvas, or null
 */
public record ArcTruth(List<List<Integer>> grid, List<Integer> answerRegion) {

    static final FamilyPayload PAYLOAD = FamilyPayload.load(ArcMetrics.FAMILY, ArcTruth.class, "ArcTruth");

    /** The item's ARC ground truth: its payload, else the shared fields. */
    public static ArcTruth of(GroundTruth gt) throws EvaluationException {
        return PAYLOAD.read(gt, r -> new ArcTruth(get(r, "grid"), get(r, "answerRegion")),
                g -> new ArcTruth(g.getGrid(), g.getAnswerRegion()));
    }

    /** Sets this as {@code gt}'s payload (the grid is required). */
    public GroundTruth.Builder into(GroundTruth.Builder gt) {
        if (grid == null) {
            throw new IllegalArgumentException("an ARC item's ground truth needs its grid");
        }
        return PAYLOAD.write(gt, new GenericRecordBuilder(PAYLOAD.schema()).set("grid", grid).set("answerRegion", answerRegion).build());
    }
}
