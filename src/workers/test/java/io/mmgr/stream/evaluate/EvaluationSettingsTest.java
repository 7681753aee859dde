package io.mmgr.stream.evaluate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.contract.CostClass;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class EvaluationSettingsTest {

    @Test
    void classesGivenReplaceTheirDefaultsAndTheOthersKeepThem() {
        EvaluationSettings s = EvaluationSettings.DEFAULT
                .withThreads(EvaluationSettings.parseThreads(" video=3 ,LIGHT=4"))
                .withDeadlines(EvaluationSettings.parseDeadlines("image=PT45S"));
        assertThat(s.threads()).containsEntry(CostClass.LIGHT, 4).containsEntry(CostClass.IMAGE, 2).containsEntry(CostClass.VIDEO, 3);
        assertThat(s.deadlines()).containsEntry(CostClass.IMAGE, Duration.ofSeconds(45))
                .containsEntry(CostClass.VIDEO, Duration.ofMinutes(5)).containsEntry(CostClass.LIGHT, Duration.ofSeconds(30));
        assertThat(s.bound(CostClass.VIDEO)).as("videos taken in before the video partitions pause").isEqualTo(6);
        assertThat(EvaluationSettings.parseThreads(null)).isEmpty();
        assertThat(EvaluationSettings.parseDeadlines(" ")).isEmpty();
    }

    @Test
    void whatCannotBeUsedIsRefusedWithTheReason() {
        assertThatThrownBy(() -> EvaluationSettings.parseThreads("audio=2")).hasMessageContaining("unknown cost class 'audio'");
        assertThatThrownBy(() -> EvaluationSettings.parseThreads("light")).hasMessageContaining("CLASS=VALUE");
        assertThatThrownBy(() -> EvaluationSettings.parseThreads("light=two")).hasMessageContaining("not a thread count");
        assertThatThrownBy(() -> EvaluationSettings.parseDeadlines("video=5m")).hasMessageContaining("ISO-8601");
        assertThatThrownBy(() -> EvaluationSettings.DEFAULT.withThreads(EvaluationSettings.parseThreads("image=0")))
                .hasMessageContaining("at least one thread");
        assertThatThrownBy(() -> EvaluationSettings.DEFAULT.withDeadlines(EvaluationSettings.parseDeadlines("light=PT0S")))
                .hasMessageContaining("must be positive");
    }

    @Test
    void deadlinesShowInReasonsAsWrittenNotAsMeasured() {
        assertThat(EvaluationWorker.human(Duration.ofMinutes(5))).isEqualTo("5 min");
        assertThat(EvaluationWorker.human(Duration.ofSeconds(30))).isEqualTo("30 s");
        assertThat(EvaluationWorker.human(Duration.ofMillis(2500))).isEqualTo("2.5 s");
    }

    @Test
    void anEvaluationWaitingForItsArtifactsStoreIsTriedAgainAfterAPauseThatDoublesUpTo30Seconds() {
        assertThat(java.util.stream.IntStream.range(0, 8).mapToObj(EvaluationWorker::artifactRetry).map(Duration::toSeconds))
                .containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L);
        assertThat(EvaluationWorker.artifactRetry(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(30));
    }
}
