package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.FrechetStat;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.frechet.FrechetFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live FID on TopologyTestDriver: the task row's distance after each round of samples equals
 * {@code mmgr eval fid} on the vectors received so far against the same reference file; a re-sent sample
 * replaces its vector; a vector of the wrong size is a dead letter while the sample is still scored.
 */
@Tag("topology")
class FrechetTopologyTest {

    static final int D = 16;
    static final double D_MIN = 5;
    static final double D_MAX = 80;

    @TempDir
    Path dir;

    DriverScorer scorer;
    Path referenceFile;

    @AfterEach
    void close() {
        if (scorer != null) {
            scorer.close();
        }
    }

    void start(int items) throws Exception {
        scorer = new DriverScorer("f.", EchoTask.catalog(), EchoTask.evaluators(), dir);
        referenceFile = dir.resolve("reference.json");
        ArtifactRef reference = FrechetFixtures.writeReference(referenceFile, FrechetFixtures.vectors(300, D, 1, 0));
        for (int i = 0; i < items; i++) {
            BenchmarkItem item = Fixtures.item(EchoTask.TASK, "s" + i, 1);
            item.setArtifacts(List.of(reference));
            item.setAttributes(new HashMap<>(FrechetFixtures.attributes("inception", D_MIN, D_MAX)));
            scorer.item(item);
        }
    }

    void publish(String checkpoint, int sample, double[] features) {
        GenerationEvent e = Fixtures.event("run", checkpoint, 100, EchoTask.TASK, "s" + sample, 0, Map.of("ok", 1.0));
        e.setInputs(GenerationInputs.newBuilder(e.getInputs())
                .setFeatures(Map.of("inception", FrechetFixtures.boxed(features))).build());
        scorer.publish(e);
    }

    FrechetStat fid(String checkpoint) {
        scorer.advance(Duration.ofSeconds(2));
        LeaderboardRow row = scorer.rows().get(new LeaderboardKey("run", checkpoint, EchoTask.TASK));
        assertThat(row).as("a task row").isNotNull();
        return row.getFrechet().get("fid");
    }

    /**
     * In arrival order the stream and {@code eval fid} do the same arithmetic: equal to round-off. A replaced
     * sample is taken out and put back in another order, and the distance's square roots of near-zero
     * eigenvalues magnify that: {@code relative} says how close.
     */
    static void sameAsBatch(FrechetStat live, JsonNode batch, int n, double relative) {
        assertThat(live.getSamples()).isEqualTo(n);
        assertThat(live.getDims()).isEqualTo(D);
        double expected = batch.get("fid").doubleValue();
        assertThat(live.getValue()).isCloseTo(expected, within(relative * expected));
        assertThat(live.getNormalized()).isCloseTo(batch.get("fid_normalized").doubleValue(), within(1e-9));
    }

    @Test
    void theRowsFidFollowsTheSamplesAndEqualsTheBatchValue() throws Exception {
        start(40);
        List<double[]> generated = FrechetFixtures.vectors(40, D, 2, 0.4);
        List<double[]> sent = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            publish("c1", i, generated.get(i));
            sent.add(generated.get(i));
        }
        FrechetStat six = fid("c1");
        sameAsBatch(six, FrechetFixtures.evalFid(dir, sent, referenceFile, D_MIN, D_MAX), 6, 1e-12);
        assertThat(six.getMetric()).isEqualTo("fid");
        assertThat(six.getFeature()).isEqualTo("inception");
        assertThat(six.getReferenceSamples()).isEqualTo(300L);
        assertThat(six.getDMin()).isEqualTo(D_MIN);

        // more samples than dimensions: a full-rank covariance
        for (int i = 6; i < 40; i++) {
            publish("c1", i, generated.get(i));
            sent.add(generated.get(i));
        }
        FrechetStat all = fid("c1");
        sameAsBatch(all, FrechetFixtures.evalFid(dir, sent, referenceFile, D_MIN, D_MAX), 40, 1e-12);
        assertThat(all.getValue()).isNotEqualTo(six.getValue());

        // sample 3 sent again with another vector: it replaces the old one, the count stays
        double[] replacement = FrechetFixtures.vectors(1, D, 99, 2.0).get(0);
        publish("c1", 3, replacement);
        sent.set(3, replacement);
        sameAsBatch(fid("c1"), FrechetFixtures.evalFid(dir, sent, referenceFile, D_MIN, D_MAX), 40, 1e-9);
    }

    @Test
    void aVectorOfTheWrongSizeIsADeadLetterAndTheSampleIsStillScored() throws Exception {
        start(3);
        List<double[]> generated = FrechetFixtures.vectors(2, D, 3, 0);
        publish("c2", 0, generated.get(0));
        publish("c2", 1, generated.get(1));
        publish("c2", 2, new double[D - 1]);
        FrechetStat stat = fid("c2");
        assertThat(stat.getSamples()).isEqualTo(2);
        sameAsBatch(stat, FrechetFixtures.evalFid(dir, generated, referenceFile, D_MIN, D_MAX), 2, 1e-12);
        assertThat(scorer.deadLetters()).anySatisfy(d -> {
            assertThat(d.getStage()).isEqualTo("frechet");
            assertThat(d.getReason()).contains("15 values").contains("16");
            assertThat(d.getSampleRef()).isEqualTo("run/c2/echo/s2#0");
        });
        assertThat(scorer.scores().get(new SampleKey("run", "c2", EchoTask.TASK, "s2", 0)).getStatus())
                .isEqualTo("COMPLETE");
    }
}
