package io.mmgr.stream.topology;

import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.contract.SampleKeys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.registry.AvroSerdes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole scoring topology on TopologyTestDriver, with the real serdes (the shared {@link TopologyFixture}). */
@Tag("topology")
class ScoringTopologyTest {

    @TempDir
    Path stateDir;

    TopologyFixture fx;
    TopologyTestDriver driver;
    Topics topics;
    TestInputTopic<byte[], byte[]> generations;
    TestInputTopic<String, BenchmarkItem> benchmark;
    TestInputTopic<SampleKey, JudgeVerdict> verdicts;
    TestInputTopic<SampleKey, HumanLabel> labels;
    TestOutputTopic<SampleKey, SampleScore> scores;
    TestOutputTopic<LeaderboardKey, LeaderboardRow> leaderboard;
    TestOutputTopic<byte[], DeadLetter> deadLetters;
    TestOutputTopic<SampleKey, JudgeRequest> judgeRequests;
    AvroSerdes serdes;
    EvaluationBridge evaluation;

    void start(boolean judge) {
        // a short item wait: the missing item's letter comes after a few punctuator ticks, not five minutes of them
        fx = TopologyFixture.builder("t.", stateDir).settings(s -> s.withJudge(judge))
                .context(c -> c.itemWait(new io.mmgr.stream.topology.intake.ItemWait(java.time.Duration.ofSeconds(5), 10_000, 64L << 20)))
                .scorer();
        driver = fx.driver;
        serdes = fx.serdes;
        topics = fx.topics;
        evaluation = fx.evaluation();
        generations = fx.rawInput(topics.generations);
        benchmark = fx.input(topics.benchmark);
        verdicts = fx.input(topics.judgeVerdicts);
        labels = fx.input(topics.humanLabels);
        scores = fx.output(topics.sampleScores);
        leaderboard = fx.output(topics.leaderboard);
        deadLetters = fx.deadLetters();
        judgeRequests = fx.output(topics.judgeRequests);
    }

    @AfterEach
    void close() {
        if (fx != null) {
            fx.close();
        }
    }

    void publishItem(String task, String sample, int seeds) {
        fx.item(Fixtures.item(task, sample, seeds));
    }

    /** Publishes the event and lets the evaluation worker's part (the bridge) evaluate what intake queued. */
    void publish(GenerationEvent e) {
        fx.publish(e);
    }

    static LeaderboardKey board(String run, String checkpoint, String task) {
        return new LeaderboardKey(run, checkpoint, task);
    }

