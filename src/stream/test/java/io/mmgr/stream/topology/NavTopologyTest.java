package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.Pose;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Navigation through the whole scoring topology (TopologyTestDriver, the real catalog and evaluators, no
 * judge): an item without a 3D target gives a PARTIAL sample that keeps its trajectory metrics and names
 * the two it lacks the target for, beside a sample of an item with one.
 */
@Tag("topology")
class NavTopologyTest {

    @TempDir
    Path dir;

    DriverScorer scorer;

    @AfterEach
    void close() {
        if (scorer != null) {
            scorer.close();
        }
    }

    private static List<Pose> line(double step, double lastHeading) {
        List<Pose> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            out.add(Pose.newBuilder().setFrame(i).setX(i * step).setY(i == 2 ? 0.5 * step : 0).setZ(0.0)
                    .setHeadingDeg(i == 3 ? lastHeading : 0.0).build());
        }
        return out;
    }

    private static BenchmarkItem item(String sample, GroundTruth.Builder truth) {
        return BenchmarkItem.newBuilder().setTask("nav-last-mile").setSampleId(sample).setSeeds(1)
                .setGroundTruth(truth.setTrajectory3d(line(1, 0)).build()).build();
    }

    private static GenerationEvent event(String sample) {
        return GenerationEvent.newBuilder().setRunId("run").setModel("m").setCheckpointId("c1").setTrainingStep(1)
                .setTask("nav-last-mile").setSampleId(sample).setSeed(0).setModality("video").setArtifacts(List.of())
                .setInputs(GenerationInputs.newBuilder().setTrajectory3d(line(2, 20)).build())
                .setProducedAt(Instant.ofEpochMilli(1_700_000_000_000L)).build();
    }

    @Test
    void aGoalLessItemGivesAPartialSampleWithItsOtherMetrics() {
        scorer = new DriverScorer("n.", TaskCatalog.load(), EvaluatorRegistry.load(), dir);
        scorer.item(item("no-goal", GroundTruth.newBuilder()));
        scorer.item(item("goal", GroundTruth.newBuilder().setGoal3d(List.of(6.0, 0.0, 0.0)).setGoalRadius3d(0.5)));
        scorer.publish(event("no-goal"));
        scorer.publish(event("goal"));
        var scores = scorer.scores();

        SampleScore s = scores.get(new SampleKey("run", "c1", "nav-last-mile", "no-goal", 0));
        assertThat(s.getStatus()).isEqualTo("PARTIAL");
        assertThat(s.getErrors()).isEmpty();
        assertThat(s.getPending())
                .containsEntry("nav-geometry.success_3d", "benchmark item no-goal has no 3D target (groundTruth.goal3d)")
                .containsEntry("nav-geometry.oracle_success_3d", "benchmark item no-goal has no 3D target (groundTruth.goal3d)")
                .containsEntry("judge", "no judge configured");
        assertThat(s.getMetrics()).containsEntry("nav-geometry.success_3d", null);
        // the prediction is the ground truth scaled by 2 about its start: no error after the Sim(3) alignment
        assertThat(s.getMetrics().get("geo-align.ate")).isCloseTo(0.0, within(1e-9));
        assertThat(s.getMetrics().get("geo-align.rpe")).isCloseTo(0.0, within(1e-9));
        assertThat(s.getMetrics().get("geo-align.path_length_pred"))
                .isCloseTo(2 * s.getMetrics().get("geo-align.path_length_gt"), within(1e-12));
        assertThat(s.getMetrics().get("geo-align.nav_error")).isEqualTo(3.0); // (6,0,0) from the ground truth's end (3,0,0)
        assertThat(s.getMetrics().get("geo-align.dir_error_deg")).isEqualTo(20.0);
        assertThat(s.getPrimary()).isNull();
        assertThat(s.getMissingChecks()).contains("nav-geometry.success_3d=1", "nav-geometry.oracle_success_3d=1");

        SampleScore withGoal = scores.get(new SampleKey("run", "c1", "nav-last-mile", "goal", 0));
        assertThat(withGoal.getStatus()).isEqualTo("PARTIAL"); // no judge
        assertThat(withGoal.getPending()).containsOnlyKeys("judge");
        assertThat(withGoal.getMetrics()).containsEntry("nav-geometry.success_3d", 1.0)
                .containsEntry("nav-geometry.oracle_success_3d", 1.0);

        LeaderboardRow row = scorer.rows().get(new LeaderboardKey("run", "c1", "nav-last-mile"));
        assertThat(row.getSamplesPartial()).isEqualTo(2);
        assertThat(row.getSamplesFailed()).isZero();
        assertThat(row.getMetrics().get("geo-align.ate").getCount()).isEqualTo(2);
        assertThat(row.getMetrics().get("nav-geometry.success_3d").getCount()).isEqualTo(1);
        assertThat(scorer.deadLetters()).isEmpty();
    }
}
