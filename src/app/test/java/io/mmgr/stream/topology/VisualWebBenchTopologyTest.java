package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.magma.VisualWebBench.Subtask;
import io.mmgr.stream.tasks.magma.VisualWebBenchSamples;
import io.mmgr.stream.tasks.magma.VisualWebBenchSamples.Case;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VisualWebBench through the whole scoring topology (TopologyTestDriver, real catalog and evaluators, the
 * real serdes, the shared TopologyFixture): sample scores carry the per-sample metrics worked out by hand, and each
 * task row's means are the official columns; a dropped WebQA sample counts as scored without entering the
 * mean, and a caption the official code cannot score fails with a dead letter.
 */
@Tag("topology")
class VisualWebBenchTopologyTest {

    @TempDir
    Path dir;

    DriverScorer scorer;

    @AfterEach
    void close() {
        if (scorer != null) {
            scorer.close();
        }
    }

    @Test
    void taskRowsAreTheOfficialColumns() {
        scorer = new DriverScorer("v.", TaskCatalog.load(), EvaluatorRegistry.load(), dir);
        List<Case> cases = VisualWebBenchSamples.cases();
        cases.forEach(c -> scorer.item(c.item()));
        scorer.item(VisualWebBenchSamples.failing().item());
        for (Case c : cases) {
            scorer.publish(c.event("run", "ckpt-1", 1000));
        }
        scorer.publish(VisualWebBenchSamples.failing().event("run", "ckpt-1", 1000));

        Map<SampleKey, SampleScore> byKey = scorer.scores();
        for (Case c : cases) {
            SampleScore s = byKey.get(new SampleKey("run", "ckpt-1", c.taskId(), c.sampleId(), 0));
            assertThat(s.getStatus()).as(c.sampleId()).isEqualTo("COMPLETE");
            c.expected().forEach((metric, v) -> assertThat(s.getMetrics()).as(c.sampleId() + " " + metric)
                    .containsEntry("visualwebbench." + metric, v));
            Double headline = c.expected().get(c.task().headline());
            assertThat(s.getPrimary()).as(c.sampleId()).isEqualTo(headline == null ? null : headline / 100);
        }
        SampleScore failed = byKey.get(new SampleKey("run", "ckpt-1", "visualwebbench-web_caption", "c3", 0));
        assertThat(failed.getStatus()).isEqualTo("FAILED");
        assertThat(failed.getErrors().get("visualwebbench")).contains("Hypothesis is empty.");
        assertThat(scorer.deadLetters()).anySatisfy(d -> assertThat(d.getReason()).contains("Hypothesis is empty."));

        Map<LeaderboardKey, LeaderboardRow> rows = scorer.rows();
        for (Subtask task : Subtask.values()) {
            LeaderboardRow row = rows.get(new LeaderboardKey("run", "ckpt-1", "visualwebbench-" + task.id()));
            Map<String, Double> column = VisualWebBenchSamples.column(cases, task);
            column.forEach((metric, v) -> assertThat(row.getMetrics().get("visualwebbench." + metric).getMean())
                    .as(task.id() + " " + metric).isCloseTo(v, within(1e-9)));
            assertThat(row.getPrimaryRate()).as(task.id()).isCloseTo(column.get(task.headline()) / 100, within(1e-12));
        }
        LeaderboardRow webqa = rows.get(new LeaderboardKey("run", "ckpt-1", "visualwebbench-webqa"));
        assertThat(webqa.getSamplesScored()).isEqualTo(3);
        assertThat(webqa.getPrimaryCount()).as("the dropped sample has no primary").isEqualTo(2);
        assertThat(webqa.getMetrics().get("visualwebbench.f1").getCount()).isEqualTo(2);
        LeaderboardRow caption = rows.get(new LeaderboardKey("run", "ckpt-1", "visualwebbench-web_caption"));
        assertThat(caption.getSamplesFailed()).isEqualTo(1);
        assertThat(caption.getSamplesExpected()).isEqualTo(3);
    }
}
