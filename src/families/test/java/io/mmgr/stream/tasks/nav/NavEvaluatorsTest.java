package io.mmgr.stream.tasks.nav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.Pose;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nav-geometry, geo-align and view-syn through their stream contract. */
@Tag("unit")
class NavEvaluatorsTest {

    @TempDir
    Path dir;

    private static final List<List<Double>> GOAL_SQUARE = List.of(
            List.of(200.0, 200.0), List.of(240.0, 200.0), List.of(240.0, 240.0), List.of(200.0, 240.0));

    static Pose pose(int frame, double x, double y, Double z, Double heading) {
        return Pose.newBuilder().setFrame(frame).setX(x).setY(y).setZ(z).setHeadingDeg(heading).build();
    }

    static GenerationEvent.Builder event(String task) {
        return GenerationEvent.newBuilder().setRunId("r").setModel("m").setCheckpointId("c").setTrainingStep(1)
                .setTask(task).setSampleId("s1").setModality("video").setProducedAt(Instant.EPOCH);
    }

    static BenchmarkItem item(String task, GroundTruth gt, List<ArtifactRef> artifacts) {
        return BenchmarkItem.newBuilder().setTask(task).setSampleId("s1").setGroundTruth(gt).setArtifacts(artifacts).build();
    }

    private EvaluationOutcome run(io.mmgr.stream.tasks.DeterministicEvaluator e, GenerationEvent ev, BenchmarkItem it)
            throws Exception {
        assertThat(e.precheck(ev, it)).isEmpty();
        return e.evaluate(new EvaluationContext(ev, it, new LocalArtifactResolver(List.of(dir), 64L << 20, dir.resolve("spill"))));
    }

    @Test
    void allThreeAreRegistered() {
        EvaluatorRegistry r = EvaluatorRegistry.load();
        assertThat(r.ids()).contains("nav-geometry", "geo-align", "view-syn");
    }

    @Test
    void topDownFromATrajectory() throws Exception {
        BenchmarkItem item = item(NavMetrics.TOP_DOWN, GroundTruth.newBuilder().setGoalPolygon2d(GOAL_SQUARE).build(), List.of());
        GenerationEvent passing = event(NavMetrics.TOP_DOWN).setInputs(GenerationInputs.newBuilder().setTrajectory2d(List.of(
                pose(0, 100, 220, null, null), pose(1, 190, 220, null, null), pose(2, 250, 220, null, null),
                pose(3, 300, 220, null, null))).build()).build();
        EvaluationOutcome out = run(new NavGeometryEvaluator(), passing, item);
        assertThat(out.metrics()).containsEntry("success_2d", 0.0).containsEntry("oracle_success_2d", 1.0)
                .containsEntry("success_3d", null).containsEntry("oracle_success_3d", null)
                .containsEntry("trajectory_alignment", null);
    }

    @Test
    void lastMileFromVggtPosesAndGeoAlign() throws Exception {
        List<Pose> gt = List.of(pose(0, 0, 0, 0.0, 0.0), pose(1, 1, 0, 0.0, 0.0), pose(2, 2, 0, 0.0, 0.0));
        BenchmarkItem item = item(NavMetrics.LAST_MILE, GroundTruth.newBuilder().setGoal3d(List.of(2.0, 0.0, 0.0))
                .setGoalRadius3d(0.5).setOracleRadius3d(1.0).setTrajectory3d(gt).build(), List.of());
        GenerationEvent ev = event(NavMetrics.LAST_MILE).setInputs(GenerationInputs.newBuilder().setTrajectory3d(List.of(
                pose(0, 0, 0, 0.0, 0.0), pose(1, 1, 0.3, 0.0, 0.0), pose(2, 1.2, 0.6, 0.0, 45.0))).build()).build();
        EvaluationOutcome geometry = run(new NavGeometryEvaluator(), ev, item);
        // ends 1.0 from the target: outside the 0.5 m volume, inside the 1 m proximity threshold
        assertThat(geometry.metrics()).containsEntry("success_3d", 0.0).containsEntry("oracle_success_3d", 1.0)
                .containsEntry("success_2d", null);
        EvaluationOutcome geo = run(new GeoAlignEvaluator(), ev, item);
        assertThat(geo.metrics().get("nav_error")).isCloseTo(1.0, within(1e-12));
        assertThat(geo.metrics().get("sr")).isZero();
        assertThat(geo.metrics().get("dir_error_deg")).isEqualTo(45.0);
        assertThat(geo.diagnostics().get("lower_is_better")).contains("ate", "rpe", "nav_error", "dir_error_deg");
        assertThat(geo.diagnostics().get("higher_is_better")).isEqualTo("sr,spl,ndtw,sdtw");

        // an item without a ground-truth trajectory still scores its geometry; geo-align says why it is empty
        BenchmarkItem bare = item(NavMetrics.LAST_MILE, GroundTruth.newBuilder().setGoal3d(List.of(2.0, 0.0, 0.0))
                .setGoalRadius3d(0.5).build(), List.of());
        EvaluationOutcome none = run(new GeoAlignEvaluator(), ev, bare);
        assertThat(none.metrics().values()).containsOnlyNulls();
        assertThat(none.diagnostics().get("not_computed")).contains("groundTruth.trajectory3d");
    }

