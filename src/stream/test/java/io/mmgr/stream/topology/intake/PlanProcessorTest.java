package io.mmgr.stream.topology.intake;

import static io.mmgr.stream.topology.intake.IntakeRules.event;
import static io.mmgr.stream.topology.intake.IntakeRules.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskSpec;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Which parts a sample needs, which cannot arrive and why, and when intake refuses the sample instead; which
 * parts intake evaluates itself (light ones: the result on the plan, a failure as a FAILED part and a dead letter).
 */
@Tag("unit")
class PlanProcessorTest {

    static final EvaluatorRegistry INSTALLED = new EvaluatorRegistry(Map.of(
            "a", () -> new IntakeRules.Evaluator("a"), "b", () -> new IntakeRules.Evaluator("b"),
            "l", IntakeRules.Light::new));
    /** Where the planned event was read, as its dead letters quote it. */
    static final RawRecord.Source READ_AT = new RawRecord.Source("t.generations", 2, 41);

    static IntakeResult plan(boolean judge, GenerationEvent event, BenchmarkItem item) {
        PlanProcessor p = new PlanProcessor(IntakeRules.CATALOG, INSTALLED, judge);
        return p.plan(new IntakeResult.Accepted(new RawRecord(new byte[] {1}, new byte[] {2}, Optional.of(READ_AT)), event,
                "gen-1", item));
    }

    static GenerationEvent mixed(String text) {
        return event("mixed").setInputs(GenerationInputs.newBuilder().setText(text).build()).build();
    }

    static IntakeResult.Planned planned(IntakeResult r) {
        assertThat(r).isInstanceOf(IntakeResult.Planned.class);
        return (IntakeResult.Planned) r;
    }

    static String rejection(IntakeResult r) {
        assertThat(r).isInstanceOf(IntakeResult.Rejected.class);
        return ((IntakeResult.Rejected) r).letter().getReason();
    }

    @Test
    void everyInstalledEvaluatorOfTheTaskIsPlannedAndAskedFor() {
        IntakeResult.Planned p = planned(plan(false, event("plain").build(), item("plain")));

        assertThat(p.plan().getPlannedParts()).containsExactly("a", "b");
        assertThat(p.plan().getUnavailableParts()).isEmpty();
        assertThat(p.evaluations()).extracting(EvaluationRequest::getEvaluator).containsExactly("a", "b");
        assertThat(p.evaluations()).allSatisfy(e -> assertThat(e.getGenerationId()).isEqualTo("gen-1"));
        assertThat(p.judgeRequests()).isEmpty();
        assertThat(p.key()).isEqualTo(new SampleKey("run", "c1", "plain", "s1", 0));
        assertThat(p.plan().getModel()).isEqualTo("model");
        assertThat(p.plan().getTrainingStep()).isEqualTo(10);
        assertThat(p.plan().getArtifacts()).hasSize(1);
    }

    @Test
    void aLightEvaluatorRunsAtPlanningAndItsResultTravelsOnThePlanWhileImageWorkIsAskedFor() {
        IntakeResult.Planned p = planned(plan(false, mixed("four"), item("mixed")));

        assertThat(p.plan().getPlannedParts()).containsExactly("l", "a");
        assertThat(p.plan().getResults()).singleElement().satisfies(r -> {
            assertThat(r.getEvaluator()).isEqualTo("l");
            assertThat(r.getEvaluatorVersion()).isEqualTo("3");
            assertThat(r.getGenerationId()).isEqualTo("gen-1");
            assertThat(r.getMetrics()).containsExactly(Map.entry("chars", 4.0));
            assertThat(r.getError()).isNull();
        });
        assertThat(p.evaluations()).as("only the image evaluator goes to the worker")
                .extracting(EvaluationRequest::getEvaluator).containsExactly("a");
        assertThat(p.deadLetters()).isEmpty();
        assertThat(p.event().getTask()).isEqualTo("mixed");
        assertThat(p.item().getTask()).isEqualTo("mixed");

        assertThat(planned(plan(false, event("plain").build(), item("plain"))).plan().getResults())
                .as("no light part, nothing carried").isEmpty();
    }

