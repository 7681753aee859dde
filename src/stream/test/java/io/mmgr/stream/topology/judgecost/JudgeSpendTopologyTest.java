package io.mmgr.stream.topology.judgecost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.JudgeProjection;
import io.mmgr.stream.avro.JudgeSpend;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.PanelAnswer;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.JudgeCostKeys;
import io.mmgr.stream.contract.VerdictStatus;
import io.mmgr.stream.topology.TopologyFixture;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judge's spend per checkpoint, summed by the judge-cost sub-flow alone (its builder called on the verdicts topic;
 * in the scorer it shares assembly's source, as topology/scoring-topology.txt shows): what a call cost counts once,
 * PENDING notices and cache copies add nothing, a panel's verdict adds its judges' and samples' calls.
 */
@Tag("topology")
class JudgeSpendTopologyTest {

    @TempDir
    Path dir;

    TopologyFixture fx;
    TestInputTopic<SampleKey, JudgeVerdict> verdicts;

    @BeforeEach
    void start() {
        // the sub-flow alone: a whole scorer per test tripled the class's time for no more coverage
        fx = TopologyFixture.builder("t.", dir).subFlows((builder, ctx) -> JudgeCostTopology.build(builder, ctx.judgeCostDeps(),
                builder.stream(ctx.topics().judgeVerdicts.name(), ctx.topics().judgeVerdicts.consumed("test-verdicts"))));
        verdicts = fx.input(fx.topics.judgeVerdicts);
    }

    @AfterEach
    void close() {
        fx.close();
    }

    static SampleKey sample(String checkpoint, String id) {
        return new SampleKey("run", checkpoint, "echo", id, 0);
    }

    static JudgeVerdict.Builder verdict(String request, VerdictStatus status) {
        return JudgeVerdict.newBuilder().setRequestId(request).setGenerationId("g-" + request).setRubric("r").setRubricVersion("1")
                .setJudgeModel("openai/m").setStatus(status.name()).setDecidedAt(Instant.ofEpochMilli(1_700_000_000_000L));
    }

    static JudgeVerdict answered(String request, int attempts, long in, long out, double usd) {
        return verdict(request, VerdictStatus.VALID).setAttempts(attempts).setInputTokens(in).setOutputTokens(out).setCostUsd(usd)
                .setMetrics(new HashMap<>(Map.of("ok", 1.0))).setCacheKey("k-" + request).build();
    }

    JudgeSpend spend(String checkpoint) {
        KeyValueStore<String, JudgeSpend> store = fx.store(fx.stores.judgeSpend);
        return store.get(JudgeCostKeys.checkpoint("run", checkpoint));
    }

    @Test
    void eachVerdictWithCallsCountsOncePendingNoticesAndCacheCopiesAddNothing() {
        verdicts.pipeInput(sample("c1", "s1"), verdict("q1", VerdictStatus.PENDING).setReason("judge quota: waiting").build());
        assertThat(spend("c1")).as("a PENDING notice is no verdict").isNull();

        verdicts.pipeInput(sample("c1", "s1"), answered("q1", 1, 1200, 80, 0.0021));
        // the same prompt for another sample: the worker's cache answers it, copied with no call and cost 0
        verdicts.pipeInput(sample("c1", "s2"), verdict("q2", VerdictStatus.VALID).setCachedFrom("q1").setCacheKey("k-q1").build());
        // a retried answer (a 429, then the call): two calls on one verdict
        verdicts.pipeInput(sample("c1", "s3"), answered("q3", 2, 1300, 90, 0.0024));
        // no answer by the deadline, after three failed calls that billed nothing
        verdicts.pipeInput(sample("c1", "s4"), verdict("q4", VerdictStatus.FAILED).setAttempts(3).setReason("no answer").build());
        // a prompt that could not be built: INVALID with no call
        verdicts.pipeInput(sample("c1", "s5"), verdict("q5", VerdictStatus.INVALID).setReason("cannot build the prompt").build());
        verdicts.pipeInput(sample("c2", "s1"), answered("q6", 1, 1000, 70, 0.0019));

        JudgeSpend c1 = spend("c1");
        assertThat(c1.getVerdicts()).as("q1, q3 and q4 made calls; the notice, the copy and q5 did not").isEqualTo(3);
        assertThat(c1.getCalls()).isEqualTo(1 + 2 + 3);
        assertThat(c1.getInputTokens()).isEqualTo(2500);
        assertThat(c1.getOutputTokens()).isEqualTo(170);
        assertThat(c1.getCostUsd()).isCloseTo(0.0021 + 0.0024, within(1e-12));
        assertThat(spend("c2").getCostUsd()).as("each checkpoint on its own").isCloseTo(0.0019, within(1e-12));
        assertThat(spend("c3")).isNull();
    }

