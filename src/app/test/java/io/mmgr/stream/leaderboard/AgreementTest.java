package io.mmgr.stream.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.AgreementStat;
import io.mmgr.stream.avro.PairCounts;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.RubricMetric;
import io.mmgr.stream.tasks.sudoku.SudokuRubric;
import io.mmgr.stream.tasks.TaskFamily;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class AgreementTest {

    static SampleScore score(String status, Map<String, Double> metrics) {
        return SampleScore.newBuilder().setRunId("r").setModel("veo-3").setCheckpointId("c").setTrainingStep(1).setTask("sudoku")
                .setSampleId("s").setSeed(0).setModality("image").setGenerationId("g").setStatus(status)
                .setMetrics(new HashMap<>(metrics)).setProducedAt(Instant.now()).setScoredAt(Instant.now()).build();
    }

    static Map<String, RubricMetric> sudokuTypes() {
        Map<String, RubricMetric> m = new HashMap<>();
        SudokuRubric.METRICS.forEach(x -> m.put(x.name(), x));
        return m;
    }

    @Test
    void kappaOfAWorkedTable() {
        // 20 both pass, 5 first only, 10 second only, 15 both fail: p_o = 35/50, first passes 25/50,
        // second 30/50, p_e = .5*.6 + .5*.4 = .5, kappa = (.7 - .5) / .5 = .4
        PairCounts c = new PairCounts(20L, 5L, 10L, 15L);
        assertThat(Agreement.percent(c)).isCloseTo(0.7, within(1e-12));
        assertThat(Agreement.kappa(c)).isCloseTo(0.4, within(1e-12));
        // Cohen's large-sample SE: sqrt(p_o (1 - p_o) / (N (1 - p_e)^2)) = sqrt(.21 / 12.5) = .129615...
        AgreementStat stat = Agreement.stats("sudoku", "veo-3", Map.of("judge~human", c), Agreement.Policy.DEFAULT).get("judge~human");
        assertThat(stat.getKappa()).isCloseTo(0.4, within(1e-12));
        assertThat(stat.getKappaLow()).isCloseTo(0.4 - 1.959963984540054 * Math.sqrt(0.0168), within(1e-12));
        assertThat(stat.getKappaHigh()).isCloseTo(0.4 + 1.959963984540054 * Math.sqrt(0.0168), within(1e-12));
        // undefined kappa: no interval either
        AgreementStat allPass = Agreement.stats("sudoku", "veo-3", Map.of("judge~human", new PairCounts(9L, 0L, 0L, 0L)),
                Agreement.Policy.DEFAULT).get("judge~human");
        assertThat(allPass.getKappaLow()).isNull();
        assertThat(allPass.getKappaHigh()).isNull();
        // everyone always passes: chance agreement is 1, kappa undefined
        assertThat(Agreement.kappa(new PairCounts(9L, 0L, 0L, 0L))).isNull();
        assertThat(Agreement.percent(new PairCounts(0L, 0L, 0L, 0L))).isNull();
    }

    @Test
    void fractionsArePairedAtTheirGateEndpointAndBinaryMetricsOnlyAsZeroOrOne() {
        SampleScore s = score("COMPLETE", Map.of(
                "judge.clues_changed", 0.0, "sudoku-ocr.clues_changed", 0.0, "human:a.clues_changed", 1.0,
                // CV passes only at 0: judge 0.0 passes, OCR 0.25 fails
                "judge.constraint_violation", 0.0, "sudoku-ocr.constraint_violation", 0.25,
                // CA passes only at 1: both fail
                "judge.completion_accuracy", 0.5, "sudoku-ocr.completion_accuracy", 0.75,
                // not a verdict: ignored
                "sudoku-ocr.cells_read", 81.0, "judge.cells_read", 81.0));
        Map<String, PairCounts> c = Agreement.ofScore(s, sudokuTypes());
        // judge vs OCR: clues_changed 0/0 (both at the gate's value: both pass), constraint_violation
        // 0 vs 0.25 (judge passes only), completion_accuracy 0.5 vs 0.75 (both fail)
        assertThat(c.get("judge~sudoku-ocr")).isEqualTo(new PairCounts(1L, 1L, 0L, 1L));
        // the annotator says a clue changed (1, failing the gate's 0), judge and OCR say none did
        assertThat(c.get("judge~human")).isEqualTo(new PairCounts(0L, 1L, 0L, 0L));
        assertThat(c.get("sudoku-ocr~human")).isEqualTo(new PairCounts(0L, 1L, 0L, 0L));
        assertThat(c).doesNotContainKey("sudoku-ocr~judge");
        assertThat(Agreement.ofScore(score("PENDING", s.getMetrics()), sudokuTypes())).isEmpty();
    }

    @Test
    void aTwoJudgePanelAddsOneJudgePairComparisonBinarizedAsTheHumanOnes() {
        SampleScore s = score("COMPLETE", Map.of("judge.clues_changed", 0.0, "human:a.clues_changed", 0.0));
        s.setPanelMetrics(new HashMap<>(Map.of(
                // clues_changed passes only at 0: both pass
                "judge:openai/gpt-4.1.clues_changed", 0.0, "judge:gemini/gemini-2.5-pro.clues_changed", 0.0,
                // CV passes only at 0: gemini passes, openai fails
                "judge:openai/gpt-4.1.constraint_violation", 0.25, "judge:gemini/gemini-2.5-pro.constraint_violation", 0.0,
                // CA passes only at 1: openai passes, gemini fails
                "judge:openai/gpt-4.1.completion_accuracy", 1.0, "judge:gemini/gemini-2.5-pro.completion_accuracy", 0.5,
                // not a verdict on one side: no pair
                "judge:openai/gpt-4.1.cells_read", 81.0, "judge:gemini/gemini-2.5-pro.cells_read", 1.0)));
        Map<String, PairCounts> c = Agreement.ofScore(s, sudokuTypes());
        // judges in name order: gemini first, so gemini-only passes count as firstOnly
        assertThat(c.get("judge:gemini/gemini-2.5-pro~judge:openai/gpt-4.1")).isEqualTo(new PairCounts(1L, 1L, 1L, 0L));
        assertThat(c).doesNotContainKey("judge:openai/gpt-4.1~judge:gemini/gemini-2.5-pro");
        // the panel's judges are paired with each other only; the aggregated judge part keeps its human pair
        assertThat(c.keySet()).containsExactlyInAnyOrder("judge~human", "judge:gemini/gemini-2.5-pro~judge:openai/gpt-4.1");
        // p_o = 1/3, both pass 2 of 3: p_e = 4/9 + 1/9 = 5/9, kappa = (1/3 - 5/9) / (4/9) = -1/2
        assertThat(Agreement.kappa(c.get("judge:gemini/gemini-2.5-pro~judge:openai/gpt-4.1"))).isCloseTo(-0.5, within(1e-12));
    }

    @Test
    void addingAndSubtractingIsExact() {
        Map<String, PairCounts> a = Map.of("judge~human", new PairCounts(3L, 1L, 0L, 2L));
        Map<String, PairCounts> b = Map.of("judge~human", new PairCounts(1L, 1L, 0L, 0L));
        Map<String, PairCounts> sum = Agreement.add(a, b, 1);
        assertThat(sum.get("judge~human")).isEqualTo(new PairCounts(4L, 2L, 0L, 2L));
        assertThat(Agreement.add(sum, b, -1)).isEqualTo(a);
        assertThat(Agreement.add(a, a, -1)).isEmpty();
    }

    @Test
    void table5SeedsTheFlagsUntilEnoughLabelsExist() {
        // the families' Table 5, handed in as the app does
        Agreement.Policy policy = new Agreement.Policy(50, 0.90).withPriors(Table5.of(TaskFamily.installed()));
        Map<String, AgreementStat> lastMile = Agreement.stats("nav-last-mile", "Veo 3", Map.of(), policy);
        assertThat(lastMile.get("judge~human").getReliability()).isEqualTo("discount");
        assertThat(lastMile.get("judge~human").getBasis()).contains("53.50%").contains("Veo-3");
        assertThat(lastMile.get("judge~human").getPercentAgreement()).isNull();
        assertThat(Agreement.stats("arc", "veo-3", Map.of(), policy).get("judge~human").getReliability()).isEqualTo("reliable");
        // a model the table does not list gets the task's lowest figure
        assertThat(Agreement.stats("nav-3d-real-world", "magma-8b", Map.of(), policy).get("judge~human").getBasis())
                .contains("21.67%").contains("lowest listed model");
        // Maze's and Sudoku's figures are for the deterministic pipelines
        Map<String, AgreementStat> maze = Agreement.stats("maze", "Veo-3", Map.of(), policy);
        assertThat(maze.get("maze-pixel~human").getReliability()).isEqualTo("reliable");
        assertThat(maze).doesNotContainKey("judge~human");
        assertThat(Agreement.rowReliability(maze, true)).isEqualTo("unknown");
        // live figures take over at the minimum: 50 pairs at 96 % agreement outvote Table 5's 53.5 %
        Map<String, AgreementStat> live = Agreement.stats("nav-last-mile", "veo-3",
                Map.of("judge~human", new PairCounts(30L, 1L, 1L, 18L)), policy);
        assertThat(live.get("judge~human").getReliability()).isEqualTo("reliable");
        assertThat(live.get("judge~human").getBasis()).isEqualTo("live: 50 paired verdicts");
        Map<String, AgreementStat> few = Agreement.stats("nav-last-mile", "veo-3",
                Map.of("judge~human", new PairCounts(30L, 1L, 1L, 17L)), policy);
        assertThat(few.get("judge~human").getReliability()).isEqualTo("discount");
        assertThat(few.get("judge~human").getPairs()).isEqualTo(49);
        assertThat(Agreement.Policy.of(Map.of("mmgr.agreement.min-pairs", "7")).minPairs()).isEqualTo(7);
    }
}
