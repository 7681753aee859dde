package io.mmgr.stream.topology.assembly;

import io.mmgr.stream.contract.PartKind;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.PartResult;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.Check;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.GateVariant;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The assembly rules without Kafka: when a score is emitted (last planned part, a replaced part, a
 * pending part, a label), with which status, and what a new generation of the sample discards.
 */
@Tag("unit")
class ScoreAssemblerTest {

    static final String TASK = "t";
    static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    static final SampleKey KEY = new SampleKey("run", "c1", TASK, "s1", 0);

    /** Task t: part cv and the judge, gated on cv.ok = 1 AND judge.agree = 1. */
    static final ScoreAssembler ASSEMBLER = new ScoreAssembler(new TaskCatalog(List.of(new TaskSpec(TASK, "test", "test",
            Set.of("image"), List.of("cv"), Optional.of("rubric"), in -> {
                GateVariant.Outcome o = GateVariant.of("both", Check.isOne("cv.ok"), Check.isOne("judge.agree")).evaluate(in);
                Map<String, Double> gates = new HashMap<>();
                gates.put("overall", o.value());
                return new GateResult(o.value(), o.name(), gates, o.failed(), o.missing());
            }))));

    static SamplePlan plan(String generation, List<String> planned, Map<String, String> unavailable) {
        return SamplePlan.newBuilder().setGenerationId(generation).setModel("m").setTrainingStep(10).setModality("image")
                .setProducedAt(T).setPlannedParts(planned).setUnavailableParts(unavailable).setArtifacts(null).build();
    }

    static PartResult part(String name, String generation, String status, Map<String, Double> metrics, String error) {
        return PartResult.newBuilder().setPart(name).setKind(name.equals("judge") ? "judge" : "cv")
                .setSource(name + "@1").setGenerationId(generation).setStatus(status)
                .setMetrics(new HashMap<>(metrics)).setDetail(name.equals("judge") ? Map.of("agree", "it does") : Map.of())
                .setError(error).setArrivedAt(T).build();
    }

    static PartResult ok(String name, String generation, String metric, double value) {
        return part(name, generation, "OK", Map.of(metric, value), null);
    }

    /** Applies the arrivals in order, remembering each emitted fingerprint the way the processor does. */
    static Run run(Object... arrivals) {
        AssemblyState s = null;
        Optional<ScoreAssembler.Emission> last = Optional.empty();
        int emissions = 0;
        for (Object a : arrivals) {
            s = ASSEMBLER.apply(s, a instanceof SamplePlan p ? new Arrival.Plan(p) : new Arrival.Part((PartResult) a));
            last = ASSEMBLER.score(KEY, s, T);
            if (last.isPresent()) {
                s.setLastEmitted(last.get().fingerprint());
                emissions++;
            }
        }
        return new Run(s, last.map(ScoreAssembler.Emission::score).orElse(null), emissions);
    }

    record Run(AssemblyState state, SampleScore lastScore, int emissions) {
    }

    @Test
    void nothingIsEmittedBeforeThePlanOrWhilePlannedPartsAreMissing() {
        assertThat(run(ok("cv", "g1", "ok", 1)).emissions()).as("parts before the plan").isZero();
        Run r = run(plan("g1", List.of("cv", "judge"), Map.of()), ok("cv", "g1", "ok", 1));
        assertThat(r.emissions()).as("the judge has not answered").isZero();
    }

    @Test
    void theLastPlannedPartCompletesTheScore() {
        Run r = run(ok("cv", "g1", "ok", 1), plan("g1", List.of("cv", "judge"), Map.of()), ok("judge", "g1", "agree", 1));

        SampleScore s = r.lastScore();
        assertThat(r.emissions()).isEqualTo(1);
        assertThat(s.getStatus()).isEqualTo("COMPLETE");
        assertThat(s.getPrimary()).isEqualTo(1.0);
        assertThat(s.getPrimarySource()).isEqualTo("both");
        assertThat(s.getMetrics()).containsExactlyInAnyOrderEntriesOf(Map.of("cv.ok", 1.0, "judge.agree", 1.0));
        assertThat(s.getPartsUsed()).containsExactlyInAnyOrder("cv@cv@1", "judge@judge@1");
        assertThat(s.getJustifications()).containsEntry("agree", "it does");
        assertThat(s.getPending()).isEmpty();
        assertThat(s.getGenerationId()).isEqualTo("g1");
        assertThat(s.getModel()).isEqualTo("m");
        assertThat(s.getTrainingStep()).isEqualTo(10);
    }

