package io.mmgr.stream.topology;

import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.contract.SampleKeys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.AgreementStat;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.PanelAnswer;
import io.mmgr.stream.avro.SampleKey;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agreement on the leaderboard: the judge, the echo evaluator and a human annotator score the same
 * metric of four samples of one model over two checkpoints; the 2x2 tables and kappas are worked out
 * here by hand. A relabel replaces its pair instead of adding one; another model keeps its own counts.
 */
@Tag("topology")
class AgreementTopologyTest {

    static final String TASK = EchoTask.JUDGED_TASK;

    @TempDir
    Path stateDir;
    TopologyFixture fx;
    TopologyTestDriver driver;
    Topics topics;
    TestInputTopic<SampleKey, JudgeVerdict> verdicts;
    TestInputTopic<SampleKey, HumanLabel> labels;
    TestOutputTopic<SampleKey, JudgeRequest> requests;
    TestOutputTopic<LeaderboardKey, LeaderboardRow> leaderboard;
    final Map<LeaderboardKey, LeaderboardRow> rows = new HashMap<>();

    void start() {
        fx = TopologyFixture.builder("a.", stateDir)
                .settings(s -> s.withApplicationId("agreement-test").withPartitions(2).withJudge(true)
                        .withKafkaOverrides(Map.of("mmgr.agreement.min-pairs", "4")))
                .scorer();
        driver = fx.driver;
        topics = fx.topics;
        verdicts = fx.input(topics.judgeVerdicts);
        labels = fx.input(topics.humanLabels);
        requests = fx.output(topics.judgeRequests);
        leaderboard = fx.output(topics.leaderboard);
    }

    @AfterEach
    void close() {
        if (fx != null) {
            fx.close();
        }
    }

    /** One sample: the echo evaluator's, the judge's and the annotator's verdict on "agree". */
    SampleKey sample(String model, String checkpoint, String sample, double echo, double judge, double human) {
        fx.item(Fixtures.item(TASK, sample, 1));
        GenerationEvent e = GenerationEvent.newBuilder(Fixtures.event("run", checkpoint, 1, TASK, sample, 0,
                Map.of("ok", 1.0, "agree", echo))).setModel(model).build();
        fx.publish(e);
        var request = requests.readKeyValue();
        verdicts.pipeInput(request.key, Fixtures.verdict(request.value.getRequestId(), request.value.getGenerationId(), "VALID", "1",
                Map.of("agree", judge)));
        label(request.key, human);
        return request.key;
    }

    void label(SampleKey key, double human) {
        labels.pipeInput(key, HumanLabel.newBuilder().setAnnotator("ann-1").setMetrics(Map.of("agree", human))
                .setLabeledAt(Instant.now()).build());
    }

    LeaderboardRow row(String checkpoint) {
        rows.putAll(leaderboard.readKeyValuesToMap());
        return rows.get(new LeaderboardKey("run", checkpoint, TASK));
    }

    @Test
    void agreementPerTaskAndModelRidesOnTheRowsAndARelabelReplacesItsPair() throws Exception {
        start();
        SampleKey s1 = sample("model-x", "c1", "s1", 1, 1, 1);
        SampleKey s2 = sample("model-x", "c1", "s2", 0, 1, 0);
        sample("model-x", "c1", "s3", 0, 0, 0);
        sample("model-x", "c2", "s4", 1, 0, 1);

        // judge vs echo and judge vs human: one pair in each cell -> 50 %, kappa 0
        // echo vs human: two both-pass, two both-fail -> 100 %, kappa 1
        for (String checkpoint : List.of("c1", "c2")) {
            LeaderboardRow r = row(checkpoint);
            AgreementStat judgeHuman = r.getAgreement().get("judge~human");
            assertThat(judgeHuman.getPairs()).isEqualTo(4);
            assertThat(judgeHuman.getPercentAgreement()).isEqualTo(0.5);
            assertThat(judgeHuman.getKappa()).isCloseTo(0.0, within(1e-12));
            assertThat(judgeHuman.getReliability()).isEqualTo("discount");
            assertThat(judgeHuman.getBasis()).startsWith("live: 4");
            assertThat(r.getAgreement().get("judge~echo").getPercentAgreement()).isEqualTo(0.5);
            AgreementStat echoHuman = r.getAgreement().get("echo~human");
            assertThat(echoHuman.getPercentAgreement()).isEqualTo(1.0);
            assertThat(echoHuman.getKappa()).isCloseTo(1.0, within(1e-12));
            assertThat(echoHuman.getReliability()).isEqualTo("reliable");
            assertThat(r.getReliability()).isEqualTo("discount");
        }

        // the annotator changes their mind on s2 (0 -> 1): the pair is replaced, not added
        label(s2, 1);
        LeaderboardRow after = row("c1");
        AgreementStat judgeHuman = after.getAgreement().get("judge~human");
        assertThat(judgeHuman.getPairs()).isEqualTo(4);
        assertThat(judgeHuman.getPercentAgreement()).isEqualTo(0.75);
        // (j,h): (1,1) (1,1) (0,0) (0,1): p_o 3/4, judge passes 1/2, human 3/4, p_e 1/2*3/4 + 1/2*1/4 = 1/2 -> kappa 1/2
        assertThat(judgeHuman.getKappa()).isCloseTo(0.5, within(1e-12));
        assertThat(row("c2").getAgreement().get("judge~human").getPercentAgreement()).isEqualTo(0.75);

        // another model: its own counts, too few for a live flag, no Table 5 figure for this task
        sample("model-y", "c9", "s5", 1, 1, 1);
        LeaderboardRow other = row("c9");
        assertThat(other.getAgreement().get("judge~human").getPairs()).isEqualTo(1);
        assertThat(other.getAgreement().get("judge~human").getReliability()).isEqualTo("unknown");
        assertThat(row("c1").getAgreement().get("judge~human").getPairs()).isEqualTo(4);
        // the all-tasks row carries none
        assertThat(rows.get(new LeaderboardKey("run", "c1", SampleKeys.ALL_TASKS)).getAgreement()).isEmpty();
        assertThat(s1).isNotNull();
    }

