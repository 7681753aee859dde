package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.magma.VisualWebBench.Subtask;
import io.mmgr.stream.tasks.magma.VisualWebBenchSamples;
import io.mmgr.stream.tasks.magma.VisualWebBenchSamples.Case;
import io.mmgr.stream.topology.ScorerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VisualWebBench on a real broker: the seven tasks' items and one checkpoint's raw outputs go in, the task
 * rows come out with the official columns (from per-sample values worked by hand), a caption the official
 * code cannot score is a failed sample with its dead letter, and a re-sent answer replaces its contribution.
 */
@Tag("integration")
class VisualWebBenchEndToEndTest {

    static final String RUN = "run-vwb";
    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;

    static ScorerHarness h;

    @BeforeAll
    static void start() throws Exception {
        h = new ScorerHarness(dir, ScorerSettings.defaults().withPrefix("vwb.").withPartitions(3));
        List<Case> all = new ArrayList<>(VisualWebBenchSamples.cases());
        all.add(VisualWebBenchSamples.failing());
        all.forEach(c -> h.publish(c.item()));
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    static long scored(Map<LeaderboardKey, LeaderboardRow> board, Subtask task) {
        LeaderboardRow row = board.get(new LeaderboardKey(RUN, "ckpt-1", "visualwebbench-" + task.id()));
        return row == null ? -1 : row.getSamplesScored();
    }

    @Test
    void theTaskRowsAreTheOfficialColumnsAndAResentAnswerReplacesItsOwn() {
        List<Case> cases = new ArrayList<>(VisualWebBenchSamples.cases());
        cases.forEach(c -> h.publish(c.event(RUN, "ckpt-1", 1000)));
        h.publish(VisualWebBenchSamples.failing().event(RUN, "ckpt-1", 1000));

        Map<SampleKey, SampleScore> scores = await(h::scores, s -> s.size() == cases.size() + 1, WAIT, "all sample scores");
        for (Case c : cases) {
            SampleScore s = scores.get(new SampleKey(RUN, "ckpt-1", c.taskId(), c.sampleId(), 0));
            c.expected().forEach((metric, v) -> assertThat(s.getMetrics()).as(c.sampleId()).containsEntry("visualwebbench." + metric, v));
        }
        assertThat(scores.get(new SampleKey(RUN, "ckpt-1", "visualwebbench-web_caption", "c3", 0)).getStatus()).isEqualTo("FAILED");
        await(h::deadLetters, d -> d.stream().anyMatch(l -> l.getReason().contains("Hypothesis is empty.")), WAIT,
                "the failed caption's dead letter");

        Map<LeaderboardKey, LeaderboardRow> board = await(h::leaderboard, b -> scored(b, Subtask.WEB_CAPTION) == 3
                && scored(b, Subtask.WEBQA) == 3 && scored(b, Subtask.HEADING_OCR) == 2 && scored(b, Subtask.ELEMENT_OCR) == 2
                && scored(b, Subtask.ELEMENT_GROUND) == 3 && scored(b, Subtask.ACTION_PREDICTION) == 2
                && scored(b, Subtask.ACTION_GROUND) == 2, WAIT, "the seven task rows");
        for (Subtask task : Subtask.values()) {
            LeaderboardRow row = board.get(new LeaderboardKey(RUN, "ckpt-1", "visualwebbench-" + task.id()));
            VisualWebBenchSamples.column(cases, task).forEach((metric, v) ->
                    assertThat(row.getMetrics().get("visualwebbench." + metric).getMean()).as(task.id() + " " + metric)
                            .isCloseTo(v, within(1e-9)));
        }

        // element_ground g2 answered "B\n" (no answer); sent again as "B" it is right: 3 of 3
        Case fixed = cases.stream().filter(c -> c.sampleId().equals("g2")).findFirst().orElseThrow();
        h.publish(new Case(fixed.task(), "g2", fixed.truth(), "B", fixed.expected(), false).event(RUN, "ckpt-1", 1000));
        LeaderboardKey key = new LeaderboardKey(RUN, "ckpt-1", "visualwebbench-element_ground");
        LeaderboardRow row = await(h::leaderboard, b -> b.get(key).getMetrics().get("visualwebbench.accuracy").getMean() > 99.9,
                WAIT, "the re-scored answer").get(key);
        assertThat(row.getMetrics().get("visualwebbench.accuracy").getMean()).isEqualTo(100.0);
        assertThat(row.getSamplesScored()).isEqualTo(3);
        assertThat(row.getPrimaryRate()).isEqualTo(1.0);
    }
}