    /** The Last-Mile trajectories above: ground truth (0,0,0) to (2,0,0), prediction ending at (1.2, 0.6, 0) at 45 degrees. */
    private static final List<Pose> LM_TRUTH = List.of(pose(0, 0, 0, 0.0, 0.0), pose(1, 1, 0, 0.0, 0.0), pose(2, 2, 0, 0.0, 0.0));
    private static final GenerationEvent LM_EVENT = event(NavMetrics.LAST_MILE).setInputs(GenerationInputs.newBuilder()
            .setTrajectory3d(List.of(pose(0, 0, 0, 0.0, 0.0), pose(1, 1, 0.3, 0.0, 0.0), pose(2, 1.2, 0.6, 0.0, 45.0)))
            .build()).build();

    @Test
    void anItemWithoutATargetKeepsEveryMetricThatNeedsNone() throws Exception {
        NavGeometryEvaluator geometry = new NavGeometryEvaluator();
        BenchmarkItem noGoal = item(NavMetrics.LAST_MILE, GroundTruth.newBuilder().setTrajectory3d(LM_TRUTH).build(), List.of());
        assertThat(geometry.unavailableMetrics(LM_EVENT, noGoal))
                .containsOnlyKeys("success_3d", "oracle_success_3d")
                .allSatisfy((metric, why) -> assertThat(why).isEqualTo("benchmark item s1 has no 3D target (groundTruth.goal3d)"));
        EvaluationOutcome g = run(geometry, LM_EVENT, noGoal);
        assertThat(g.metrics()).containsEntry("success_3d", null).containsEntry("oracle_success_3d", null);
        assertThat(g.diagnostics()).doesNotContainKey("final_distance_3d");
        // Geo-Align, goal the ground truth's end (2,0,0) and d_th 3 m: lengths sqrt(1.09) + sqrt(0.13) and 2,
        // the end sqrt(0.8^2 + 0.6^2) = 1 from the goal, the last headings 45 degrees apart
        EvaluationOutcome geo = run(new GeoAlignEvaluator(), LM_EVENT, noGoal);
        assertThat(geo.metrics().get("path_length_pred")).isCloseTo(Math.sqrt(1.09) + Math.sqrt(0.13), within(1e-12));
        assertThat(geo.metrics().get("path_length_gt")).isEqualTo(2.0);
        assertThat(geo.metrics().get("nav_error")).isCloseTo(1.0, within(1e-12));
        assertThat(geo.metrics().get("sr")).isEqualTo(1.0);
        assertThat(geo.metrics().get("dir_error_deg")).isEqualTo(45.0);
        assertThat(geo.metrics().get("ate")).isPositive();
        assertThat(geo.metrics().get("rpe")).isPositive();
        assertThat(geo.diagnostics().get("goal")).contains("no groundTruth.goal3d");

        // a target without its volume's radius: Success 3D is unavailable, the oracle's own threshold still serves
        BenchmarkItem noRadius = item(NavMetrics.LAST_MILE, GroundTruth.newBuilder().setTrajectory3d(LM_TRUTH)
                .setGoal3d(List.of(2.0, 0.0, 0.0)).setOracleRadius3d(1.0).build(), List.of());
        assertThat(geometry.unavailableMetrics(LM_EVENT, noRadius)).containsOnlyKeys("success_3d")
                .containsEntry("success_3d", "benchmark item s1 has no target volume radius (groundTruth.goalRadius3d)");
        assertThat(run(geometry, LM_EVENT, noRadius).metrics()).containsEntry("success_3d", null)
                .containsEntry("oracle_success_3d", 1.0);
        BenchmarkItem noRadii = item(NavMetrics.LAST_MILE, GroundTruth.newBuilder().setTrajectory3d(LM_TRUTH)
                .setGoal3d(List.of(2.0, 0.0, 0.0)).build(), List.of());
        assertThat(geometry.unavailableMetrics(LM_EVENT, noRadii)).containsOnlyKeys("success_3d", "oracle_success_3d");
        assertThat(geometry.unavailableMetrics(LM_EVENT, noRadii).get("oracle_success_3d")).contains("oracleRadius3d");
        assertThat(run(geometry, LM_EVENT, noRadii).metrics()).containsEntry("success_3d", null)
                .containsEntry("oracle_success_3d", null);

        // given but wrong is still refused
        BenchmarkItem zeroRadius = item(NavMetrics.LAST_MILE, GroundTruth.newBuilder().setTrajectory3d(LM_TRUTH)
                .setGoal3d(List.of(2.0, 0.0, 0.0)).setGoalRadius3d(0.0).build(), List.of());
        assertThat(geometry.precheck(LM_EVENT, zeroRadius)).get().asString().contains("goalRadius3d must be a positive number");
    }