    @Test
    void scoresSamplesAndAggregatesEachCheckpoint() {
        start(false);
        publishItem("echo", "s1", 1);
        publishItem("echo", "s2", 1);
        publishItem("echo", "s3", 1);
        publish(Fixtures.event("run", "c1", 100, "echo", "s1", 0, Map.of("ok", 1.0, "quality", 0.8)));
        publish(Fixtures.event("run", "c1", 100, "echo", "s2", 0, Map.of("ok", 0.0, "quality", 0.4)));

        Map<SampleKey, SampleScore> byKey = scores.readKeyValuesToMap();
        SampleScore s1 = byKey.get(new SampleKey("run", "c1", "echo", "s1", 0));
        assertThat(s1.getStatus()).isEqualTo("COMPLETE");
        assertThat(s1.getPrimary()).isEqualTo(1.0);
        assertThat(s1.getMetrics()).containsEntry("echo.ok", 1.0).containsEntry("echo.quality", 0.8);
        assertThat(s1.getPartsUsed()).containsExactly("echo@echo@1");
        SampleScore s2 = byKey.get(new SampleKey("run", "c1", "echo", "s2", 0));
        assertThat(s2.getPrimary()).isEqualTo(0.0);
        assertThat(s2.getFailedChecks()).containsExactly("echo.ok=1");

        Map<LeaderboardKey, LeaderboardRow> rows = leaderboard.readKeyValuesToMap();
        LeaderboardRow task = rows.get(board("run", "c1", "echo"));
        assertThat(task.getSamplesScored()).isEqualTo(2);
        assertThat(task.getSamplesExpected()).isEqualTo(3);
        assertThat(task.getPrimaryRate()).isEqualTo(0.5);
        // Wilson 95% for 1 of 2, worked by hand: centre (0.5 + z²/4) / (1 + z²/2), half z·sqrt(0.125 + z²/16) / (1 + z²/2)
        double z = 1.959963984540054;
        double denom = 1 + z * z / 2;
        assertThat(task.getPrimaryCiLow()).isCloseTo((0.5 + z * z / 4) / denom - z * Math.sqrt(0.125 + z * z / 16) / denom, within(1e-12));
        assertThat(task.getPrimaryCiHigh()).isCloseTo((0.5 + z * z / 4) / denom + z * Math.sqrt(0.125 + z * z / 16) / denom, within(1e-12));
        assertThat(task.getMetrics().get("echo.quality").getMean()).isCloseTo(0.6, within(1e-12));
        assertThat(task.getMetrics().get("gate.overall_cv").getMean()).isEqualTo(0.5);
        assertThat(task.getPassAtK()).isEmpty();
        LeaderboardRow all = rows.get(board("run", "c1", SampleKeys.ALL_TASKS));
        assertThat(all.getSamplesScored()).isEqualTo(2);
        assertThat(all.getSamplesExpected()).isEqualTo(3);
        assertThat(all.getTaskPrimaryRates().get("echo").getMean()).isEqualTo(0.5);
        assertThat(all.getTrainingStep()).isEqualTo(100);
        assertThat(all.getModel()).isEqualTo("model-x");
    }

