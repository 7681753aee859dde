package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.PanelAnswer;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.contract.agreement.Kappa;
import io.mmgr.stream.judge.panel.PanelAgreement;
import io.mmgr.stream.judge.panel.PanelRule;
import io.mmgr.stream.judge.panel.PanelSettings;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Panels and repeated sampling against the scripted provider on loopback, without Kafka: judges that answer
 * differently in a known pattern, one judge whose answer changes with the seed, and the verdicts, self-agreement
 * and kappa those scripts imply; the seeds on the wire; one cached verdict per configuration; the projection named
 * in a budget hold.
 */
@Tag("unit")
class PanelJudgeTest {

    static final String FINAL = "final_correctness";
    /** Item i's final_correctness from judge A (its samples' majority) and from judge B (every sample). */
    static final double[] A = {0, 1, 1, 1, 1, 1, 1, 0};
    static final double[] B = {0, 1, 0, 1, 1, 1, 1, 1};
    /** Items where A's third sample (seed 3) says 0 though its majority says 1. */
    static final Set<Integer> A_NOISY = Set.of(1, 2);
    /** Judge C (three-judge panel, asked once): 0 on item 0 only. */
    static final double[] C = {0, 1, 1, 1, 1, 1, 1, 1};

    @TempDir
    Path dir;
    ScriptedVlmServer server;
    final List<VerdictCache> caches = new ArrayList<>();

    @AfterEach
    void stop() {
        caches.forEach(VerdictCache::close);
        if (server != null) {
            server.close();
        }
    }

    /** Whether judge-b answers case "w0" (else it is rate limited). */
    static final java.util.concurrent.atomic.AtomicBoolean B_ANSWERS = new java.util.concurrent.atomic.AtomicBoolean();

    /** A's, B's and C's answers: by model, case ("p<i>") and seed; B refuses "r0" and is rate limited on "w0" until told. */
    static Action script(ScriptedVlmServer.Exchange e) {
        if (e.model().equals("judge-b") && e.caseName().equals("r0")) {
            return Action.of(ScriptedVlmServer.Kind.REFUSAL);
        }
        if (e.model().equals("judge-b") && e.caseName().equals("w0") && !B_ANSWERS.get()) {
            return Action.rateLimited(0.05);
        }
        int item = Integer.parseInt(e.caseName().substring(1));
        double fin = switch (e.model()) {
            case "judge-a" -> A_NOISY.contains(item) && e.seed() == 3 ? 0 : A[item];
            case "judge-b" -> B[item];
            default -> C[item];
        };
        return Action.ok(Duration.ZERO, Map.of(FINAL, fin));
    }

    JudgeSettings.Builder main(PricingSettings pricing) {
        return JudgeSettings.builder(JudgeProtocol.OPENAI, URI.create(server.openAiBaseUrl()), "judge-a").apiKeyEnv("KEY")
                .quota(q -> q.requests(200, Duration.ofSeconds(1))).timeout(Duration.ofSeconds(5))
                .retry(r -> r.maxAttempts(2).backoff(Duration.ofMillis(50), Duration.ofMillis(100)))
                .pricing(pricing).profile(p -> p.withAnswerTokens(40));
    }

    record Panel(JudgeEngine engine, PanelAgreement agreement) {
    }

    Panel panel(JudgeSettings main, List<String> others, int samples, PanelRule rule, VerdictCache cache) {
        JudgeMetrics metrics = JudgeMetrics.standalone();
        var artifacts = new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill"));
        Map<String, String> env = Map.of("KEY", "sk-panel-test-0123456789");
        JudgeEngine engine = JudgeRuntime.engine(main, JudgeRuntime.client(main, env), artifacts, cache, metrics);
        PanelSettings p = new PanelSettings(PanelSettings.parse(others, main), samples, rule, 1.0);
        JudgeRuntime.panel(engine, p, env, artifacts, metrics);
        return new Panel(engine, engine.delegate() instanceof io.mmgr.stream.judge.panel.PanelJudge j ? j.agreement() : null);
    }

    VerdictCache cache() {
        VerdictCache c = VerdictCache.open(dir.resolve("cache-" + caches.size()));
        caches.add(c);
        return c;
    }

    static JudgeVerdict done(JudgeEngine.Outcome o) {
        assertThat(o).isInstanceOf(JudgeEngine.Outcome.Done.class);
        return ((JudgeEngine.Outcome.Done) o).verdict();
    }