    @Test
    void aGoalLessSampleIsPartialAndItsUnavailableChecksNeverPass() {
        io.mmgr.stream.tasks.SampleScorer scorer = io.mmgr.stream.tasks.SampleScorer.load();
        BenchmarkItem noGoal = item(NavMetrics.LAST_MILE, GroundTruth.newBuilder().setTrajectory3d(LM_TRUTH).build(), List.of());
        var r = scorer.score(LM_EVENT, noGoal, new LocalArtifactResolver(List.of(dir), 1 << 20, dir.resolve("spill")));
        assertThat(r.rejected()).isFalse();
        assertThat(r.sample().status()).isEqualTo(io.mmgr.stream.contract.SampleStatus.PARTIAL);
        assertThat(r.sample().errors()).isEmpty();
        assertThat(r.unavailable()).containsEntry("nav-geometry.success_3d", "benchmark item s1 has no 3D target (groundTruth.goal3d)")
                .containsEntry("nav-geometry.oracle_success_3d", "benchmark item s1 has no 3D target (groundTruth.goal3d)")
                .containsEntry("judge", "no judge configured");
        assertThat(r.unavailableMetrics("nav-geometry")).containsOnlyKeys("success_3d", "oracle_success_3d");
        assertThat(r.sample().metrics().get("geo-align.nav_error")).isCloseTo(1.0, within(1e-12));
        assertThat(r.sample().gate().primary()).isNull();
        assertThat(r.sample().gate().missingChecks()).startsWith("nav-geometry.success_3d=1", "nav-geometry.oracle_success_3d=1");

        // SLAG without a 3D target: the 2D checks and the alignment are still made, and a failed one decides
        List<Pose> p3 = new ArrayList<>();
        List<Pose> p2 = new ArrayList<>();
        for (int i = 0; i <= 20; i++) {
            double x = Math.min(i, 10) * 0.5;
            double y = Math.max(0, i - 10) * 0.5;
            p3.add(pose(i, x, y, 0.0, null));
            p2.add(pose(i, 100 + 20 * x, 300 - 20 * y, null, null));
        }
        GenerationEvent slag = event(NavMetrics.SLAG).setInputs(GenerationInputs.newBuilder().setTrajectory2d(p2)
                .setTrajectory3d(p3).build()).build();
        // the route ends at (200, 200) on the map; the footprint lies beside its first leg, never touched
        BenchmarkItem away = item(NavMetrics.SLAG, GroundTruth.newBuilder().setGoalPolygon2d(List.of(List.of(120.0, 320.0),
                List.of(160.0, 320.0), List.of(160.0, 360.0), List.of(120.0, 360.0))).build(), List.of());
        var s = scorer.score(slag, away, new LocalArtifactResolver(List.of(dir), 1 << 20, dir.resolve("spill")));
        assertThat(s.sample().status()).isEqualTo(io.mmgr.stream.contract.SampleStatus.PARTIAL);
        assertThat(s.sample().metrics()).containsEntry("nav-geometry.trajectory_alignment", 1.0)
                .containsEntry("nav-geometry.success_2d", 0.0).containsEntry("nav-geometry.success_3d", null);
        assertThat(s.sample().gate().primary()).isEqualTo(0.0);
        assertThat(s.sample().gate().failedChecks()).contains("nav-geometry.success_2d=1");
        assertThat(s.sample().gate().missingChecks()).contains("nav-geometry.success_3d=1", "nav-geometry.oracle_success_3d=1");
    }