    @Test
    void aFailedCheckGivesZeroWithTheCheckNamed() {
        SampleScore s = run(plan("g1", List.of("cv", "judge"), Map.of()), ok("cv", "g1", "ok", 0),
                ok("judge", "g1", "agree", 1)).lastScore();
        assertThat(s.getStatus()).isEqualTo("COMPLETE");
        assertThat(s.getPrimary()).isEqualTo(0.0);
        assertThat(s.getFailedChecks()).hasSize(1).allSatisfy(c -> assertThat(c).contains("cv.ok"));
    }

    @Test
    void aPendingPartEmitsEarlyWithItsReasonAndNoPrimary() {
        Run r = run(plan("g1", List.of("cv", "judge"), Map.of()), ok("cv", "g1", "ok", 1),
                part("judge", "g1", "PENDING", Map.of(), "quota spent"));

        SampleScore s = r.lastScore();
        assertThat(r.emissions()).isEqualTo(1);
        assertThat(s.getStatus()).isEqualTo("PENDING");
        assertThat(s.getPending()).containsExactly(Map.entry("judge", "quota spent"));
        assertThat(s.getPrimary()).as("judge.agree has not arrived").isNull();
        assertThat(s.getMissingChecks()).hasSize(1).allSatisfy(c -> assertThat(c).contains("judge.agree"));
        assertThat(s.getMetrics()).containsOnlyKeys("cv.ok");
    }

    @Test
    void anEvaluationWaitingForItsArtifactsStoreShowsPendingThenItsResultReplacesTheWait() {
        DeterministicResult.Builder cv = DeterministicResult.newBuilder().setGenerationId("g1").setEvaluator("cv")
                .setEvaluatorVersion("1").setEvaluatedAt(T);
        String why = "artifact s3://b/k.png: the store did not answer within 60 s; trying again";
        Run waiting = run(plan("g1", List.of("cv", "judge"), Map.of()), ok("judge", "g1", "agree", 1),
                Parts.of(cv.setPending(why).build()));
        assertThat(waiting.lastScore().getStatus()).isEqualTo("PENDING");
        assertThat(waiting.lastScore().getPending()).containsExactly(Map.entry("cv", why));
        assertThat(waiting.lastScore().getErrors()).as("a wait is no failure").isEmpty();

        Run scored = run(plan("g1", List.of("cv", "judge"), Map.of()), ok("judge", "g1", "agree", 1),
                Parts.of(cv.setPending(why).build()), Parts.of(cv.setPending(null).setMetrics(Map.of("ok", 1.0)).build()));
        assertThat(scored.emissions()).isEqualTo(2);
        assertThat(scored.lastScore().getStatus()).isEqualTo("COMPLETE");
        assertThat(scored.lastScore().getPrimary()).isEqualTo(1.0);
        assertThat(scored.lastScore().getPending()).isEmpty();
    }

    @Test
    void aPartInErrorFailsTheSampleAndDoesNotFeedTheGate() {
        SampleScore s = run(plan("g1", List.of("cv", "judge"), Map.of()),
                part("cv", "g1", "ERROR", Map.of("ok", 1.0), "decode failed"), ok("judge", "g1", "agree", 1)).lastScore();

        assertThat(s.getStatus()).isEqualTo("FAILED");
        assertThat(s.getErrors()).containsExactly(Map.entry("cv", "decode failed"));
        assertThat(s.getMetrics()).as("an erroneous part's metrics are not used").doesNotContainKey("cv.ok");
        assertThat(s.getPrimary()).isNull();
        assertThat(s.getPartsUsed()).containsExactly("judge@judge@1");
    }

