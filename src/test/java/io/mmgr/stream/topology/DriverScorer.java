package io.mmgr.stream.topology;

import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The whole scoring topology on TopologyTestDriver with the real serdes against our registry, fed items and
 * generation events, read as sample scores, leaderboard rows and dead letters.
 */
final class DriverScorer implements AutoCloseable {

    final Topics topics;
    final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> generations;
    private final TestInputTopic<String, BenchmarkItem> benchmark;
    private final TestOutputTopic<SampleKey, SampleScore> scores;
    private final TestOutputTopic<LeaderboardKey, LeaderboardRow> leaderboard;
    private final TestOutputTopic<byte[], DeadLetter> deadLetters;
    private final EvaluationBridge evaluation;
    private int evaluationLettersRead;

    /** {@code artifactRoot}: where file: artifacts may be read from; the state goes under it too. */
    DriverScorer(RegistryServer registry, String prefix, TaskCatalog catalog, EvaluatorRegistry evaluators, Path artifactRoot) {
        AvroSerdes serdes = new AvroSerdes(new SchemaRegistryClient(registry.url()), true);
        ScorerSettings settings = ScorerSettings.defaults().withPrefix(prefix);
        topics = new Topics(prefix, settings.partitions(), (short) 1, serdes);
        var artifacts = new LocalArtifactResolver(List.of(artifactRoot), 1 << 20, artifactRoot);
        var topology = ScoringTopology.build(ScorerContext.from(settings, topics, serdes).tasks(catalog, evaluators)
                .artifacts(artifacts).rubrics(RubricCatalog.load()).build());
        driver = new TopologyTestDriver(topology, ScoringTopology.streamsConfig(settings, "unused:9092", registry.url(),
                artifactRoot.resolve("state"), topics.deadLetter.name()));
        generations = driver.createInputTopic(topics.generations.name(), new ByteArraySerializer(), new ByteArraySerializer());
        benchmark = driver.createInputTopic(topics.benchmark.name(), new StringSerializer(), topics.benchmark.valueSerde().serializer());
        scores = driver.createOutputTopic(topics.sampleScores.name(), topics.sampleScores.keySerde().deserializer(),
                topics.sampleScores.valueSerde().deserializer());
        leaderboard = driver.createOutputTopic(topics.leaderboard.name(), topics.leaderboard.keySerde().deserializer(),
                topics.leaderboard.valueSerde().deserializer());
        deadLetters = driver.createOutputTopic(topics.deadLetter.name(), new ByteArrayDeserializer(),
                topics.deadLetter.valueSerde().deserializer());
        evaluation = new EvaluationBridge(driver, topics, evaluators, artifacts);
    }

    void item(BenchmarkItem item) {
        benchmark.pipeInput(SampleKeys.itemKey(item.getTask(), item.getSampleId()), item);
    }

    void publish(GenerationEvent e) {
        generations.pipeInput("k".getBytes(StandardCharsets.UTF_8),
                topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e));
        evaluation.drain(); // the evaluation worker's part, which the driver does not run
    }

    /** Runs wall-clock punctuations (the live FID's distances). */
    void advance(Duration d) {
        driver.advanceWallClockTime(d);
    }

    /** The latest score per sample written since the last read. */
    Map<SampleKey, SampleScore> scores() {
        return scores.readKeyValuesToMap();
    }

    /** The latest row per key written since the last read. */
    Map<LeaderboardKey, LeaderboardRow> rows() {
        return leaderboard.readKeyValuesToMap();
    }

    List<DeadLetter> deadLetters() {
        // the driver's own dead letters since the last read, then every one the evaluations made
        List<DeadLetter> all = new java.util.ArrayList<>(deadLetters.readValuesToList());
        List<DeadLetter> evaluated = evaluation.deadLetters();
        all.addAll(evaluated.subList(evaluationLettersRead, evaluated.size()));
        evaluationLettersRead = evaluated.size();
        return all;
    }

    @Override
    public void close() {
        driver.close();
    }
}