    /** One sample judged by a two-judge panel: each judge's samples on "agree"; the verdict is the panel's majority. */
    void panelSample(String sample, List<Double> gemini, List<Double> openai) {
        fx.item(Fixtures.item(TASK, sample, 1));
        fx.publish(GenerationEvent.newBuilder(Fixtures.event("run", "p1", 1, TASK, sample, 0, Map.of("ok", 1.0, "agree", 1.0)))
                .setModel("model-p").build());
        var request = requests.readKeyValue();
        List<PanelAnswer> answers = new ArrayList<>();
        for (int i = 0; i < gemini.size(); i++) {
            answers.add(new PanelAnswer("gemini/gemini-2.5-pro", i + 1, "VALID", Map.of("agree", gemini.get(i)), null));
        }
        for (int i = 0; i < openai.size(); i++) {
            answers.add(new PanelAnswer("openai/gpt-4.1", i + 1, "VALID", Map.of("agree", openai.get(i)), null));
        }
        JudgeVerdict v = Fixtures.verdict(request.value.getRequestId(), request.value.getGenerationId(), "VALID", "1",
                Map.of("agree", 0.0));
        v.setPanelRule("unanimous");
        v.setPanelAnswers(answers);
        verdicts.pipeInput(request.key, v);
    }

    @Test
    void aTwoJudgePanelsAgreementRidesOnTheRowWithItsInterval() throws Exception {
        start();
        // each judge's answer is the majority of its samples: gemini 1, 1, 0, 0 and openai 1, 0, 0, 0
        panelSample("p1", List.of(1.0, 1.0, 0.0), List.of(1.0, 1.0, 1.0));
        panelSample("p2", List.of(1.0), List.of(0.0));
        panelSample("p3", List.of(0.0, 0.0, 1.0), List.of(0.0, 1.0, 0.0));
        panelSample("p4", List.of(0.0), List.of(0.0));

        AgreementStat pair = row("p1").getAgreement().get("judge:gemini/gemini-2.5-pro~judge:openai/gpt-4.1");
        assertThat(pair).isNotNull();
        assertThat(pair.getPairs()).isEqualTo(4);
        // (g,o): (1,1) (1,0) (0,0) (0,0): p_o 3/4, gemini passes 1/2, openai 1/4, p_e 1/8 + 3/8 = 1/2 -> kappa 1/2
        assertThat(pair.getPercentAgreement()).isEqualTo(0.75);
        assertThat(pair.getKappa()).isCloseTo(0.5, within(1e-12));
        // SE = sqrt(3/4 * 1/4 / (4 * 1/4)) = sqrt(3/16); the upper end clips at 1
        assertThat(pair.getKappaLow()).isCloseTo(0.5 - 1.959963984540054 * Math.sqrt(3.0 / 16), within(1e-12));
        assertThat(pair.getKappaHigh()).isEqualTo(1.0);
        assertThat(pair.getReliability()).isEqualTo("discount");
        // no judge-to-judge pair in the other direction, and none with the echo evaluator
        assertThat(row("p1").getAgreement().keySet()).noneMatch(k -> k.startsWith("judge:openai") || k.contains("judge:gemini/gemini-2.5-pro~echo"));
    }
}