    @Test
    void aLightEvaluatorThatThrowsGivesAFailedPartAndADeadLetterQuotingTheEvent() {
        IntakeResult.Planned p = planned(plan(false, mixed("crash"), item("mixed")));

        assertThat(p.plan().getPlannedParts()).as("still planned: the part arrives, FAILED").containsExactly("l", "a");
        DeterministicResult r = p.plan().getResults().get(0);
        assertThat(r.getEvaluator()).isEqualTo("l");
        assertThat(r.getError()).isEqualTo("evaluator failed unexpectedly: light evaluator crashed");
        assertThat(r.getMetrics()).isEmpty();
        assertThat(p.evaluations()).extracting(EvaluationRequest::getEvaluator).containsExactly("a");
        DeadLetter letter = p.deadLetters().get(0);
        assertThat(p.deadLetters()).hasSize(1);
        assertThat(letter.getStage()).isEqualTo("evaluate:l");
        assertThat(letter.getReason()).isEqualTo(r.getError());
        assertThat(letter.getErrorClass()).isEqualTo(IllegalStateException.class.getName());
        assertThat(letter.getSampleRef()).isEqualTo("run/c1/mixed/s1#0");
        assertThat(letter.getSourceTopic()).isEqualTo("t.generations");
        assertThat(letter.getSourcePartition()).isEqualTo(2);
        assertThat(letter.getSourceOffset()).isEqualTo(41);
        assertThat(letter.getOriginalValue()).isEqualTo(ByteBuffer.wrap(new byte[] {2}));

        IntakeResult.Planned refused = planned(plan(false, mixed("invalid"), item("mixed")));
        assertThat(refused.plan().getResults().get(0).getError()).isEqualTo("text is not an answer");
        assertThat(refused.deadLetters()).singleElement().satisfies(l -> {
            assertThat(l.getReason()).isEqualTo("text is not an answer");
            assertThat(l.getStage()).isEqualTo("evaluate:l");
        });
    }

    @Test
    void aLightEvaluationThatAsksForAnArtifactFailsWithoutReadingIt() {
        IntakeResult.Planned p = planned(plan(false, mixed("read"), item("mixed")));

        assertThat(p.plan().getResults().get(0).getError()).startsWith("a light evaluation runs at intake, on a stream thread, "
                + "and reads no artifact, yet it asked for the artifact of role 'output'");
        assertThat(p.deadLetters()).singleElement().satisfies(l -> assertThat(l.getReason()).contains("reads no artifact"));
    }

    @Test
    void anEvaluatorNotInThisBuildIsUnavailableAndTheRestStillScores() {
        IntakeResult.Planned p = planned(plan(false, event("ghost").build(), item("ghost")));

        assertThat(p.plan().getPlannedParts()).containsExactly("a");
        assertThat(p.plan().getUnavailableParts())
                .containsExactly(Map.entry("missing", "evaluator 'missing' is not installed in this build"));
    }

    @Test
    void aJudgedTaskPlansTheJudgeOnlyWhenOneIsConfigured() {
        IntakeResult.Planned without = planned(plan(false, event("judged").build(), item("judged")));
        assertThat(without.plan().getPlannedParts()).containsExactly("a");
        assertThat(without.plan().getUnavailableParts()).containsExactly(Map.entry(TaskSpec.JUDGE_PART, "no judge configured"));
        assertThat(without.judgeRequests()).isEmpty();

        IntakeResult.Planned with = planned(plan(true, event("judged").build(), item("judged")));
        assertThat(with.plan().getPlannedParts()).containsExactly("a", TaskSpec.JUDGE_PART);
        assertThat(with.evaluations()).as("the judge is not a deterministic evaluation").hasSize(1);
        assertThat(with.judgeRequests()).singleElement().satisfies(j -> {
            assertThat(j.getRubric()).isEqualTo("r");
            assertThat(j.getGenerationId()).isEqualTo("gen-1");
            assertThat(j.getRequestId()).matches("[0-9a-f]{64}");
        });
    }

    @Test
    void theJudgeRequestIdIsTheSameForTheSameGenerationOnly() {
        SampleKey key = new SampleKey("run", "c1", "judged", "s1", 0);
        String id = PlanProcessor.requestId(key, "r", "gen-1");

        assertThat(PlanProcessor.requestId(new SampleKey("run", "c1", "judged", "s1", 0), "r", "gen-1")).isEqualTo(id);
        assertThat(PlanProcessor.requestId(key, "r", "gen-2")).isNotEqualTo(id);
        assertThat(PlanProcessor.requestId(key, "r2", "gen-1")).isNotEqualTo(id);
        assertThat(PlanProcessor.requestId(new SampleKey("run", "c1", "judged", "s1", 1), "r", "gen-1")).isNotEqualTo(id);
    }

    @Test
    void planningWithoutTheBenchmarkItemIsAWiringError() {
        // the item wait upstream parks or dead-letters events without their item; none reaches the plan
        assertThatThrownBy(() -> plan(false, event("plain").build(), null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("run/c1/plain/s1#0");
    }

    @Test
    void aFailedPrecheckRefusesTheSampleNamingTheEvaluator() {
        GenerationEvent refused = event("plain").setInputs(GenerationInputs.newBuilder().setText("refuse").build()).build();
        assertThat(rejection(plan(false, refused, item("plain")))).isEqualTo("a: text refused");

        GenerationEvent boom = event("plain").setInputs(GenerationInputs.newBuilder().setText("boom").build()).build();
        assertThat(rejection(plan(false, boom, item("plain")))).startsWith("a: precheck failed").contains("exploded");
    }

    @Test
    void theDeadLetterQuotesTheRecordAndTheSample() {
        GenerationEvent refused = event("plain").setInputs(GenerationInputs.newBuilder().setText("refuse").build()).build();
        IntakeResult.Rejected r = (IntakeResult.Rejected) plan(false, refused, item("plain"));
        assertThat(r.letter().getSampleRef()).isEqualTo("run/c1/plain/s1#0");
    }
}