    @Test
    void anUnavailablePartMakesItPartialAndSaysWhy() {
        SampleScore s = run(plan("g1", List.of("cv"), Map.of("judge", "no judge configured")), ok("cv", "g1", "ok", 1))
                .lastScore();

        assertThat(s.getStatus()).isEqualTo("PARTIAL");
        assertThat(s.getPending()).containsExactly(Map.entry("judge", "no judge configured"));
        assertThat(s.getPrimary()).isNull();
    }

    @Test
    void theSameStateIsNotEmittedTwiceButAReplacedPartIs() {
        SamplePlan p = plan("g1", List.of("cv", "judge"), Map.of());
        assertThat(run(p, ok("cv", "g1", "ok", 1), ok("judge", "g1", "agree", 1), ok("judge", "g1", "agree", 1))
                .emissions()).as("a verdict re-delivered unchanged").isEqualTo(1);

        Run rejudged = run(p, ok("cv", "g1", "ok", 1), ok("judge", "g1", "agree", 1), ok("judge", "g1", "agree", 0));
        assertThat(rejudged.emissions()).isEqualTo(2);
        assertThat(rejudged.lastScore().getPrimary()).isEqualTo(0.0);
    }

    @Test
    void aHumanLabelIsReportedAndReEmitsButNeverFeedsTheGate() {
        PartResult label = part(PartKind.HUMAN_PART_PREFIX + "ann", null, "OK", Map.of("agree", 0.0), null);
        Run r = run(plan("g1", List.of("cv", "judge"), Map.of()), ok("cv", "g1", "ok", 1), ok("judge", "g1", "agree", 1),
                label);

        assertThat(r.emissions()).isEqualTo(2);
        assertThat(r.lastScore().getMetrics()).containsEntry("human:ann.agree", 0.0);
        assertThat(r.lastScore().getPartsUsed()).contains("human:ann");
        assertThat(r.lastScore().getPrimary()).as("the gate reads the judge, not the label").isEqualTo(1.0);
    }

    @Test
    void aNewGenerationDiscardsTheOldPartsAndIgnoresLateOnes() {
        Run r = run(plan("g1", List.of("cv", "judge"), Map.of()), ok("cv", "g1", "ok", 1), ok("judge", "g1", "agree", 1),
                plan("g2", List.of("cv", "judge"), Map.of()), ok("cv", "g2", "ok", 0), ok("judge", "g1", "agree", 1));

        assertThat(r.state().getParts().values()).extracting(PartResult::getGenerationId)
                .as("g1's parts went with its plan; the late g1 verdict is kept only in case its plan comes back")
                .containsExactlyInAnyOrder("g2", "g1");
        assertThat(r.emissions()).as("g2 still waits for its judge").isEqualTo(1);

        Run done = run(plan("g1", List.of("cv", "judge"), Map.of()), ok("cv", "g1", "ok", 1), ok("judge", "g1", "agree", 1),
                plan("g2", List.of("cv", "judge"), Map.of()), ok("cv", "g2", "ok", 0), ok("judge", "g2", "agree", 1));
        assertThat(done.lastScore().getGenerationId()).isEqualTo("g2");
        assertThat(done.lastScore().getPrimary()).isEqualTo(0.0);
    }

    @Test
    void partsOfOtherGenerationsAreBoundedOldestFirst() {
        Object[] arrivals = new Object[ScoreAssembler.MAX_PARTS + 6];
        arrivals[0] = plan("current", List.of("cv", "judge"), Map.of());
        arrivals[1] = ok("cv", "current", "ok", 1);
        for (int i = 2; i < arrivals.length; i++) {
            PartResult stray = ok("cv", "stray-" + i, "ok", 1);
            stray.setArrivedAt(T.plusSeconds(i));
            arrivals[i] = stray;
        }
        AssemblyState s = run(arrivals).state();

        assertThat(s.getParts()).hasSize(ScoreAssembler.MAX_PARTS);
        assertThat(s.getParts().values()).extracting(PartResult::getGenerationId)
                .contains("current", "stray-" + (arrivals.length - 1))
                .doesNotContain("stray-2", "stray-3", "stray-4", "stray-5");
    }
}
