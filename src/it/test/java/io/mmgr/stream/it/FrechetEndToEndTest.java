package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.Pose;
import io.mmgr.stream.frechet.FrechetFixtures;
import io.mmgr.stream.topology.ScorerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live FID on a real broker, for MMGR's Top-down navigation (T6, whose View-Syn suite has FID): the
 * benchmark items name a reference statistics file, the generations carry Inception-style features beside
 * their trajectories, and the task row's FID, as samples arrive, equals {@code mmgr eval fid} on the
 * vectors sent so far against the same file.
 */
@Tag("integration")
class FrechetEndToEndTest {

    static final String RUN = "run-fid";
    static final String TASK = "nav-top-down";
    static final int D = 32;
    static final int N = 90;
    static final double D_MIN = 10;
    static final double D_MAX = 200;
    static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    static Path dir;

    static ScorerHarness h;
    static Path referenceFile;

    @BeforeAll
    static void start() throws Exception {
        h = new ScorerHarness(dir, ScorerSettings.defaults().withPrefix("fid.").withPartitions(3).withArtifactRoots(List.of(dir)));
        referenceFile = dir.resolve("inception-reference.json");
        ArtifactRef reference = FrechetFixtures.writeReference(referenceFile, FrechetFixtures.vectors(500, D, 11, 0));
        for (int i = 0; i < N; i++) {
            h.publish(BenchmarkItem.newBuilder().setTask(TASK).setSampleId("ep" + i).setBenchmark("mmgr")
                    .setArtifacts(List.of(reference))
                    .setAttributes(new HashMap<>(FrechetFixtures.attributes("inception", D_MIN, D_MAX)))
                    .setGroundTruth(GroundTruth.newBuilder().setGoalPolygon2d(List.of(List.of(8.0, 8.0), List.of(10.0, 8.0),
                            List.of(10.0, 10.0), List.of(8.0, 10.0))).build())
                    .build());
        }
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    static GenerationEvent event(int i, double[] features) {
        return GenerationEvent.newBuilder().setRunId(RUN).setModel("veo-like").setCheckpointId("ckpt-1").setTrainingStep(1)
                .setTask(TASK).setSampleId("ep" + i).setModality("video")
                .setInputs(GenerationInputs.newBuilder()
                        .setTrajectory2d(List.of(Pose.newBuilder().setFrame(0).setX(1).setY(1).build(),
                                Pose.newBuilder().setFrame(1).setX(9).setY(9).build()))
                        .setFeatures(Map.of("inception", FrechetFixtures.boxed(features))).build())
                .setProducedAt(Instant.now()).build();
    }

    static FrechetStat stat(Map<LeaderboardKey, LeaderboardRow> board) {
        LeaderboardRow row = board.get(new LeaderboardKey(RUN, "ckpt-1", TASK));
        return row == null ? null : row.getFrechet().get("fid");
    }

    static void sameAsBatch(int n, List<double[]> sent) throws Exception {
        FrechetStat live = stat(await(h::leaderboard, b -> stat(b) != null && stat(b).getSamples() == n, WAIT,
                "the task row's FID over " + n + " samples"));
        JsonNode batch = FrechetFixtures.evalFid(dir, sent, referenceFile, D_MIN, D_MAX);
        double expected = batch.get("fid").doubleValue();
        // intake's tasks may hand the samples on in another order than the file's: equal up to summation order
        assertThat(live.getValue()).isCloseTo(expected, within(1e-9 * expected));
        assertThat(live.getNormalized()).isCloseTo(batch.get("fid_normalized").doubleValue(), within(1e-9));
        assertThat(live.getDims()).isEqualTo(D);
        assertThat(live.getReferenceSamples()).isEqualTo(500L);
    }

    @Test
    void theTaskRowsFidAsSamplesArriveEqualsTheBatchValue() throws Exception {
        List<double[]> generated = FrechetFixtures.vectors(N, D, 12, 0.5);
        List<double[]> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            h.publish(event(i, generated.get(i)));
            sent.add(generated.get(i));
        }
        sameAsBatch(40, sent);
        for (int i = 40; i < N; i++) {
            h.publish(event(i, generated.get(i)));
            sent.add(generated.get(i));
        }
        sameAsBatch(N, sent);
        // the FID and the scores reach the row by different paths: the FID over N does not mean N are scored yet
        LeaderboardKey key = new LeaderboardKey(RUN, "ckpt-1", TASK);
        LeaderboardRow row = await(() -> h.leaderboard().get(key), r -> r != null && r.getSamplesScored() >= N, WAIT,
                "the task row with every sample scored");
        assertThat(row.getSamplesScored()).as("the samples' own scores are unaffected").isEqualTo(N);
    }
}
