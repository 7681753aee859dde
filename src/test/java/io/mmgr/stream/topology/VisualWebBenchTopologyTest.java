package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.RegistryServer;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.magma.VisualWebBench.Subtask;
import io.mmgr.stream.tasks.magma.VisualWebBenchSamples;
import io.mmgr.stream.tasks.magma.VisualWebBenchSamples.Case;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VisualWebBench through the whole scoring topology (TopologyTestDriver, real catalog and evaluators, the
 * real serdes against our registry): sample scores carry the per-sample metrics worked out by hand, and each
 * task row's means are the official columns; a dropped WebQA sample counts as scored without entering the
 * mean, and a caption the official code cannot score fails with a dead letter.
 */
class VisualWebBenchTopologyTest {

    static RegistryServer registry;

    @TempDir
    Path stateDir;

    TopologyTestDriver driver;
    Topics topics;
    TestInputTopic<byte[], byte[]> generations;
    TestOutputTopic<SampleKey, SampleScore> scores;
    TestOutputTopic<LeaderboardKey, LeaderboardRow> leaderboard;
    TestOutputTopic<byte[], DeadLetter> deadLetters;

    @BeforeAll
    static void startRegistry() throws Exception {
        registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null);
    }

    @AfterAll
    static void stopRegistry() {
        registry.close();
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    void start() {
        AvroSerdes serdes = new AvroSerdes(new SchemaRegistryClient(registry.url()), true);
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("v.");
        topics = new Topics("v.", settings.partitions(), (short) 1, serdes);
        var topology = ScoringTopology.build(settings, topics, serdes, TaskCatalog.load(), EvaluatorRegistry.load(),
                new LocalArtifactResolver(List.of(stateDir), 1 << 20, stateDir));
        driver = new TopologyTestDriver(topology,
                ScoringTopology.streamsConfig(settings, "unused:9092", registry.url(), stateDir, topics.deadLetter.name()));
        generations = driver.createInputTopic(topics.generations.name(), new ByteArraySerializer(), new ByteArraySerializer());
        scores = driver.createOutputTopic(topics.sampleScores.name(), topics.sampleScores.keySerde().deserializer(),
                topics.sampleScores.valueSerde().deserializer());
        leaderboard = driver.createOutputTopic(topics.leaderboard.name(), topics.leaderboard.keySerde().deserializer(),
                topics.leaderboard.valueSerde().deserializer());
        deadLetters = driver.createOutputTopic(topics.deadLetter.name(), new ByteArrayDeserializer(),
                topics.deadLetter.valueSerde().deserializer());
        TestInputTopic<String, io.mmgr.stream.avro.BenchmarkItem> benchmark = driver.createInputTopic(topics.benchmark.name(),
                new StringSerializer(), topics.benchmark.valueSerde().serializer());
        List<Case> all = new ArrayList<>(VisualWebBenchSamples.cases());
        all.add(VisualWebBenchSamples.failing());
        for (Case c : all) {
            benchmark.pipeInput(SampleKeys.itemKey(c.taskId(), c.sampleId()), c.item());
        }
    }

    void publish(GenerationEvent e) {
        generations.pipeInput("k".getBytes(StandardCharsets.UTF_8),
                topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e));
    }

    @Test
    void taskRowsAreTheOfficialColumns() {
        start();
        List<Case> cases = VisualWebBenchSamples.cases();
        for (Case c : cases) {
            publish(c.event("run", "ckpt-1", 1000));
        }
        publish(VisualWebBenchSamples.failing().event("run", "ckpt-1", 1000));

        Map<SampleKey, SampleScore> byKey = scores.readKeyValuesToMap();
        for (Case c : cases) {
            SampleScore s = byKey.get(new SampleKey("run", "ckpt-1", c.taskId(), c.sampleId(), 0));
            assertThat(s.getStatus()).as(c.sampleId()).isEqualTo("COMPLETE");
            c.expected().forEach((metric, v) -> assertThat(s.getMetrics()).as(c.sampleId() + " " + metric)
                    .containsEntry("visualwebbench." + metric, v));
            Double headline = c.expected().get(c.task().headline());
            assertThat(s.getPrimary()).as(c.sampleId()).isEqualTo(headline == null ? null : headline / 100);
        }
        SampleScore failed = byKey.get(new SampleKey("run", "ckpt-1", "visualwebbench-web_caption", "c3", 0));
        assertThat(failed.getStatus()).isEqualTo("FAILED");
        assertThat(failed.getErrors().get("visualwebbench")).contains("Hypothesis is empty.");
        assertThat(deadLetters.readValuesToList()).anySatisfy(d -> assertThat(d.getReason()).contains("Hypothesis is empty."));

        Map<LeaderboardKey, LeaderboardRow> rows = leaderboard.readKeyValuesToMap();
        for (Subtask task : Subtask.values()) {
            LeaderboardRow row = rows.get(new LeaderboardKey("run", "ckpt-1", "visualwebbench-" + task.id()));
            Map<String, Double> column = VisualWebBenchSamples.column(cases, task);
            column.forEach((metric, v) -> assertThat(row.getMetrics().get("visualwebbench." + metric).getMean())
                    .as(task.id() + " " + metric).isCloseTo(v, within(1e-9)));
            assertThat(row.getPrimaryRate()).as(task.id()).isCloseTo(column.get(task.headline()) / 100, within(1e-12));
        }
        LeaderboardRow webqa = rows.get(new LeaderboardKey("run", "ckpt-1", "visualwebbench-webqa"));
        assertThat(webqa.getSamplesScored()).isEqualTo(3);
        assertThat(webqa.getPrimaryCount()).as("the dropped sample has no primary").isEqualTo(2);
        assertThat(webqa.getMetrics().get("visualwebbench.f1").getCount()).isEqualTo(2);
        LeaderboardRow caption = rows.get(new LeaderboardKey("run", "ckpt-1", "visualwebbench-web_caption"));
        assertThat(caption.getSamplesFailed()).isEqualTo(1);
        assertThat(caption.getSamplesExpected()).isEqualTo(3);
    }
}
