package io.mmgr.stream.topology;

import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The whole scoring topology on TopologyTestDriver ({@link TopologyFixture}), fed items and
 * generation events, read as sample scores, leaderboard rows and dead letters.
 */
final class DriverScorer implements AutoCloseable {

    final Topics topics;
    final TopologyTestDriver driver;
    private final TopologyFixture fx;
    private final TestOutputTopic<SampleKey, SampleScore> scores;
    private final TestOutputTopic<LeaderboardKey, LeaderboardRow> leaderboard;
    private final TestOutputTopic<byte[], DeadLetter> deadLetters;
    private final EvaluationBridge evaluation;
    private int evaluationLettersRead;

    /** {@code artifactRoot}: where file: artifacts may be read from; the state goes under it too. */
    DriverScorer(String prefix, TaskCatalog catalog, EvaluatorRegistry evaluators, Path artifactRoot) {
        fx = TopologyFixture.builder(prefix, artifactRoot).context(c -> c.tasks(catalog, evaluators)).scorer();
        topics = fx.topics;
        driver = fx.driver;
        scores = fx.output(topics.sampleScores);
        leaderboard = fx.output(topics.leaderboard);
        deadLetters = fx.deadLetters();
        evaluation = fx.evaluation();
    }

    void item(BenchmarkItem item) {
        fx.item(item);
    }

    /** Publishes the event and runs the evaluation worker's part, which the driver does not run. */
    void publish(GenerationEvent e) {
        fx.publish(e);
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
        fx.close();
    }
}
