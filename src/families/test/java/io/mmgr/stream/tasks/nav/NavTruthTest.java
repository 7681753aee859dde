package io.mmgr.stream.tasks.nav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.Pose;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.ReleasedGroundTruth;
import io.mmgr.stream.tasks.SampleScorer;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Navigation's ground truth as the family's own payload (with its own copy of Pose), and every reference
 * case written with GroundTruth v2's shared fields scoring exactly as its payload twin.
 */
@Tag("unit")
class NavTruthTest {

    @TempDir
    Path dir;

    @Test
    void aPayloadCarriesEveryFieldPosesIncludedAndSurvivesJson() throws Exception {
        NavTruth truth = new NavTruth(
                List.of(Pose.newBuilder().setFrame(0).setX(1).setY(2).build(), Pose.newBuilder().setFrame(3).setX(4).setY(5).build()),
                List.of(Pose.newBuilder().setFrame(1).setX(0.5).setY(-1).setZ(2.25).setHeadingDeg(-90.0).build()),
                List.of(List.of(0.0, 0.0), List.of(1.0, 0.0), List.of(1.0, 1.0)), List.of(1.0, 2.0, 3.0), 0.75, 1.5);
        GroundTruth gt = truth.into(GroundTruth.newBuilder().setContext("by the sink").setExtra(Map.of("upAxis", "y"))).build();
        assertThat(gt.getFamily()).isEqualTo("nav");
        assertThat(gt.getTrajectory2d()).isNull();
        assertThat(NavTruth.of(gt)).isEqualTo(truth);
        GroundTruth back = JsonAvro.read(JsonAvro.toJson(gt).toString(), GroundTruth.class);
        assertThat(NavTruth.of(back)).isEqualTo(truth);
        assertThat(back.getContext()).isEqualTo("by the sink");
        NavTruth bare = new NavTruth(null, null, null, null, null, null);
        assertThat(NavTruth.of(bare.into(GroundTruth.newBuilder()).build())).isEqualTo(bare);
    }

    @Test
    void anUnreadablePayloadIsRefusedByThePrecheckWithTheReason() {
        GroundTruth garbage = GroundTruth.newBuilder().setFamily("nav").setPayload(ByteBuffer.wrap(new byte[] {1, 2, 3})).build();
        NavReferenceCases.Case c = NavReferenceCases.cases().get(0);
        BenchmarkItem item = BenchmarkItem.newBuilder(c.item()).setGroundTruth(garbage).build();
        assertThat(new NavGeometryEvaluator().precheck(c.event(), item)).hasValueSatisfying(r ->
                assertThat(r).contains("nav ground truth (payload) cannot be read"));
    }

    @Test
    void everyReferenceCaseOfBeforeScoresExactlyAsItsPayloadTwin() throws Exception {
        SampleScorer scorer = SampleScorer.load();
        LocalArtifactResolver resolver = new LocalArtifactResolver(List.of(dir), 1 << 20, dir.resolve("spill"));
        int cases = 0;
        for (NavReferenceCases.Case c : NavReferenceCases.cases()) {
            GroundTruth shared = c.item().getGroundTruth();
            GroundTruth payload = NavTruth.of(shared).into(GroundTruth.newBuilder().setContext(shared.getContext())
                    .setExtra(shared.getExtra())).build();
            BenchmarkItem now = BenchmarkItem.newBuilder(c.item()).setGroundTruth(payload).build();
            BenchmarkItem before = BenchmarkItem.newBuilder(c.item()).setGroundTruth(ReleasedGroundTruth.writtenWith(2, shared)).build();
            SampleScorer.Result a = ReleasedGroundTruth.assertScoredAlike(scorer, c.event(), now, before, resolver, c.id());
            assertThat(a.rejection()).as(c.id()).isNull();
            // both are the construction's values
            c.expected().forEach((key, v) -> assertThat(a.sample().metrics().get(key)).as("%s %s", c.id(), key).isNotNull()
                    .isCloseTo(v, within(1e-6)));
            cases++;
        }
        assertThat(cases).isEqualTo(NavReferenceCases.COUNT);
    }
}
