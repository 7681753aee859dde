package io.mmgr.stream.topology.frechet;

import io.mmgr.stream.topology.TopologyFixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.FrechetSample;
import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.frechet.FrechetFixtures;
import io.mmgr.stream.frechet.FrechetReference;
import io.mmgr.stream.frechet.Moments;
import io.mmgr.stream.frechet.ReferenceStatistics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FID sub-flow alone, with a heap budget so small that every row's statistics are dropped as soon as
 * another row changes: each update rebuilds its row from the stored vectors (the path a restart or a
 * rebalance takes), and the distances still equal the batch fit of each row's current vectors. Also:
 * duplicates, withdrawn vectors, and the dead letters of unusable references and attributes.
 */
@Tag("topology")
class FrechetProcessorTest {

    static final int D = 8;

    @TempDir
    Path dir;

    TopologyFixture fx;
    TopologyTestDriver driver;
    TestInputTopic<LeaderboardKey, FrechetSample> samples;
    TestOutputTopic<LeaderboardKey, FrechetStat> stats;
    TestOutputTopic<byte[], DeadLetter> letters;
    ArtifactRef reference;
    FrechetReference prepared;

    @AfterEach
    void close() {
        if (fx != null) {
            fx.close();
        }
    }

    void start(long cacheBytes) throws Exception {
        FrechetSettings settings = new FrechetSettings(Duration.ofSeconds(1), Duration.ofSeconds(5), 64, cacheBytes, 2);
        fx = TopologyFixture.builder("p.", dir).settings(s -> s.withPartitions(1)).context(c -> c.frechet(settings))
                .subFlows((builder, ctx) -> FrechetTopology.build(builder, ctx.frechetDeps()).toStream()
                        .to("stats-out", Produced.with(ctx.stores().frechetStats.keySerde(), ctx.stores().frechetStats.valueSerde())));
        driver = fx.driver;
        samples = fx.input(fx.topics.frechetSamples);
        stats = driver.createOutputTopic("stats-out", fx.stores.frechetStats.keySerde().deserializer(),
                fx.stores.frechetStats.valueSerde().deserializer());
        letters = fx.deadLetters();
        List<double[]> referenceVectors = FrechetFixtures.vectors(100, D, 1, 0);
        reference = FrechetFixtures.writeReference(dir.resolve("ref.json"), referenceVectors);
        Moments m = new Moments(D);
        referenceVectors.forEach(m::add);
        prepared = m.statistics().prepare();
    }

    static LeaderboardKey row(String checkpoint) {
        return new LeaderboardKey("run", checkpoint, "task");
    }

    FrechetSample sample(String id, String generation, double[] x) {
        return FrechetSample.newBuilder().setGenerationId(generation).setSampleId(id).setSeed(0).setMetric("fid")
                .setFeature("inception").setVector(x == null ? List.of() : FrechetFixtures.boxed(x)).setReference(reference)
                .setDMin(null).setDMax(null).setProblem(null).build();
    }

    double batch(List<double[]> vectors) {
        Moments m = new Moments(D);
        vectors.forEach(m::add);
        ReferenceStatistics.Raw raw = m.statistics();
        return prepared.distance(raw.mean(), raw.covariance());
    }

    Map<LeaderboardKey, FrechetStat> latest() {
        driver.advanceWallClockTime(Duration.ofSeconds(2));
        return stats.readKeyValuesToMap();
    }

    @Test
    void rowsRebuiltFromTheStoredVectorsGiveTheBatchDistance() throws Exception {
        start(1); // one byte: no row's statistics survive another row's update
        List<double[]> a = FrechetFixtures.vectors(30, D, 2, 0.2);
        List<double[]> b = FrechetFixtures.vectors(30, D, 3, -0.4);
        for (int i = 0; i < 30; i++) {
            samples.pipeInput(row("c1"), sample("s" + i, "g" + i, a.get(i)));
            samples.pipeInput(row("c2"), sample("s" + i, "g" + i, b.get(i)));
        }
        Map<LeaderboardKey, FrechetStat> out = latest();
        assertThat(out.get(row("c1")).getSamples()).isEqualTo(30);
        assertThat(out.get(row("c1")).getValue()).isCloseTo(batch(a), within(1e-9 * batch(a)));
        assertThat(out.get(row("c2")).getValue()).isCloseTo(batch(b), within(1e-9 * batch(b)));
        assertThat(batch(a)).isNotCloseTo(batch(b), within(1e-3));

        // the same generation again changes nothing; a new generation without a vector withdraws the old one
        samples.pipeInput(row("c1"), sample("s0", "g0", a.get(0)));
        samples.pipeInput(row("c1"), sample("s1", "g1-again", null));
        FrechetStat c1 = latest().get(row("c1"));
        assertThat(c1.getSamples()).isEqualTo(29);
        List<double[]> rest = new ArrayList<>(a);
        rest.remove(1);
        assertThat(c1.getValue()).isCloseTo(batch(rest), within(1e-9 * batch(rest)));
        assertThat(letters.readValuesToList()).isEmpty();
    }

    @Test
    void unusableReferencesAndAttributesAreDeadLetters() throws Exception {
        start(1L << 30);
        samples.pipeInput(row("c1"), sample("s0", "g0", new double[D]));
        FrechetSample wrongDigest = sample("s1", "g1", new double[D]);
        wrongDigest.setReference(ArtifactRef.newBuilder(reference).setSha256("0".repeat(64)).build());
        samples.pipeInput(row("c1"), wrongDigest);
        Path junk = dir.resolve("junk.json");
        Files.writeString(junk, "{\"mean\": [1, 2]}");
        FrechetSample noCovariance = sample("s2", "g2", new double[D]);
        noCovariance.setReference(ArtifactRef.newBuilder(reference).setUri(junk.toUri().toString()).setSha256(null).build());
        samples.pipeInput(row("c1"), noCovariance);
        FrechetSample badBounds = sample("s3", "g3", new double[D]);
        badBounds.setProblem("frechet.dMax must be greater than frechet.dMin");
        samples.pipeInput(row("c1"), badBounds);

        List<DeadLetter> out = letters.readValuesToList();
        assertThat(out).extracting(DeadLetter::getStage).containsOnly("frechet");
        assertThat(out).extracting(DeadLetter::getSampleRef).containsExactly("run/c1/task/s1#0", "run/c1/task/s2#0", "run/c1/task/s3#0");
        assertThat(out.get(0).getReason()).contains("cannot be used").contains("digest mismatch");
        assertThat(out.get(1).getReason()).contains("\"mean\" and \"covariance\"");
        assertThat(out.get(2).getReason()).isEqualTo("frechet.dMax must be greater than frechet.dMin");
        assertThat(latest().get(row("c1")).getSamples()).isEqualTo(1);
    }
}
