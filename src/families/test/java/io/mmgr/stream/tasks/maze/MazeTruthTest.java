package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.ReleasedGroundTruth;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maze's ground truth as the family's own payload: what the generator and {@code eval maze} write, what
 * the evaluator reads, and items of before (the shared GroundTruth fields) still scored the same.
 */
@Tag("unit")
class MazeTruthTest {

    @TempDir
    Path dir;

    @Test
    void aPayloadCarriesEveryFieldAndSurvivesJson() throws Exception {
        MazeTruth truth = new MazeTruth(2, 3, List.of("#######", "#.....#", "#.###.#", "#.....#", "#######"),
                List.of(List.of(0, 0), List.of(0, 1), List.of(0, 2)), Map.of("agent", "blue", "target", "#ff0000"));
        GroundTruth gt = truth.into(GroundTruth.newBuilder()).build();
        assertThat(gt.getFamily()).isEqualTo("maze");
        assertThat(gt.getMazeLattice()).isNull();
        assertThat(MazeTruth.of(gt)).isEqualTo(truth);
        // as publish reads it: JSON with the payload in base64
        GroundTruth back = JsonAvro.read(JsonAvro.toJson(gt).toString(), GroundTruth.class);
        assertThat(MazeTruth.of(back)).isEqualTo(truth);
        // nulls stay null (a maze given by its images alone)
        MazeTruth bare = new MazeTruth(4, 4, null, null, null);
        assertThat(MazeTruth.of(bare.into(GroundTruth.newBuilder()).build())).isEqualTo(bare);
    }

    @Test
    void withoutAPayloadTheSharedFieldsAreRead() throws Exception {
        GroundTruth old = GroundTruth.newBuilder().setMazeRows(5).setMazeCols(6).setMazeLattice(List.of("#"))
                .setSolutionPath(List.of(List.of(1, 2))).setMazeMarkers(Map.of("agent", "green")).build();
        assertThat(MazeTruth.of(old)).isEqualTo(new MazeTruth(5, 6, List.of("#"), List.of(List.of(1, 2)), Map.of("agent", "green")));
        // another family's payload is not the maze's
        GroundTruth other = GroundTruth.newBuilder(old).setFamily("sudoku").setPayload(ByteBuffer.wrap(new byte[] {1, 2})).build();
        assertThat(MazeTruth.of(other).rows()).isEqualTo(5);
    }

    @Test
    void aPayloadOfAnUnreleasedSchemaOrNoneAtAllIsRefusedWithTheReason() {
        // a writer schema the family never released: its fingerprint is unknown
        Schema stranger = new Schema.Parser().parse("{\"type\": \"record\", \"name\": \"MazeTruth\", \"namespace\":"
                + " \"io.mmgr.stream.tasks.maze\", \"fields\": [{\"name\": \"side\", \"type\": \"int\"}]}");
        GenericRecord r = new GenericRecordBuilder(stranger).set("side", 3).build();
        GroundTruth unknown = GroundTruth.newBuilder().setFamily("maze")
                .setPayload(encode(stranger, r)).build();
        assertThatThrownBy(() -> MazeTruth.of(unknown)).isInstanceOf(EvaluationException.class)
                .hasMessageContaining("maze ground truth (payload) cannot be read");
        GroundTruth garbage = GroundTruth.newBuilder().setFamily("maze").setPayload(ByteBuffer.wrap(new byte[] {7, 7, 7})).build();
        assertThatThrownBy(() -> MazeTruth.of(garbage)).isInstanceOf(EvaluationException.class)
                .hasMessageContaining("payload");
    }

    @Test
    void aPayloadOfTheReleasedV1IsRead() throws Exception {
        Schema v1 = MazeTruth.PAYLOAD.released().get(0);
        GenericRecord r = new GenericRecordBuilder(v1).set("rows", 3).set("cols", 3).set("lattice", null)
                .set("solutionPath", null).set("markers", null).build();
        GroundTruth gt = GroundTruth.newBuilder().setFamily("maze").setPayload(encode(v1, r)).build();
        assertThat(MazeTruth.of(gt)).isEqualTo(new MazeTruth(3, 3, null, null, null));
    }

    @Test
    void anItemOfBeforeScoresExactlyAsItsPayloadTwin() throws Exception {
        BenchmarkItem item = MazeBenchmarkGenerator.generate(dir, 1, List.of(MazeBand.MEDIUM), 3).items().get(0);
        MazeTruth truth = MazeTruth.of(item.getGroundTruth());
        assertThat(item.getGroundTruth().getFamily()).isEqualTo("maze");
        GroundTruth shared = GroundTruth.newBuilder(item.getGroundTruth()).setFamily(null).setPayload(null)
                .setMazeRows(truth.rows()).setMazeCols(truth.cols()).setMazeLattice(truth.lattice())
                .setSolutionPath(truth.solutionPath()).build();
        BenchmarkItem before = BenchmarkItem.newBuilder(item).setGroundTruth(ReleasedGroundTruth.writtenWith(2, shared)).build();
        MazeLattice lattice = MazeLattice.parse(truth.lattice(), truth.rows(), truth.cols());
        List<Cell> sol = truth.solutionPath().stream().map(s -> new Cell(s.get(0), s.get(1))).toList();
        MazeProblem problem = new MazeProblem(lattice, sol.get(0), sol.get(sol.size() - 1), sol, MazeAlgorithm.DFS, Placement.RANDOM);
        LocalArtifactResolver resolver = new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"));
        for (Fault fault : List.of(Fault.CORRECT, Fault.WALL_CROSSING, Fault.INCOMPLETE)) {
            var scenario = Scenario.of(fault, problem, new Random(1));
            if (scenario.isEmpty()) {
                continue;
            }
            Path out = dir.resolve(fault + ".png");
            Files.write(out, OutputRenderer.encode(OutputRenderer.image(scenario.get(), OutputStyle.CLEAN), OutputStyle.CLEAN));
            EvaluationOutcome now = evaluate(item, out, resolver);
            EvaluationOutcome then = evaluate(before, out, resolver);
            assertThat(then.metrics()).as("%s", fault).isEqualTo(now.metrics());
            assertThat(then.diagnostics()).as("%s", fault).isEqualTo(now.diagnostics());
            if (fault == Fault.CORRECT) {
                assertThat(now.metrics()).containsEntry("target_achievement", 1.0).containsEntry("cross_wall", 0.0);
            }
        }
    }

    private static EvaluationOutcome evaluate(BenchmarkItem item, Path output, LocalArtifactResolver resolver) throws Exception {
        GenerationEvent event = GenerationEvent.newBuilder().setRunId("r").setModel("m").setCheckpointId("c").setTrainingStep(1)
                .setTask("maze").setSampleId(item.getSampleId()).setModality("image")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output").setUri(output.toUri().toString())
                        .setMediaType("image/png").build()))
                .setProducedAt(Instant.EPOCH).build();
        MazePixelEvaluator evaluator = new MazePixelEvaluator();
        assertThat(evaluator.precheck(event, item)).isEmpty();
        return evaluator.evaluate(new EvaluationContext(event, item, resolver));
    }

    private static ByteBuffer encode(Schema schema, GenericRecord r) {
        try {
            return new BinaryMessageEncoder<GenericRecord>(GenericData.get(), schema).encode(r);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
