package io.mmgr.stream.topology.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.topology.EchoTask;
import io.mmgr.stream.topology.Fixtures;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.topology.intake.IntakeTopology;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Assembly on its own ({@link AssemblyTopology#build} called directly): plans come from a test topic as
 * intake would send them (with the results of light evaluations on them, or without), deterministic results,
 * verdicts and labels from their topics; the echo task's gate (echo.ok = 1, and judge.agree = 1 for the
 * judged variant) decides the primary, so every expected score is known here.
 */
@Tag("topology")
class AssemblyTopologyTest {

    static final SampleKey KEY = new SampleKey("run", "c1", EchoTask.TASK, "s1", 0);

    @TempDir
    Path dir;

    TopologyFixture fx;
    TestInputTopic<SampleKey, SamplePlan> plans;
    TestInputTopic<SampleKey, DeterministicResult> results;
    TestInputTopic<SampleKey, HumanLabel> labels;
    TestInputTopic<SampleKey, JudgeVerdict> verdicts;
    TestOutputTopic<SampleKey, SampleScore> scores;

    /** Intake's plans, as a topic of this test. */
    static Topic<SampleKey, SamplePlan> planTopic(ScorerContext ctx) {
        return new Topic<>("t.test-plans", ctx.serdes().forKeys(SampleKey.class), ctx.serdes().forValues(SamplePlan.class));
    }

    @BeforeEach
    void start() {
        fx = TopologyFixture.builder("t.", dir).subFlows((builder, ctx) -> {
            Topic<SampleKey, SamplePlan> t = planTopic(ctx);
            AssemblyTopology.build(builder, ctx.assemblyDeps(), builder.stream(t.name(), t.consumed("test-plans-source")),
                    (b, assembly) -> IntakeTopology.labels(b, ctx.intakeDeps(), assembly));
        });
        plans = fx.input(planTopic(fx.context));
        results = fx.input(fx.topics.cvResults);
        labels = fx.input(fx.topics.humanLabels);
        verdicts = fx.input(fx.topics.judgeVerdicts);
        scores = fx.output(fx.topics.sampleScores);
    }

    @AfterEach
    void close() {
        fx.close();
    }

    static SamplePlan plan(String generation) {
        return SamplePlan.newBuilder().setGenerationId(generation).setModel("m").setTrainingStep(100).setModality("ui")
                .setProducedAt(Instant.ofEpochMilli(1_700_000_000_000L)).setPlannedParts(List.of(EchoTask.EVALUATOR)).build();
    }

    static DeterministicResult echo(String generation, double ok) {
        return DeterministicResult.newBuilder().setGenerationId(generation).setEvaluator(EchoTask.EVALUATOR)
                .setEvaluatorVersion("1").setMetrics(new HashMap<>(Map.of("ok", ok)))
                .setEvaluatedAt(Instant.ofEpochMilli(1_700_000_002_000L)).build();
    }

    @Test
    void aPartBeforeItsPlanWaitsAndTheScoreFollowsTheLatestPartOfTheCurrentGeneration() {
        results.pipeInput(KEY, echo("g1", 1));
        assertThat(scores.isEmpty()).as("no plan yet: nothing to score").isTrue();

        plans.pipeInput(KEY, plan("g1"));
        SampleScore first = scores.readValue();
        assertThat(first.getStatus()).isEqualTo("COMPLETE");
        assertThat(first.getGenerationId()).isEqualTo("g1");
        assertThat(first.getPrimary()).isEqualTo(1.0);
        assertThat(first.getMetrics()).containsEntry("echo.ok", 1.0);
        assertThat(first.getPartsUsed()).containsExactly("echo@echo@1");
        assertThat(first.getTrainingStep()).isEqualTo(100);

        results.pipeInput(KEY, echo("g0", 0));
        assertThat(scores.isEmpty()).as("a part of another generation changes nothing").isTrue();

        results.pipeInput(KEY, echo("g1", 0));
        SampleScore replaced = scores.readValue();
        assertThat(replaced.getPrimary()).as("the replaced part decides").isEqualTo(0.0);
        assertThat(replaced.getFailedChecks()).containsExactly("echo.ok=1");

        AssemblyState state = fx.store(fx.stores.assembly).get(KEY);
        assertThat(state.getPlan().getGenerationId()).isEqualTo("g1");
    }

    /** A plan as intake sends it for a light sample: its parts evaluated and carried on it. */
    static SamplePlan carrying(String generation, List<String> planned, DeterministicResult... results) {
        SamplePlan p = plan(generation);
        p.setPlannedParts(planned);
        p.setResults(List.of(results));
        return p;
    }

    /** The assembly store's changelog records of a sample so far: one per store write. */
    long storeWrites(SampleKey key) {
        String changelog = org.apache.kafka.streams.processor.internals.ProcessorStateManager.storeChangelogTopic(
                fx.settings.applicationId(), fx.stores.assembly.name(), null);
        return fx.output(new Topic<>(changelog, fx.stores.assembly.keySerde(), fx.stores.assembly.valueSerde()))
                .readKeyValuesToList().stream().filter(kv -> kv.key.equals(key)).count();
    }

    @Test
    void aPlanCarryingItsResultsIsScoredAtOnceInOneStoreWrite() {
        plans.pipeInput(KEY, carrying("g1", List.of(EchoTask.EVALUATOR), echo("g1", 1)));
        SampleScore score = scores.readValue();
        assertThat(score.getStatus()).isEqualTo("COMPLETE");
        assertThat(score.getGenerationId()).isEqualTo("g1");
        assertThat(score.getPrimary()).isEqualTo(1.0);
        assertThat(score.getMetrics()).containsEntry("echo.ok", 1.0);
        assertThat(score.getPartsUsed()).containsExactly("echo@echo@1");
        assertThat(storeWrites(KEY)).as("the plan and its parts in one write").isEqualTo(1);
        AssemblyState state = fx.store(fx.stores.assembly).get(KEY);
        assertThat(state.getPlan().getResults()).as("kept once, as parts, not on the plan too").isEmpty();
        assertThat(state.getParts()).containsOnlyKeys(EchoTask.EVALUATOR + "|g1");

        results.pipeInput(KEY, echo("g0", 0));
        assertThat(scores.isEmpty()).as("a result of another generation changes nothing").isTrue();
        assertThat(fx.store(fx.stores.assembly).get(KEY).getParts()).as("it is kept aside, not applied")
                .containsOnlyKeys(EchoTask.EVALUATOR + "|g1", EchoTask.EVALUATOR + "|g0");

        // the same generation's plan again (a duplicate event): the same score, not emitted twice
        plans.pipeInput(KEY, carrying("g1", List.of(EchoTask.EVALUATOR), echo("g1", 1)));
        assertThat(scores.isEmpty()).isTrue();
    }

    @Test
    void aResentGenerationCarryingItsResultsReplacesTheOldOnesParts() {
        plans.pipeInput(KEY, carrying("g1", List.of(EchoTask.EVALUATOR), echo("g1", 1)));
        assertThat(scores.readValue().getPrimary()).isEqualTo(1.0);

        plans.pipeInput(KEY, carrying("g2", List.of(EchoTask.EVALUATOR), echo("g2", 0)));
        SampleScore resent = scores.readValue();
        assertThat(resent.getGenerationId()).isEqualTo("g2");
        assertThat(resent.getPrimary()).isEqualTo(0.0);
        assertThat(resent.getFailedChecks()).containsExactly("echo.ok=1");
        assertThat(fx.store(fx.stores.assembly).get(KEY).getParts()).as("g1's part is gone")
                .containsOnlyKeys(EchoTask.EVALUATOR + "|g2");

        // a late worker result for the old generation changes nothing
        results.pipeInput(KEY, echo("g1", 1));
        assertThat(scores.isEmpty()).isTrue();
    }

    @Test
    void aPlanCarryingResultsWaitsForItsJudgeVerdictAndALaterVerdictCompletesIt() {
        SampleKey key = new SampleKey("run", "c1", EchoTask.JUDGED_TASK, "s1", 0);
        List<String> planned = List.of(EchoTask.EVALUATOR, "judge");
        plans.pipeInput(key, carrying("g1", planned, echo("g1", 1)));
        assertThat(scores.isEmpty()).as("the judge's part is still to come").isTrue();

        verdicts.pipeInput(key, Fixtures.verdict("r0", "g0", "VALID", "1", Map.of("agree", 1.0)));
        assertThat(scores.isEmpty()).as("a verdict for another generation is ignored").isTrue();

        verdicts.pipeInput(key, Fixtures.verdict("r1", "g1", "VALID", "1", Map.of("agree", 1.0)));
        SampleScore done = scores.readValue();
        assertThat(done.getStatus()).isEqualTo("COMPLETE");
        assertThat(done.getGenerationId()).isEqualTo("g1");
        assertThat(done.getPrimary()).isEqualTo(1.0);
        assertThat(done.getMetrics()).containsEntry("echo.ok", 1.0).containsEntry("judge.agree", 1.0);
        assertThat(done.getPartsUsed()).containsExactlyInAnyOrder("echo@echo@1", "judge@echo@1 by judge-model");

        // a re-sent generation: its own carried part, and it waits for its own verdict (g1's no longer counts)
        plans.pipeInput(key, carrying("g2", planned, echo("g2", 0)));
        assertThat(scores.isEmpty()).isTrue();
        verdicts.pipeInput(key, Fixtures.verdict("r2", "g2", "VALID", "1", Map.of("agree", 1.0)));
        SampleScore resent = scores.readValue();
        assertThat(resent.getGenerationId()).isEqualTo("g2");
        assertThat(resent.getPrimary()).isEqualTo(0.0);
        assertThat(resent.getFailedChecks()).containsExactly("echo.ok=1");
    }

    @Test
    void aHumanLabelIsCheckedAndAddedToTheScore() {
        plans.pipeInput(KEY, plan("g1"));
        results.pipeInput(KEY, echo("g1", 1));
        scores.readValuesToList();

        labels.pipeInput(KEY, HumanLabel.newBuilder().setAnnotator("ann-1").setMetrics(Map.of("agree", 1.0))
                .setLabeledAt(Instant.ofEpochMilli(1_700_000_003_000L)).build());
        SampleScore labelled = scores.readValue();
        assertThat(labelled.getMetrics().keySet()).as("the annotator's metrics join the score")
                .anyMatch(k -> k.startsWith("human:ann-1"));
        assertThat(labelled.getPrimary()).as("a label does not change the echo gate").isEqualTo(1.0);
        assertThat(fx.deadLetters().isEmpty()).isTrue();
    }
}
