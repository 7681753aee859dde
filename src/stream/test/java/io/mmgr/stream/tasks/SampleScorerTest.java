package io.mmgr.stream.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.contract.SampleStatus;
import io.mmgr.stream.topology.EchoTask;
import io.mmgr.stream.topology.Fixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline scorer's rules on the echo task, whose evaluator reports the event's values (so each
 * test decides the metrics): intake's rejections, the plan's unavailable parts, failures, the gate.
 */
@Tag("unit")
class SampleScorerTest {

    @TempDir
    Path dir;

    final SampleScorer scorer = new SampleScorer(EchoTask.catalog(), EchoTask.evaluators());

    private SampleScorer.Result score(String task, Map<String, Double> values) {
        GenerationEvent event = Fixtures.event("run", "c1", 1, task, "s1", 0, values);
        BenchmarkItem item = Fixtures.item(task, "s1", 1);
        return scorer.score(event, item, new LocalArtifactResolver(List.of(dir), 1 << 20, dir));
    }

    @Test
    void aPassingSampleIsCompleteWithItsPartMetricsAndTheGatesPrimary() {
        SampleScorer.Result r = score(EchoTask.TASK, Map.of("ok", 1.0, "quality", 0.7));
        assertThat(r.rejected()).isFalse();
        assertThat(r.sample().status()).isEqualTo(SampleStatus.COMPLETE);
        assertThat(r.sample().metrics()).containsExactlyInAnyOrderEntriesOf(Map.of("echo.ok", 1.0, "echo.quality", 0.7));
        assertThat(r.sample().gate().primary()).isEqualTo(1.0);
        assertThat(r.sample().gate().primarySource()).isEqualTo("cv");
        assertThat(r.sample().used()).containsExactly("echo@echo@1");
        assertThat(r.unavailable()).isEmpty();
    }

    @Test
    void aFailedCheckScoresZeroAndNamesTheCheck() {
        SampleScorer.Result r = score(EchoTask.TASK, Map.of("ok", 0.0));
        assertThat(r.sample().status()).isEqualTo(SampleStatus.COMPLETE);
        assertThat(r.sample().gate().primary()).isEqualTo(0.0);
        assertThat(r.sample().gate().failedChecks()).containsExactly("echo.ok=1");
    }

    @Test
    void anEvaluatorsFailureFailsTheSampleWithItsReason() {
        SampleScorer.Result r = score(EchoTask.TASK, Map.of("fail", 1.0));
        assertThat(r.sample().status()).isEqualTo(SampleStatus.FAILED);
        assertThat(r.sample().errors()).containsExactlyEntriesOf(Map.of("echo", "asked to fail"));
        assertThat(r.sample().metrics()).isEmpty();
        assertThat(r.sample().gate().primary()).as("no metric to gate").isNull();
        assertThat(r.sample().gate().missingChecks()).containsExactly("echo.ok=1");
        assertThat(r.evaluations()).singleElement().satisfies(e -> assertThat(e.error()).isInstanceOf(EvaluationException.class));
    }

    @Test
    void aJudgedTaskWithoutAJudgeIsPartialWithTheJudgesChecksMissing() {
        SampleScorer.Result r = score(EchoTask.JUDGED_TASK, Map.of("ok", 1.0));
        assertThat(r.sample().status()).isEqualTo(SampleStatus.PARTIAL);
        assertThat(r.unavailable()).containsExactlyEntriesOf(Map.of(TaskSpec.JUDGE_PART, "no judge configured"));
        assertThat(r.sample().gate().primary()).as("a required check has no value").isNull();
        assertThat(r.sample().gate().missingChecks()).containsExactly("judge.agree=1");
    }

    @Test
    void eventsIntakeWouldDeadLetterAreRejectedWithIntakesReason() {
        assertThat(score("no-such-task", Map.of("ok", 1.0)).rejection()).startsWith("unknown task 'no-such-task'");
        assertThat(score(EchoTask.TASK, null).rejection()).as("the evaluator's precheck")
                .isEqualTo("echo: inputs.values is missing");
        GenerationEvent slash = Fixtures.event("run/x", "c1", 1, EchoTask.TASK, "s1", 0, Map.of("ok", 1.0));
        assertThat(scorer.score(slash, Fixtures.item(EchoTask.TASK, "s1", 1), null).rejection())
                .isEqualTo("field runId 'run/x' may not contain '/' or start with a space");
    }

    @Test
    void anEvaluatorNotInThisBuildIsUnavailableAndTheSamplePartial() {
        TaskSpec spec = new TaskSpec("two", "test", "test", Set.of("ui"), List.of(EchoTask.EVALUATOR, "absent"),
                Optional.empty(), in -> GateResult.of(in, GateVariant.of("cv", Check.isOne("echo.ok")).evaluate(in), Map.of()));
        SampleScorer two = new SampleScorer(new TaskCatalog(List.of(spec)), EchoTask.evaluators());
        SampleScorer.Result r = two.score(Fixtures.event("run", "c1", 1, "two", "s1", 0, Map.of("ok", 1.0)),
                Fixtures.item("two", "s1", 1), null);
        assertThat(r.sample().status()).isEqualTo(SampleStatus.PARTIAL);
        assertThat(r.unavailable()).containsExactlyEntriesOf(Map.of("absent", "evaluator 'absent' is not installed in this build"));
        assertThat(r.sample().gate().primary()).isEqualTo(1.0);
    }
}