    @Test
    void geoAlignSuccessIsStrictlyInsideTheItemsGoalRadius() throws Exception {
        List<Pose> gt = List.of(pose(0, 0, 0, 0.0, 0.0), pose(1, 2, 0, 0.0, 0.0), pose(2, 4, 0, 0.0, 0.0));
        // ends 1.25 m from the goal, exactly
        GenerationEvent ev = event(NavMetrics.LAST_MILE).setInputs(GenerationInputs.newBuilder().setTrajectory3d(List.of(
                pose(0, 0, 0, 0.0, 0.0), pose(1, 1.5, 0.5, 0.0, 0.0), pose(2, 3.25, 1, 0.0, 0.0))).build()).build();
        for (double radius : new double[] {1.25, 1.2499, 1.2501}) {
            BenchmarkItem item = item(NavMetrics.LAST_MILE, GroundTruth.newBuilder().setGoal3d(List.of(4.0, 0.0, 0.0))
                    .setGoalRadius3d(radius).setTrajectory3d(gt).build(), List.of());
            EvaluationOutcome geo = run(new GeoAlignEvaluator(), ev, item);
            double expected = radius > 1.25 ? 1.0 : 0.0;
            assertThat(geo.metrics().get("nav_error")).isEqualTo(1.25);
            assertThat(geo.metrics().get("sr")).as("radius %s", radius).isEqualTo(expected);
            assertThat(geo.metrics().get("spl")).isEqualTo(expected); // the 3.4 m path is under l = 4 m
            assertThat(geo.metrics().get("sdtw")).isEqualTo(expected * geo.metrics().get("ndtw"));
            assertThat(geo.diagnostics()).containsEntry("spl_shortest_path",
                    "straight line from the ground truth's start to the goal");
        }
    }

    @Test
    void slagNeedsBothAndChecksTheirAlignment() throws Exception {
        List<Pose> p3 = new ArrayList<>();
        List<Pose> p2 = new ArrayList<>();
        for (int i = 0; i <= 20; i++) {
            double x = Math.min(i, 10) * 0.5;
            double y = Math.max(0, i - 10) * 0.5;
            p3.add(pose(i, x, y, i > 10 ? 0.2 * (i - 10) : 0.0, null));
            p2.add(pose(i, 100 + 20 * x, 300 - 20 * y, null, null)); // map pixels, y down
        }
        GroundTruth gt = GroundTruth.newBuilder().setGoalPolygon2d(List.of(List.of(190.0, 190.0), List.of(210.0, 190.0),
                List.of(210.0, 210.0), List.of(190.0, 210.0))).setGoal3d(List.of(5.0, 5.0, 2.0)).setGoalRadius3d(0.3).build();
        GenerationEvent ev = event(NavMetrics.SLAG).setInputs(GenerationInputs.newBuilder().setTrajectory2d(p2)
                .setTrajectory3d(p3).build()).build();
        EvaluationOutcome out = run(new NavGeometryEvaluator(), ev, item(NavMetrics.SLAG, gt, List.of()));
        assertThat(out.metrics()).containsEntry("success_2d", 1.0).containsEntry("oracle_success_2d", 1.0)
                .containsEntry("success_3d", 1.0).containsEntry("oracle_success_3d", 1.0)
                .containsEntry("trajectory_alignment", 1.0);
    }