    @Test
    void aResentSampleReplacesItsContribution() {
        start(false);
        publishItem("echo", "s1", 1);
        publishItem("echo", "s2", 1);
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("ok", 0.0)));
        publish(Fixtures.event("run", "c1", 1, "echo", "s2", 0, Map.of("ok", 0.0)));
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("ok", 1.0)));

        Map<LeaderboardKey, LeaderboardRow> rows = leaderboard.readKeyValuesToMap();
        LeaderboardRow row = rows.get(board("run", "c1", "echo"));
        assertThat(row.getSamplesScored()).isEqualTo(2);
        assertThat(row.getPrimarySuccesses()).isEqualTo(1);
        assertThat(row.getPrimaryRate()).isEqualTo(0.5);
        LeaderboardRow all = rows.get(board("run", "c1", SampleKeys.ALL_TASKS));
        assertThat(all.getSamplesScored()).isEqualTo(2);
    }

    @Test
    void anIdenticalDuplicateDoesNotChangeAnything() {
        start(false);
        publishItem("echo", "s1", 1);
        GenerationEvent e = Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("ok", 1.0));
        publish(e);
        assertThat(scores.readValuesToList()).hasSize(1);
        publish(e);
        assertThat(scores.readValuesToList()).isEmpty();
        assertThat(leaderboard.readKeyValuesToMap().get(board("run", "c1", "echo")).getSamplesScored()).isEqualTo(1);
    }

    @Test
    void unusableRecordsGoToTheDeadLetterTopicWithTheirReasonAndValidOnesKeepFlowing() {
        start(false);
        publishItem("echo", "s1", 1);
        publishItem("echo", "s2", 1);
        byte[] garbage = "{\"not\": \"avro\"}".getBytes(StandardCharsets.UTF_8);
        generations.pipeInput("bad".getBytes(StandardCharsets.UTF_8), garbage);
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("ok", 1.0)));
        publish(Fixtures.event("run", "c1", 1, "nope", "s1", 0, Map.of("ok", 1.0)));
        publish(Fixtures.event("run", "c1", 1, "echo", "missing", 0, Map.of("ok", 1.0)));
        publish(Fixtures.event("run", "c1", 1, "echo", "s2", 0, null));
        publish(Fixtures.event("", "c1", 1, "echo", "s2", 0, Map.of("ok", 1.0)));
        publish(Fixtures.event("run", "c1", 1, "echo", "s2", 0, Map.of("ok", 1.0)));

        List<DeadLetter> letters = deadLetters.readValuesToList();
        assertThat(letters).hasSize(4);
        assertThat(letters).allSatisfy(l -> assertThat(l.getStage()).isEqualTo("intake"));
        assertThat(letters.get(0).getReason()).startsWith("not a readable GenerationEvent");
        assertThat(bytes(letters.get(0).getOriginalValue())).isEqualTo(garbage);
        assertThat(letters.get(0).getSourceTopic()).isEqualTo("t.generations");
        assertThat(letters.get(0).getSourceOffset()).isZero();
        assertThat(letters.get(1).getReason()).startsWith("unknown task 'nope'").contains("echo");
        assertThat(letters.get(1).getSampleRef()).isEqualTo("run/c1/nope/s1#0");
        assertThat(letters.get(2).getReason()).isEqualTo("echo: inputs.values is missing");
        assertThat(letters.get(3).getReason()).isEqualTo("field runId is empty");
        assertThat(letters.get(3).getSourceOffset()).isEqualTo(5);
        // the event without its item waits for it (5 s of running time here: the punctuator's 250 ms ticks, as a
        // running scorer has them; one jump of the clock would be a stall, which does not count)
        for (int tick = 0; tick < 24; tick++) {
            driver.advanceWallClockTime(java.time.Duration.ofMillis(250));
        }
        DeadLetter noItem = deadLetters.readValue();
        assertThat(noItem.getReason()).contains("no benchmark item for task 'echo', sample 'missing' after waiting 5 s");
        assertThat(noItem.getSourceOffset()).isEqualTo(3);

        Map<SampleKey, SampleScore> byKey = scores.readKeyValuesToMap();
        assertThat(byKey).containsOnlyKeys(new SampleKey("run", "c1", "echo", "s1", 0), new SampleKey("run", "c1", "echo", "s2", 0));
    }

    /** An image evaluation (the echo task's {@code cost} 1), failed in the evaluation worker. */
    @Test
    void aFailedEvaluationShowsOnTheScoreAndInTheDeadLetterTopic() {
        start(false);
        publishItem("echo", "s1", 1);
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("fail", 1.0, "cost", 1.0)));
        SampleScore s = scores.readValue();
        assertThat(s.getStatus()).isEqualTo("FAILED");
        assertThat(s.getErrors()).containsEntry("echo", "asked to fail");
        assertThat(s.getPrimary()).isNull();
        assertThat(s.getMissingChecks()).containsExactly("echo.ok=1");
        assertThat(deadLetters.isEmpty()).as("intake accepted it").isTrue();
        DeadLetter letter = evaluation.deadLetters().get(0);
        assertThat(letter.getStage()).isEqualTo("evaluate:echo");
        assertThat(letter.getReason()).isEqualTo("asked to fail");
        assertThat(letter.getSampleRef()).isEqualTo("run/c1/echo/s1#0");
        LeaderboardRow row = leaderboard.readKeyValuesToMap().get(board("run", "c1", "echo"));
        assertThat(row.getSamplesFailed()).isEqualTo(1);
        assertThat(row.getPrimaryRate()).isNull();
    }

    /** Image evaluations (the echo task's {@code cost} 1), which the worker writes. */
    @Test
    void resultsReplayedAfterAWorkerCrashAddNoSecondScoreRecord() {
        start(false);
        publishItem("echo", "s1", 1);
        publishItem("echo", "s2", 1);
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("ok", 1.0, "quality", 0.5, "cost", 1.0)));
        publish(Fixtures.event("run", "c1", 1, "echo", "s2", 0, Map.of("fail", 1.0, "cost", 1.0)));
        assertThat(scores.readValuesToList()).hasSize(2);
        assertThat(leaderboard.readKeyValuesToMap().get(board("run", "c1", "echo")).getSamplesScored()).isEqualTo(2);

        // the worker wrote both results, then crashed before its offsets moved: both are evaluated and written again
        assertThat(evaluation.replayAll()).isEqualTo(2);
        assertThat(scores.isEmpty()).as("no second score record for a replayed part").isTrue();
        assertThat(leaderboard.isEmpty()).as("and no leaderboard change").isTrue();
    }

    /** Nothing written to the three evaluation queues and to cv-results, by intake or by the worker's stand-in. */
    void assertNoEvaluationTraffic() {
        for (io.mmgr.stream.contract.CostClass c : io.mmgr.stream.contract.CostClass.values()) {
            assertThat(fx.output(topics.evaluationRequests(c)).isEmpty()).as("%s evaluation requests", c.label()).isTrue();
        }
        assertThat(fx.output(topics.cvResults).isEmpty()).as("cv-results").isTrue();
    }

    @Test
    void aLightSampleIsScoredWithoutAnEvaluationRequestOrACvResult() {
        start(false);
        publishItem("echo", "s1", 1);
        fx.send(Fixtures.event("run", "c1", 100, "echo", "s1", 0, Map.of("ok", 1.0, "quality", 0.8)));

        SampleScore s = scores.readValue();
        assertThat(s.getStatus()).as("scored as its plan arrived").isEqualTo("COMPLETE");
        assertThat(s.getPrimary()).isEqualTo(1.0);
        assertThat(s.getMetrics()).containsEntry("echo.ok", 1.0).containsEntry("echo.quality", 0.8);
        assertThat(s.getPartsUsed()).containsExactly("echo@echo@1");
        assertNoEvaluationTraffic();
        assertThat(evaluation.drain()).as("nothing for the worker").isZero();
        assertThat(deadLetters.isEmpty()).isTrue();
        assertThat(leaderboard.readKeyValuesToMap().get(board("run", "c1", "echo")).getSamplesScored()).isEqualTo(1);
    }

    @Test
    void aFailedLightEvaluationIsAFailedPartAndADeadLetterFromIntakeAndTheStreamGoesOn() {
        start(false);
        publishItem("echo", "s1", 1);
        publishItem("echo", "s2", 1);
        fx.send(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("fail", 1.0)));
        fx.send(Fixtures.event("run", "c1", 1, "echo", "s2", 0, Map.of("ok", 1.0)));

        Map<SampleKey, SampleScore> byKey = scores.readKeyValuesToMap();
        SampleScore failed = byKey.get(new SampleKey("run", "c1", "echo", "s1", 0));
        assertThat(failed.getStatus()).isEqualTo("FAILED");
        assertThat(failed.getErrors()).containsEntry("echo", "asked to fail");
        assertThat(failed.getPrimary()).isNull();
        assertThat(failed.getMissingChecks()).containsExactly("echo.ok=1");
        assertThat(byKey.get(new SampleKey("run", "c1", "echo", "s2", 0)).getPrimary()).as("the next sample is scored").isEqualTo(1.0);

        DeadLetter letter = deadLetters.readValue();
        assertThat(deadLetters.isEmpty()).as("one letter").isTrue();
        assertThat(letter.getStage()).isEqualTo("evaluate:echo");
        assertThat(letter.getReason()).isEqualTo("asked to fail");
        assertThat(letter.getSampleRef()).isEqualTo("run/c1/echo/s1#0");
        assertThat(letter.getSourceTopic()).as("it quotes the generation event").isEqualTo("t.generations");
        assertThat(letter.getSourceOffset()).isZero();
        assertThat(bytes(letter.getOriginalValue()))
                .isEqualTo(fx.eventBytes(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("fail", 1.0))));
        assertNoEvaluationTraffic();
        assertThat(evaluation.deadLetters()).as("no worker involved").isEmpty();
        LeaderboardRow row = leaderboard.readKeyValuesToMap().get(board("run", "c1", "echo"));
        assertThat(row.getSamplesFailed()).isEqualTo(1);
        assertThat(row.getSamplesScored()).isEqualTo(2);
    }

    @Test
    void anImageSampleStillGoesThroughTheWorker() {
        start(false);
        publishItem("echo", "s1", 1);
        fx.send(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("ok", 1.0, "cost", 1.0)));
        assertThat(scores.isEmpty()).as("waiting for the worker's result").isTrue();

        assertThat(evaluation.drain()).isEqualTo(1);
        assertThat(evaluation.evaluated(io.mmgr.stream.contract.CostClass.IMAGE)).as("from the image queue").isEqualTo(1);
        SampleScore s = scores.readValue();
        assertThat(s.getStatus()).isEqualTo("COMPLETE");
        assertThat(s.getPrimary()).isEqualTo(1.0);
        assertThat(s.getPartsUsed()).containsExactly("echo@echo@1");
    }

    @Test
    void withoutAJudgeAJudgedTaskGetsItsDeterministicPartsAndSaysWhatIsMissing() {
        start(false);
        publishItem("echo-judged", "s1", 1);
        publish(Fixtures.event("run", "c1", 1, "echo-judged", "s1", 0, Map.of("ok", 1.0)));
        SampleScore s = scores.readValue();
        assertThat(s.getStatus()).isEqualTo("PARTIAL");
        assertThat(s.getPending()).containsEntry("judge", "no judge configured");
        assertThat(s.getMetrics()).containsEntry("echo.ok", 1.0);
        assertThat(s.getPrimary()).isNull();
        assertThat(s.getMissingChecks()).containsExactly("judge.agree=1");
        assertThat(judgeRequests.isEmpty()).isTrue();
        LeaderboardRow row = leaderboard.readKeyValuesToMap().get(board("run", "c1", "echo-judged"));
        assertThat(row.getSamplesPartial()).isEqualTo(1);
    }

    @Test
    void withAJudgeTheScoreWaitsForTheVerdictShowsPendingAndIsReplacedByALaterVerdict() {
        start(true);
        publishItem("echo-judged", "s1", 1);
        publish(Fixtures.event("run", "c1", 1, "echo-judged", "s1", 0, Map.of("ok", 1.0)));
        assertThat(scores.isEmpty()).isTrue();
        var request = judgeRequests.readKeyValue();
        SampleKey key = request.key;
        assertThat(key).isEqualTo(new SampleKey("run", "c1", "echo-judged", "s1", 0));
        assertThat(request.value.getRubric()).isEqualTo("echo");
        String gen = request.value.getGenerationId();

        verdicts.pipeInput(key, Fixtures.verdict(request.value.getRequestId(), gen, "PENDING", "1", Map.of()));
        SampleScore pending = scores.readValue();
        assertThat(pending.getStatus()).isEqualTo("PENDING");
        assertThat(pending.getPending()).containsEntry("judge", "circuit open: judge unavailable");

        verdicts.pipeInput(key, Fixtures.verdict(request.value.getRequestId(), gen, "VALID", "1", Map.of("agree", 1.0)));
        SampleScore done = scores.readValue();
        assertThat(done.getStatus()).isEqualTo("COMPLETE");
        assertThat(done.getPrimary()).isEqualTo(1.0);
        assertThat(done.getPartsUsed()).containsExactlyInAnyOrder("echo@echo@1", "judge@echo@1 by judge-model");

        verdicts.pipeInput(key, Fixtures.verdict(request.value.getRequestId(), gen, "VALID", "2", Map.of("agree", 0.0)));
        SampleScore rejudged = scores.readValue();
        assertThat(rejudged.getPrimary()).isEqualTo(0.0);
        assertThat(rejudged.getFailedChecks()).containsExactly("judge.agree=1");

        LeaderboardRow row = leaderboard.readKeyValuesToMap().get(board("run", "c1", "echo-judged"));
        assertThat(row.getSamplesScored()).isEqualTo(1);
        assertThat(row.getSamplesPending()).isZero();
        assertThat(row.getPrimaryRate()).isEqualTo(0.0);

        // a verdict for an older generation of the sample is ignored
        verdicts.pipeInput(key, Fixtures.verdict("old", "0000", "VALID", "3", Map.of("agree", 1.0)));
        assertThat(scores.isEmpty()).isTrue();
    }

    /**
     * Inputs at their limits (identifiers of 256 bytes, an event and an item just under 256 KiB, 16
     * annotators' labels of 16 KiB each, a verdict) give derived records that all fit Kafka's default
     * 1 MiB record with the writers' headroom: the evaluation and judge requests, every score, the
     * assembly state (the changelog's record) and the leaderboard rows.
     */
    @Test
    void inputsAtTheirLimitsGiveRecordsThatFitTheDefaultRecordLimit() {
        start(true);
        io.mmgr.stream.limits.InputLimits limits = io.mmgr.stream.limits.InputLimits.DEFAULTS;
        String id = "i".repeat(limits.idBytes());
        java.util.Map<String, String> attributes = new java.util.HashMap<>();
        for (int i = 0; i < 20; i++) {
            attributes.put(id.substring(3) + i, "a".repeat(limits.attributeBytes()));
        }
        java.util.List<io.mmgr.stream.avro.ArtifactRef> artifacts = new java.util.ArrayList<>();
        for (int i = 0; i < 36; i++) {
            artifacts.add(io.mmgr.stream.avro.ArtifactRef.newBuilder().setRole(id).setMediaType(id)
                    .setUri("file:///" + i + "/" + "u".repeat(limits.uriBytes() - 16)).build());
        }
        GenerationEvent e = GenerationEvent.newBuilder(Fixtures.event(id, id, 1, "echo-judged", id, 0, Map.of("ok", 1.0)))
                .setModel(id).setEventId(id).setArtifacts(artifacts).setAttributes(attributes).build();
        BenchmarkItem item = BenchmarkItem.newBuilder(Fixtures.item("echo-judged", id, 1)).setPrompt("p".repeat(limits.textBytes()))
                .setAttributes(attributes).setGroundTruth(io.mmgr.stream.avro.GroundTruth.newBuilder()
                        .setContext("c".repeat(limits.textBytes())).setAnswer("a".repeat(limits.textBytes() - (32 << 10))).build()).build();
        io.mmgr.stream.limits.InputCheck check = new io.mmgr.stream.limits.InputCheck(limits);
        byte[] eventBytes = topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e);
        byte[] itemBytes = topics.benchmark.valueSerde().serializer().serialize(topics.benchmark.name(), item);
        assertThat(eventBytes.length).isBetween(limits.eventBytes() - (16 << 10), limits.eventBytes());
        assertThat(itemBytes.length).isBetween(limits.itemBytes() - (16 << 10), limits.itemBytes());
        assertThat(check.check(e)).isEmpty();
        assertThat(check.check(item)).isEmpty();

        benchmark.pipeInput(SampleKeys.itemKey("echo-judged", id), item);
        generations.pipeInput("k".getBytes(StandardCharsets.UTF_8), eventBytes);
        evaluation.drain();
        assertThat(deadLetters.isEmpty()).as("no dead letter for within-limits inputs").isTrue();
        var request = judgeRequests.readKeyValue();
        SampleKey key = request.key;
        long fits = 1_048_588 - io.mmgr.stream.topology.RecordCaps.HEADROOM;
        long judgeBytes = topics.judgeRequests.valueSerde().serializer().serialize(topics.judgeRequests.name(), request.value).length;
        assertThat(judgeBytes).as("the judge request").isBetween(480L << 10, fits);

        for (int a = 0; a < limits.labelsPerSample(); a++) {
            java.util.Map<String, Double> metrics = new java.util.HashMap<>();
            for (int m = 0; m < limits.labelMetrics(); m++) {
                metrics.put(("m" + m + "-").repeat(100).substring(0, limits.idBytes()), 1.0);
            }
            String annotator = (a + "-").repeat(200).substring(0, limits.idBytes());
            HumanLabel label = new HumanLabel(annotator, metrics, "n".repeat(7_000), Instant.now());
            int size = topics.humanLabels.valueSerde().serializer().serialize(topics.humanLabels.name(), label).length;
            assertThat(size).isBetween(limits.labelBytes() - (2 << 10), limits.labelBytes());
            labels.pipeInput(key, label);
        }
        verdicts.pipeInput(key, Fixtures.verdict(request.value.getRequestId(), request.value.getGenerationId(), "VALID", "1",
                Map.of("agree", 1.0)));
        assertThat(deadLetters.isEmpty()).as("no dead letter for within-limits labels").isTrue();
        long largestScore = 0;
        SampleScore last = null;
        for (SampleScore s : scores.readValuesToList()) {
            largestScore = Math.max(largestScore, topics.sampleScores.valueSerde().serializer().serialize(topics.sampleScores.name(), s).length);
            last = s;
        }
        assertThat(last.getMetrics().keySet().stream().filter(k -> k.startsWith("human:")).count())
                .isEqualTo((long) limits.labelsPerSample() * limits.labelMetrics());
        assertThat(largestScore).as("the largest score").isBetween(300L << 10, fits);
        var state = driver.<SampleKey, io.mmgr.stream.avro.AssemblyState>getKeyValueStore(
                fx.stores.assembly.name()).get(key);
        long stateBytes = serdes.forValues(io.mmgr.stream.avro.AssemblyState.class).serializer().serialize("t-changelog", state).length;
        assertThat(stateBytes).as("the assembly state").isBetween(400L << 10, fits);
        System.out.printf("inputs at their limits: event %d, item %d bytes -> judge request %d, largest score %d, assembly state %d "
                + "(bound %d, fits %d)%n", eventBytes.length, itemBytes.length, judgeBytes, largestScore, stateBytes,
                limits.worstCaseDerivedBytes(), fits);
        assertThat(Math.max(stateBytes, judgeBytes)).isLessThanOrEqualTo(limits.worstCaseDerivedBytes());
        for (LeaderboardRow row : leaderboard.readValuesToList()) {
            assertThat(topics.leaderboard.valueSerde().serializer().serialize(topics.leaderboard.name(), row).length).isLessThan((int) fits);
        }
    }

    @Test
    void seedsOfOneItemGivePassAtK() {
        start(false);
        publishItem("echo", "s1", 3);
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("ok", 1.0)));
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 1, Map.of("ok", 0.0)));
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 2, Map.of("ok", 0.0)));
        LeaderboardRow row = leaderboard.readKeyValuesToMap().get(board("run", "c1", "echo"));
        assertThat(row.getSamplesExpected()).isEqualTo(3);
        assertThat(row.getSamplesScored()).isEqualTo(3);
        // n=3, c=1: pass@1 = 1/3, pass@2 = 1 - C(2,2)/C(3,2) = 2/3, pass@3 = 1
        assertThat(row.getPassAtK().get("pass@1").getMean()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(row.getPassAtK().get("pass@2").getMean()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(row.getPassAtK().get("pass@3").getMean()).isCloseTo(1.0, within(1e-12));
        assertThat(row.getPassAtK()).doesNotContainKey("pass@4");
    }

    @Test
    void aHumanLabelIsCarriedOnTheScoreWithoutChangingItsGate() {
        start(false);
        publishItem("echo", "s1", 1);
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("ok", 1.0)));
        assertThat(scores.readValue().getPrimary()).isEqualTo(1.0);
        labels.pipeInput(new SampleKey("run", "c1", "echo", "s1", 0),
                HumanLabel.newBuilder().setAnnotator("ann1").setMetrics(Map.of("ok", 0.0)).setLabeledAt(Instant.now()).build());
        SampleScore labelled = scores.readValue();
        assertThat(labelled.getMetrics()).containsEntry("human:ann1.ok", 0.0);
        assertThat(labelled.getPrimary()).isEqualTo(1.0);
    }

    private static byte[] bytes(java.nio.ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