    @Test
    void twoJudgesThreeSamplesGiveTheVerdictsSelfAgreementAndKappaTheScriptsImply() throws Exception {
        server = ScriptedVlmServer.start(PanelJudgeTest::script);
        VerdictCache cache = cache();
        String gemini = "gemini,judge-b," + server.geminiBaseUrl() + ",KEY";
        Panel p = panel(main(PricingSettings.free()).build(), List.of(gemini), 3, PanelRule.MAJORITY, cache);
        List<JudgeVerdict> verdicts = new ArrayList<>();
        for (int i = 0; i < A.length; i++) {
            verdicts.add(done(p.engine().judge(JudgeFixtures.mathText("run-p", "p" + i, "x = 4"))));
        }
        for (int i = 0; i < A.length; i++) {
            JudgeVerdict v = verdicts.get(i);
            assertThat(v.getStatus()).isEqualTo("VALID");
            // two judges who differ tie, and a tie goes to the lower value
            assertThat(v.getMetrics().get(FINAL)).as("item %d", i).isEqualTo(Math.min(A[i], B[i]));
            assertThat(v.getPanelRule()).isEqualTo("majority");
            assertThat(v.getJudgeModel()).isEqualTo("openai/judge-a + gemini/judge-b x3");
            assertThat(v.getPanelAnswers()).hasSize(6);
            // A's noisy items: A agrees with itself 2 of 3 times, B 3 of 3: the verdict shows their mean
            double self = A_NOISY.contains(i) ? (2.0 / 3 + 1.0) / 2 : 1.0;
            assertThat(v.getSelfAgreement().get(FINAL)).as("item %d", i).isCloseTo(self, within(1e-12));
            List<Double> aSamples = v.getPanelAnswers().stream().filter(a -> a.getJudge().equals("openai/judge-a"))
                    .map(a -> a.getMetrics().get(FINAL)).toList();
            assertThat(aSamples).hasSize(3);
            assertThat(v.getAttempts()).isEqualTo(6);
        }
        // 8 items x 2 judges x 3 samples, every request different: the seed is on the wire
        assertThat(server.seen()).hasSize(48);
        assertThat(server.seen().stream().map(ScriptedVlmServer.Seen::bodySha256).collect(Collectors.toSet())).hasSize(48);
        assertThat(server.seen().stream().map(s -> s.params().get("seed")).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(1, 2, 3);
        assertThat(p.engine().ledger().checkpoint("run-p", "ckpt-1").calls()).isEqualTo(48);

        // A's majorities {0,1,1,1,1,1,1,0}, B's {0,1,0,1,1,1,1,1}: p_o = 6/8, each says 1 six times in 8, so
        // p_e = (6/8)^2 + (2/8)^2 = 40/64, kappa = (48/64 - 40/64) / (24/64) = 1/3;
        // SE = sqrt(0.75 * 0.25 / (8 * (24/64)^2)) = sqrt(1/6)
        Kappa.Estimate k = p.agreement().figures().get("math / " + FINAL).kappa();
        assertThat(k.method()).isEqualTo("cohen");
        assertThat(k.items()).isEqualTo(8);
        assertThat(k.kappa()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(k.low()).isCloseTo(1.0 / 3 - Kappa.Z95 * Math.sqrt(1.0 / 6), within(1e-12));
        assertThat(k.high()).isEqualTo(1.0);
        // the rubric's mean self-agreement: 6 items at 1, 2 at 5/6
        assertThat(p.agreement().figures().get("math / " + FINAL).selfAgreement()).isCloseTo((6 + 2 * 5.0 / 6) / 8, within(1e-12));
        // every other metric: everyone scored 1 everywhere, so chance agreement is 1 and kappa undefined
        assertThat(p.agreement().figures().get("math / intermediate_correctness").kappa().defined()).isFalse();
    }

    @Test
    void theAnswersAreCachedAsOneVerdictAndAnotherSampleCountDoesNotShareIt() throws Exception {
        server = ScriptedVlmServer.start(PanelJudgeTest::script);
        VerdictCache cache = cache();
        JudgeSettings main = main(PricingSettings.free()).build();
        Panel three = panel(main, List.of(), 3, PanelRule.MAJORITY, cache);
        JudgeRequest r = JudgeFixtures.mathText("run-c", "p1", "x = 4");
        JudgeVerdict first = done(three.engine().judge(r));
        assertThat(server.seen()).hasSize(3);
        assertThat(first.getMetrics().get(FINAL)).isEqualTo(1.0);
        assertThat(first.getSelfAgreement().get(FINAL)).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(first.getPanelAnswers()).extracting(PanelAnswer::getSample).containsExactly(1, 2, 3);
        assertThat(cache.get(first.getCacheKey())).isPresent();

        JudgeVerdict again = done(three.engine().judge(JudgeFixtures.mathText("run-c", "p1", "x = 4")));
        assertThat(server.seen()).as("served from the cache").hasSize(3);
        assertThat(again.getCachedFrom()).isEqualTo(first.getRequestId());
        assertThat(again.getPanelAnswers()).hasSize(3);

        // n = 1 over the same cache: its key differs, so the judge is asked (once, without a seed)
        Panel one = panel(main, List.of(), 1, PanelRule.MAJORITY, cache);
        JudgeVerdict single = done(one.engine().judge(JudgeFixtures.mathText("run-c", "p1", "x = 4")));
        assertThat(server.seen()).hasSize(4);
        assertThat(server.seen().get(3).params()).doesNotContainKey("seed");
        assertThat(single.getCacheKey()).isNotEqualTo(first.getCacheKey());
    }

    @Test
    void threeJudgesUnderEachRuleAndFleissKappa() throws Exception {
        server = ScriptedVlmServer.start(PanelJudgeTest::script);
        List<String> others = List.of("gemini,judge-b," + server.geminiBaseUrl() + ",KEY",
                "anthropic,judge-c," + server.anthropicBaseUrl() + ",KEY");
        JudgeSettings main = main(PricingSettings.free()).build();
        Panel majority = panel(main, others, 1, PanelRule.MAJORITY, cache());
        Panel unanimous = panel(main, others, 1, PanelRule.UNANIMOUS, cache());
        Set<Integer> differ = new HashSet<>();
        for (int i = 0; i < A.length; i++) {
            JudgeRequest r = JudgeFixtures.mathText("run-3", "p" + i, "x = 4");
            double m = done(majority.engine().judge(r)).getMetrics().get(FINAL);
            double u = done(unanimous.engine().judge(r)).getMetrics().get(FINAL);
            double ones = A[i] + B[i] + C[i];
            assertThat(m).as("majority, item %d", i).isEqualTo(ones >= 2 ? 1.0 : 0.0);
            assertThat(u).as("unanimous, item %d", i).isEqualTo(ones == 3 ? 1.0 : 0.0);
            if (m != u) {
                differ.add(i);
            }
        }
        // items 2 (B alone says 0) and 7 (A alone says 0) pass by majority, not unanimously
        assertThat(differ).containsExactlyInAnyOrder(2, 7);
        // Fleiss over 8 items x 3 judges: item 0 all 0 (P_i 1), items 2 and 7 two-to-one (P_i 1/3), the rest all 1;
        // P-bar = (1 + 5 + 2/3) / 8 = 5/6; p(0) = 5/24, p(1) = 19/24, P_e = (25 + 361) / 576 = 386/576;
        // kappa = (5/6 - 386/576) / (1 - 386/576) = (480 - 386) / (576 - 386) = 94/190
        Kappa.Estimate k = majority.agreement().figures().get("math / " + FINAL).kappa();
        assertThat(k.method()).isEqualTo("fleiss");
        assertThat(k.items()).isEqualTo(8);
        assertThat(k.kappa()).isCloseTo(94.0 / 190, within(1e-12));
        assertThat(k.low()).isLessThan(k.kappa());
        assertThat(k.high()).isGreaterThan(k.kappa());
        // the Anthropic judge was asked once, without a sample index
        assertThat(server.seen().stream().filter(s -> s.protocol() == JudgeProtocol.ANTHROPIC))
                .allSatisfy(s -> assertThat(s.params()).doesNotContainKey("metadata.user_id"));
    }

    @Test
    void aJudgeWithNoUsableAnswerMakesTheVerdictInvalidNamingIt() throws Exception {
        server = ScriptedVlmServer.start(PanelJudgeTest::script);
        Panel p = panel(main(PricingSettings.free()).build(), List.of("gemini,judge-b," + server.geminiBaseUrl() + ",KEY"), 1,
                PanelRule.MAJORITY, cache());
        JudgeVerdict v = done(p.engine().judge(JudgeFixtures.mathText("run-r", "r0", "x = 4")));
        assertThat(v.getStatus()).isEqualTo("INVALID");
        assertThat(v.getReason()).startsWith("judge gemini/judge-b gave no usable answer in 1 sample(s): the judge refused");
        assertThat(v.getMetrics()).isEmpty();
        // judge-a's answer is kept beside the refusal
        assertThat(v.getPanelAnswers()).extracting(PanelAnswer::getJudge, PanelAnswer::getStatus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("openai/judge-a", "VALID"),
                        org.assertj.core.groups.Tuple.tuple("gemini/judge-b", "INVALID"));
    }

    @Test
    void aJudgeThatMustWaitLeavesTheOthersAnswersAndTheyAreNotAskedAgain() throws Exception {
        server = ScriptedVlmServer.start(PanelJudgeTest::script);
        B_ANSWERS.set(false);
        Panel p = panel(main(PricingSettings.free()).build(), List.of("gemini,judge-b," + server.geminiBaseUrl() + ",KEY"), 1,
                PanelRule.MAJORITY, cache());
        JudgeRequest r = JudgeFixtures.mathText("run-w", "w0", "x = 4");
        JudgeEngine.Tries tries = new JudgeEngine.Tries();
        JudgeEngine.Outcome first = p.engine().judge(r, tries);
        assertThat(first).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class,
                w -> assertThat(w.reason()).startsWith("judge gemini/judge-b: no answer from the judge yet"));
        long askedA = server.seen().stream().filter(s -> s.model().equals("judge-a")).count();
        assertThat(askedA).isEqualTo(1);
        B_ANSWERS.set(true);
        JudgeVerdict v = done(p.engine().judge(r, tries));
        assertThat(v.getStatus()).isEqualTo("VALID");
        assertThat(server.seen().stream().filter(s -> s.model().equals("judge-a")).count()).as("judge-a not asked again").isEqualTo(1);
        assertThat(v.getMetrics().get(FINAL)).isEqualTo(Math.min(A[0], B[0]));
    }

    @Test
    void anthropicSamplesDifferByTheIndexInTheirMetadata() throws Exception {
        server = ScriptedVlmServer.start(PanelJudgeTest::script);
        JudgeSettings main = JudgeSettings.builder(JudgeProtocol.ANTHROPIC, URI.create(server.anthropicBaseUrl()), "judge-c")
                .apiKeyEnv("KEY").quota(q -> q.requests(200, Duration.ofSeconds(1))).build();
        Panel p = panel(main, List.of(), 3, PanelRule.MAJORITY, cache());
        JudgeVerdict v = done(p.engine().judge(JudgeFixtures.mathText("run-an", "p0", "x = 4")));
        assertThat(v.getMetrics().get(FINAL)).isEqualTo(0.0);
        assertThat(server.seen()).extracting(s -> s.params().get("metadata.user_id"))
                .containsExactlyInAnyOrder("mmgr-sample-1", "mmgr-sample-2", "mmgr-sample-3");
        assertThat(server.seen().stream().map(ScriptedVlmServer.Seen::bodySha256).distinct()).hasSize(3);
    }

    @Test
    void aBudgetHoldNamesTheProjectionWhenItIsAlreadyPastTheBudget() throws Exception {
        server = ScriptedVlmServer.start(PanelJudgeTest::script);
        // output at $1000 per million tokens: a call reserves its 40-token cap ($0.04) and is billed 31 tokens ($0.031);
        // $0.05 allows one call, then the second sample waits
        Panel p = panel(main(PricingSettings.of(0.0, 1000.0, 0.05)).build(), List.of(), 3, PanelRule.MAJORITY, cache());
        JudgeEngine.Outcome o = p.engine().judge(JudgeFixtures.mathText("run-b", "p3", "x = 4"));
        assertThat(server.seen()).hasSize(1);
        // projected: 1 request x 1 judge x 3 samples x $0.031 (the one settled call) = $0.093 > $0.05
        assertThat(o).isInstanceOfSatisfying(JudgeEngine.Outcome.Wait.class, w -> assertThat(w.reason())
                .startsWith("judge sample 2 of 3: judge budget of $0.0500 for run run-b is spent")
                .contains("checkpoint ckpt-1 alone is projected at $0.0930 (1 requests x 1 judges x 3 samples x $0.031000 a call"));
        assertThat(p.engine().projection().projectedUsd("run-b", "ckpt-1")).isCloseTo(0.093, within(1e-9));
    }
}