    @Test
    void prechecksNameWhatIsMissing() {
        NavGeometryEvaluator e = new NavGeometryEvaluator();
        BenchmarkItem noPolygon = item(NavMetrics.TOP_DOWN, GroundTruth.newBuilder().build(), List.of());
        GenerationEvent with2d = event(NavMetrics.TOP_DOWN).setInputs(GenerationInputs.newBuilder()
                .setTrajectory2d(List.of(pose(0, 1, 1, null, null))).build()).build();
        // no footprint: the 2D successes are unavailable, not the sample; a malformed one is refused
        assertThat(e.precheck(with2d, noPolygon)).isEmpty();
        assertThat(e.unavailableMetrics(with2d, noPolygon)).containsOnlyKeys("success_2d", "oracle_success_2d")
                .allSatisfy((metric, why) -> assertThat(why).contains("no 2D goal footprint (groundTruth.goalPolygon2d)"));
        BenchmarkItem badPolygon = item(NavMetrics.TOP_DOWN, GroundTruth.newBuilder()
                .setGoalPolygon2d(List.of(List.of(1.0, 1.0), List.of(2.0, 2.0))).build(), List.of());
        assertThat(e.precheck(with2d, badPolygon)).get().asString().contains("at least three");
        BenchmarkItem topDown = item(NavMetrics.TOP_DOWN, GroundTruth.newBuilder().setGoalPolygon2d(GOAL_SQUARE).build(), List.of());
        assertThat(e.precheck(event(NavMetrics.TOP_DOWN).build(), topDown)).get().asString()
                .contains("no 2D trajectory").contains("no top-down output video");
        GenerationEvent video = event(NavMetrics.TOP_DOWN).setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output")
                .setUri("file:///x.mp4").setMediaType("video/mp4").build())).build();
        assertThat(e.precheck(video, topDown)).get().asString().contains("agentColor");
        BenchmarkItem threeD = item(NavMetrics.REAL_WORLD_3D, GroundTruth.newBuilder().setGoal3d(List.of(1.0, 2.0)).build(), List.of());
        assertThat(e.precheck(event(NavMetrics.REAL_WORLD_3D).build(), threeD)).get().asString().contains("trajectory3d");
        GenerationEvent with3d = event(NavMetrics.REAL_WORLD_3D).setInputs(GenerationInputs.newBuilder()
                .setTrajectory3d(List.of(pose(0, 1, 1, 0.0, null))).build()).build();
        assertThat(e.precheck(with3d, threeD)).get().asString().contains("goal3d must be [x, y, z]");
        GenerationEvent noZ = event(NavMetrics.REAL_WORLD_3D).setInputs(GenerationInputs.newBuilder()
                .setTrajectory3d(List.of(pose(0, 1, 1, null, null))).build()).build();
        assertThat(e.precheck(noZ, threeD)).get().asString().contains("has no z");
        GenerationEvent badLpips = event(NavMetrics.TOP_DOWN).setInputs(GenerationInputs.newBuilder()
                .setValues(Map.of("lpips", -0.1)).build()).build();
        assertThat(new ViewSynEvaluator().precheck(badLpips, topDown)).get().asString().contains("lpips");
    }

    /** A top-down map video: white floor, the red goal, a blue agent moving along a polyline. */
    private Path topDownVideo(String name, double[][] route, int frames) throws Exception {
        Path file = dir.resolve(name);
        try (VideoEncoder enc = VideoEncoder.open(file, 320, 320, 12, VideoEncoder.Container.MP4)) {
            for (int f = 0; f < frames; f++) {
                RgbImage img = RgbImage.filled(320, 320, 0xFFFFFF);
                fill(img, 200, 200, 40, 40, 0xE02020);
                double u = f / (double) (frames - 1) * (route.length - 1);
                int i = Math.min(route.length - 2, (int) u);
                double t = u - i;
                double x = route[i][0] + t * (route[i + 1][0] - route[i][0]);
                double y = route[i][1] + t * (route[i + 1][1] - route[i][1]);
                fill(img, (int) Math.round(x) - 6, (int) Math.round(y) - 6, 12, 12, 0x1A40E0);
                enc.write(img);
            }
        }
        return file;
    }

    private static void fill(RgbImage img, int x, int y, int w, int h, int rgb) {
        for (int yy = Math.max(0, y); yy < Math.min(img.height(), y + h); yy++) {
            for (int xx = Math.max(0, x); xx < Math.min(img.width(), x + w); xx++) {
                img.set(xx, yy, rgb);
            }
        }
    }

    @Test
    void topDownVideoIsTrackedWhenTheEventCarriesNoTrajectory() throws Exception {
        BenchmarkItem item = item(NavMetrics.TOP_DOWN, GroundTruth.newBuilder().setGoalPolygon2d(GOAL_SQUARE)
                .setExtra(Map.of("agentColor", "#1A40E0")).build(), List.of());
        Path arrives = topDownVideo("arrives.mp4", new double[][] {{40, 40}, {40, 220}, {220, 220}}, 24);
        Path passes = topDownVideo("passes.mp4", new double[][] {{40, 220}, {300, 220}, {300, 40}}, 24);
        Path never = topDownVideo("never.mp4", new double[][] {{40, 40}, {150, 150}}, 16);
        for (Object[] c : new Object[][] {{arrives, 1.0, 1.0}, {passes, 0.0, 1.0}, {never, 0.0, 0.0}}) {
            GenerationEvent ev = event(NavMetrics.TOP_DOWN).setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output")
                    .setUri(((Path) c[0]).toUri().toString()).setMediaType("video/mp4").build())).build();
            EvaluationOutcome out = run(new NavGeometryEvaluator(), ev, item);
            assertThat(out.metrics().get("success_2d")).as("%s", c[0]).isEqualTo(c[1]);
            assertThat(out.metrics().get("oracle_success_2d")).as("%s", c[0]).isEqualTo(c[2]);
            assertThat(out.diagnostics().get("trajectory2d")).startsWith("tracked in");
        }
    }

    @Test
    void viewSynComparesOutputWithReferenceFrames() throws Exception {
        RgbImage ref = RgbImage.filled(64, 48, 0x808080);
        RgbImage gen = ref.copy();
        for (int y = 0; y < 48; y++) {
            for (int x = 0; x < 64; x++) {
                int d = ((x + y) & 1) == 0 ? 10 : -10;
                int v = 0x80 + d;
                gen.set(x, y, v << 16 | v << 8 | v);
            }
        }
        Path refFile = dir.resolve("ref.png");
        Path genFile = dir.resolve("gen.png");
        Files.write(refFile, png(ref));
        Files.write(genFile, png(gen));
        BenchmarkItem item = item(NavMetrics.TOP_DOWN, GroundTruth.newBuilder().setGoalPolygon2d(GOAL_SQUARE).build(),
                List.of(ArtifactRef.newBuilder().setRole("reference").setUri(refFile.toUri().toString()).setMediaType("image/png").build()));
        GenerationEvent ev = event(NavMetrics.TOP_DOWN).setModality("image")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output").setUri(genFile.toUri().toString())
                        .setMediaType("image/png").build()))
                .setInputs(GenerationInputs.newBuilder().setValues(Map.of("lpips", 0.125))
                        .setFeatures(Map.of("inception", List.of(0.1, 0.2, 0.3))).build()).build();
        EvaluationOutcome out = run(new ViewSynEvaluator(), ev, item);
        double c2 = Math.pow(0.03 * 255, 2);
        assertThat(out.metrics().get("psnr")).isCloseTo(20 * Math.log10(255 / 10.0), within(1e-9));
        assertThat(out.metrics().get("ssim")).isCloseTo(c2 / (100 + c2), within(1e-6));
        assertThat(out.metrics().get("lpips")).isEqualTo(0.125);
        assertThat(out.diagnostics().get("features")).contains("inception(3)").contains("mmgr eval fid");

        GenerationEvent same = event(NavMetrics.TOP_DOWN).setModality("image")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output").setUri(refFile.toUri().toString())
                        .setMediaType("image/png").build())).build();
        EvaluationOutcome identical = run(new ViewSynEvaluator(), same, item);
        assertThat(identical.metrics()).containsEntry("psnr", 100.0).containsEntry("ssim", 1.0).containsEntry("lpips", null);

        EvaluationOutcome noRef = run(new ViewSynEvaluator(), same, item(NavMetrics.TOP_DOWN, item.getGroundTruth(), List.of()));
        assertThat(noRef.metrics()).containsEntry("ssim", null).containsEntry("psnr", null);
        assertThat(noRef.diagnostics().get("ssim_psnr")).contains("no reference");
    }

    private static byte[] png(RgbImage img) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img.toBufferedImage(), "png", out);
        return out.toByteArray();
    }
}
