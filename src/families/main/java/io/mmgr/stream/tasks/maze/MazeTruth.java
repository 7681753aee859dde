package io.mmgr.stream.tasks.maze;

import static io.mmgr.stream.tasks.PayloadValues.get;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.FamilyPayload;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;

/**
 * A maze item's ground truth: its size, and where the item has them its lattice, solution path and
 * marker roles. It travels in the item's payload (family {@code maze}, schema {@code MazeTruth.avsc} in
 * this folder); an item without one keeps it in the shared fields it used before ({@code mazeRows},
 * {@code mazeCols}, {@code mazeLattice}, {@code solutionPath}, {@code mazeMarkers}), read the same way.
 *
 * @param rows         cell rows (null when the item gives none)
 * @param cols         cell columns (null when the item gives none)
 * @param lattice      (2R+1) rows of '#' / '.', or null
 * @param solutionPath cells (row, col) from start to target, or null
 * @param markers      marker colour per role, or null
 */
public record MazeTruth(Integer rows, Integer cols, List<String> lattice, List<List<Integer>> solutionPath,
                        Map<String, String> markers) {

    static final FamilyPayload PAYLOAD = FamilyPayload.load(MazeTasks.FAMILY, MazeTruth.class, "MazeTruth");

    /** The item's maze ground truth: its payload, else the shared fields. */
    public static MazeTruth of(GroundTruth gt) throws EvaluationException {
        return PAYLOAD.read(gt, r -> new MazeTruth(get(r, "rows"), get(r, "cols"), get(r, "lattice"), get(r, "solutionPath"), get(r, "markers")),
                g -> new MazeTruth(g.getMazeRows(), g.getMazeCols(), g.getMazeLattice(), g.getSolutionPath(), g.getMazeMarkers()));
    }

    /** Sets this as {@code gt}'s payload (a size is required: the schema's rows and cols are). */
    public GroundTruth.Builder into(GroundTruth.Builder gt) {
        if (rows == null || cols == null) {
            throw new IllegalArgumentException("a maze's ground truth needs its size (rows, cols)");
        }
        GenericRecord r = new GenericRecordBuilder(PAYLOAD.schema()).set("rows", rows).set("cols", cols)
                .set("lattice", lattice).set("solutionPath", solutionPath).set("markers", markers).build();
        return PAYLOAD.write(gt, r);
    }
}
