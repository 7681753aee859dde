package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.judge.PricingSettings;
import io.mmgr.stream.judge.panel.PanelRule;
import io.mmgr.stream.judge.panel.PanelSettings;
import io.mmgr.stream.topology.ScorerSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A two-judge panel (OpenAI-compatible judge-a, Gemini judge-b) with {@code --judge-samples 3} on the in-process
 * broker: four Math samples complete with the verdicts the scripted answers imply, and the worker's /metrics show
 * the inter-judge kappa with its interval, the self-agreement and the checkpoint's projected cost. About 25 s on a
 * loaded machine: nearly all of it the broker and the scorer starting; the 24 judge calls take well under a second.
 */
@Tag("integration")
class PanelEndToEndTest {

    static final String RUN = "run-panel";
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String FINAL = "final_correctness";
    /** final_correctness by item: judge-a's samples' majority (its seed 2 says 0 on item 1), judge-b's every sample. */
    static final double[] A = {1, 1, 0, 1};
    static final double[] B = {1, 0, 0, 1};

    @TempDir
    Path dir;

    static Action script(ScriptedVlmServer.Exchange e) {
        int item = Integer.parseInt(e.caseName().substring(1));
        double fin = e.model().equals("judge-a") ? (item == 1 && e.seed() == 2 ? 0 : A[item]) : B[item];
        return Action.ok(Duration.ZERO, Map.of(FINAL, fin));
    }

    @Test
    void aTwoJudgePanelWithThreeSamplesScoresAndReportsAgreementAndCost() throws Exception {
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("e2ep.").withPartitions(2).withJudge(true)
                .withArtifactRoots(List.of(dir));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (ScriptedVlmServer server = ScriptedVlmServer.start(PanelEndToEndTest::script);
             ScorerHarness h = new ScorerHarness(dir, settings, ScorerApp.Options.defaults())) {
            JudgeSettings main = JudgeSettings.builder("openai", URI.create(server.openAiBaseUrl()), "judge-a")
                    .quota(q -> q.requests(100, Duration.ofSeconds(1))).timeout(Duration.ofSeconds(5))
                    .retry(r -> r.maxAttempts(3).backoff(Duration.ofMillis(50), Duration.ofMillis(200)))
                    .pricing(PricingSettings.of(0.0, 1000.0, null)).build();
            PanelSettings panel = new PanelSettings(PanelSettings.parse(List.of("gemini,judge-b," + server.geminiBaseUrl()), main),
                    3, PanelRule.MAJORITY, 1.0);
            try (JudgeRuntime judge = JudgeRuntime.start(main, panel, Map.of(), h.topics,
                    new JudgeWorker.Config(h.kafka.bootstrapServers(), "e2ep-judge", Map.of()),
                    new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                    meters, dir.resolve("judge-cache"))) {
                for (int i = 0; i < A.length; i++) {
                    String c = "p" + i;
                    h.publish(BenchmarkItem.newBuilder().setTask("math").setSampleId(c).setPrompt("case=" + c + " Solve 3x = 12.")
                            .setGroundTruth(GroundTruth.newBuilder().setAnswer("x = 4").build()).build());
                    h.publish(GenerationEvent.newBuilder().setRunId(RUN).setModel("gen-model").setCheckpointId("ckpt-1")
                            .setTrainingStep(1).setTask("math").setSampleId(c).setModality("text").setProducedAt(Instant.now())
                            .setInputs(GenerationInputs.newBuilder().setText("3x = 12, x = 4").build()).build());
                }
                Map<SampleKey, SampleScore> scores = await(h::scores, m -> m.values().stream()
                        .filter(s -> "COMPLETE".equals(s.getStatus())).count() == A.length, WAIT, "four complete scores");
                for (int i = 0; i < A.length; i++) {
                    String c = "p" + i;
                    SampleScore s = scores.values().stream().filter(x -> x.getSampleId().equals(c)).findFirst().orElseThrow();
                    // two judges that differ tie; the tie goes to the lower value
                    assertThat(s.getMetrics()).as(c).containsEntry("judge." + FINAL, Math.min(A[i], B[i]));
                    assertThat(s.getPartsUsed()).anyMatch(p -> p.endsWith("by openai/judge-a + gemini/judge-b x3"));
                }
                // 4 samples x 2 judges x 3 seeds, each asked once
                assertThat(server.seen()).hasSize(24);

                // judge-a's majorities {1,1,0,1}, judge-b's {1,0,0,1}: p_o = 3/4, p_e = (3/4)(1/2) + (1/4)(1/2) = 1/2,
                // Cohen's kappa = (3/4 - 1/2) / (1/2) = 0.5, SE = sqrt((3/4)(1/4) / (4 (1/2)^2)) = sqrt(3/16)
                assertThat(gauge(meters, "mmgr.judge.panel_kappa", "bound", "estimate")).isCloseTo(0.5, within(1e-12));
                assertThat(gauge(meters, "mmgr.judge.panel_kappa", "bound", "low"))
                        .isCloseTo(0.5 - 1.959963984540054 * Math.sqrt(3.0 / 16), within(1e-12));
                assertThat(gauge(meters, "mmgr.judge.panel_kappa", "bound", "high")).isEqualTo(1.0);
                // judge-a agrees with itself 2 of 3 times on item 1, else always: (3 + (2/3 + 1) / 2) / 4
                assertThat(gauge(meters, "mmgr.judge.self_agreement", "metric", FINAL)).isCloseTo((3 + 5.0 / 6) / 4, within(1e-12));
                // every planned call made: the projection (4 x 2 x 3 x the mean cost of a call) is what was spent
                double spent = judge.ledger().checkpoint(RUN, "ckpt-1").costUsd();
                assertThat(spent).isPositive();
                assertThat(meters.get("mmgr.judge.projected_cost_usd").tag("run", RUN).tag("checkpoint", "ckpt-1").gauge().value())
                        .isCloseTo(spent, within(1e-9));
            }
        }
    }

    static double gauge(SimpleMeterRegistry meters, String name, String tag, String value) {
        return meters.get(name).tag("rubric", "math").tag("metric", FINAL).tag(tag, value).gauge().value();
    }
}