    @Test
    void aPanelOfTwoJudgesWithThreeSamplesEachAddsAllSixCalls() {
        double[][] costs = {{0.0010, 0.0011, 0.0012}, {0.0030, 0.0031, 0.0033}};
        double total = 0.0;
        List<PanelAnswer> answers = new ArrayList<>();
        for (int j = 0; j < costs.length; j++) {
            for (int s = 0; s < costs[j].length; s++) {
                total += costs[j][s];
                answers.add(PanelAnswer.newBuilder().setJudge(j == 0 ? "gemini/g" : "openai/o").setSample(s + 1)
                        .setStatus("VALID").setMetrics(new HashMap<>(Map.of("ok", 1.0))).build());
            }
        }
        // as the panel's verdict carries them (PanelVerdicts.combine): the sum over its answers
        JudgeVerdict panel = verdict("p1", VerdictStatus.VALID).setJudgeModel("gemini/g + openai/o x3").setAttempts(6)
                .setInputTokens(6 * 1000).setOutputTokens(6 * 50).setCostUsd(total).setPanelRule("majority")
                .setPanelAnswers(answers).setMetrics(new HashMap<>(Map.of("ok", 1.0))).setCacheKey("k-p1").build();
        verdicts.pipeInput(sample("c1", "s1"), panel);
        verdicts.pipeInput(sample("c1", "s2"), JudgeVerdict.newBuilder(panel).setRequestId("p2").setCostUsd(total * 2).build());
        // a second request with the same panel prompt: copied from the cache, nothing spent
        verdicts.pipeInput(sample("c1", "s3"), JudgeVerdict.newBuilder(panel).setRequestId("p3").setAttempts(0).setInputTokens(0)
                .setOutputTokens(0).setCostUsd(0.0).setCachedFrom("p1").build());

        JudgeSpend c1 = spend("c1");
        assertThat(c1.getVerdicts()).isEqualTo(2);
        assertThat(c1.getCalls()).isEqualTo(12);
        assertThat(c1.getInputTokens()).isEqualTo(12_000);
        assertThat(c1.getCostUsd()).isCloseTo(3 * total, within(1e-12));
    }

    @Test
    void theWorkersProjectionsAreReadIntoTheGlobalTable() {
        TestInputTopic<String, JudgeProjection> projections = fx.input(fx.topics.judgeProjections);
        JudgeProjection p = JudgeProjection.newBuilder().setRunId("run").setCheckpointId("c1").setWorker("w1").setPlannedRequests(40)
                .setJudges(2).setSamples(3).setLaneFactor(1.0).setPerCallUsd(0.002).setProjectedUsd(40 * 2 * 3 * 0.002)
                .setUpdatedAt(Instant.ofEpochMilli(1_700_000_000_000L)).build();
        String key = JudgeCostKeys.projection("run", "c1", "w1");
        projections.pipeInput(key, p);
        projections.pipeInput(key, JudgeProjection.newBuilder(p).setPlannedRequests(50).setProjectedUsd(0.6).build());
        KeyValueStore<String, JudgeProjection> store = fx.store(fx.stores.judgeProjections);
        assertThat(store.get(key).getPlannedRequests()).as("the latest record of a worker counts").isEqualTo(50);
        assertThat(JudgeCostKeys.checkpointOf("run", key)).isEqualTo("c1");
    }
}
