package io.mmgr.stream.evaluate;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.bench.MagmaWorkload;
import io.mmgr.stream.it.LogCapture;
import io.mmgr.stream.it.ScorerHarness;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.maze.MazePixelEvaluator;
import io.mmgr.stream.tasks.maze.MazeVideos;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heavy work against a real broker and a real scorer: a burst of real maze videos (generated answers,
 * known to be correct) whose evaluation adds up to more than twice {@code max.poll.interval.ms}, with
 * light Mind2Web samples interleaved; and evaluations that run past their deadline.
 */
@Tag("integration")
@Tag("alone")
class HeavyWorkTest {

    /** Short, so that the videos' evaluation time is a multiple of it; every consumer of the scorer gets it. */
    static final Duration POLL_INTERVAL = Duration.ofSeconds(8);
    static final int VIDEO_FRAMES = 240;
    static final Duration WAIT = Duration.ofMinutes(3);
    /** What shows in the consumers' and Streams' logs when a member is evicted or a group rebalances. */
    static final List<String> REBALANCE_SIGNS = List.of("poll timeout has expired", "(Re-)joining group",
            "Request joining group due to", "sending LeaveGroup request", "to REBALANCING", "to PARTITIONS_REVOKED",
            "Lost previously assigned partitions");

    @TempDir
    Path dir;

    ScorerSettings settings(String prefix, Path artifacts) {
        return ScorerSettings.defaults().withPrefix(prefix).withApplicationId(prefix + "scorer").withPartitions(3)
                .withArtifactRoots(List.of(artifacts))
                .withKafkaOverrides(Map.of("max.poll.interval.ms", String.valueOf(POLL_INTERVAL.toMillis())));
    }

    @Test
    void aBurstOfVideosEvictsNoMemberAndLightSamplesAreNotQueuedBehindIt() throws Exception {
        Path artifacts = Files.createDirectories(dir.resolve("artifacts"));
        List<BenchmarkItem> mazes = MazeVideos.items(artifacts.resolve("bench"), 4, 31);
        List<Path> videos = new ArrayList<>();
        for (BenchmarkItem m : mazes) {
            videos.add(MazeVideos.correctAnswer(m, VIDEO_FRAMES, artifacts.resolve("video-" + m.getSampleId() + ".mp4")));
        }
        MagmaWorkload light = new MagmaWorkload(60, 5, 7);
        EvaluationSettings evaluation = EvaluationSettings.DEFAULT.withPolling(20, POLL_INTERVAL);
        ScorerApp.Options options = ScorerApp.Options.defaults().withEvaluation(evaluation);
        try (ScorerHarness h = new ScorerHarness(dir.resolve("stack"), settings("burst.", artifacts), options)) {
            mazes.forEach(h::publish);
            light.items().forEach(h::publish);
            // warm-up: the groups have formed and both kinds of work have run once before the burst
            h.publish(MazeVideos.event(mazes.get(0), "warm", "c0", 0, videos.get(0)));
            h.publish(light.event("warm", 0));
            await(h::scores, s -> s.size() == 2, WAIT, "the warm-up samples");

            // sized from the warm-up video so the burst outweighs max.poll.interval.ms on a quiet machine
            // as on a busy one (a fixed count was too light once the machine was idle); the warm-up ran
            // cold, up to 3x slower than the burst's videos once frames decoded straight to colour codes
            // (36 videos then added up to 14.4 s on a quiet machine) and up to 4x since the frame diff (60 videos
            // added up to 15.7 s in CI), so a factor of 12 over the 2x needed
            long warmMicros = Math.max(1, evaluationMicros(h, MazePixelEvaluator.ID, "warm"));
            int videoCount = (int) Math.min(160, Math.max(48, 12 * POLL_INTERVAL.toNanos() / 1000 / warmMicros + 1));
            int lightPerVideo = 5;
            List<SampleKey> videoKeys = new ArrayList<>();
            List<SampleKey> lightKeys = new ArrayList<>();
            long videoMicros;
            try (LogCapture log = new LogCapture(Level.INFO)) {
                long n = 0;
                for (int v = 0; v < videoCount; v++) {
                    GenerationEvent video = MazeVideos.event(mazes.get(v % mazes.size()), "burst", "c1", v, videos.get(v % videos.size()));
                    h.publish(video);
                    videoKeys.add(SampleKeys.of(video));
                    for (int i = 0; i < lightPerVideo; i++) {
                        GenerationEvent e = light.event("burst", n++);
                        h.publish(e);
                        lightKeys.add(SampleKeys.of(e));
                    }
                }
                int expected = 2 + videoKeys.size() + lightKeys.size();
                await(h::scores, s -> s.size() == expected, WAIT, "every sample of the burst scored");

                videoMicros = evaluationMicros(h, MazePixelEvaluator.ID, "burst");
                System.out.printf("burst: %d videos evaluated in %.1f s in all (max.poll.interval.ms %d), %d light samples%n",
                        videoCount, videoMicros / 1e6, POLL_INTERVAL.toMillis(), lightKeys.size());
                assertThat(Duration.ofNanos(videoMicros * 1000)).as("the videos' evaluation time, all added up")
                        .isGreaterThan(POLL_INTERVAL.multipliedBy(2));

                String text = log.text();
                for (String sign : REBALANCE_SIGNS) {
                    assertThat(text).as("log lines of consumers and Streams during the burst").doesNotContain(sign);
                }
            }

            Map<SampleKey, List<SampleScore>> records = scoreRecords(h);
            assertThat(records.keySet()).containsAll(videoKeys).containsAll(lightKeys);
            Map<String, Integer> twice = new TreeMap<>();
            records.forEach((k, v) -> {
                if (v.size() != 1) {
                    twice.put(SampleKeys.ref(k), v.size());
                }
            });
            assertThat(twice).as("samples with more than one score record").isEmpty();
            for (SampleKey k : videoKeys) {
                SampleScore s = records.get(k).get(0);
                // maze's judged half is unavailable without a judge: PARTIAL, the pixel pipeline's primary
                assertThat(s.getStatus()).as("video %s", SampleKeys.ref(k)).isEqualTo("PARTIAL");
                assertThat(s.getErrors()).as("video %s", SampleKeys.ref(k)).isEmpty();
                assertThat(s.getPrimary()).as("a correct answer video passes").isEqualTo(1.0);
            }
            List<Long> latencies = new ArrayList<>();
            for (SampleKey k : lightKeys) {
                SampleScore s = records.get(k).get(0);
                assertThat(s.getStatus()).isEqualTo("COMPLETE");
                latencies.add(Duration.between(s.getProducedAt(), s.getScoredAt()).toMillis());
            }
            // light samples are evaluated at intake, on the stream thread, and never reach the worker: their
            // results travel on the plan, none is on cv-results (the videos' are)
            java.util.Set<SampleKey> withResults = new java.util.HashSet<>();
            for (ConsumerRecord<byte[], byte[]> r : h.records(h.topics().cvResults.name())) {
                withResults.add(h.topics().cvResults.keySerde().deserializer().deserialize(r.topic(), r.key()));
            }
            assertThat(withResults).as("samples with a worker result").containsAll(videoKeys).doesNotContainAnyElementsOf(lightKeys);
            long p95 = percentile(latencies, 0.95);
            System.out.printf("burst: light event -> score p50 %d ms, p95 %d ms, max %d ms (load average %s)%n",
                    percentile(latencies, 0.5), p95, percentile(latencies, 1.0), loadAverage());
            // Queued behind the videos, the burst's later light samples would wait for nearly all of them
            // (p95 close to the videos' summed evaluation time); evaluated at intake they wait for none. The
            // first bound is a share of that time, measured in the same run, so it holds whatever the load;
            // the second is issue 12's own (2 s), which light work at intake meets even on a busy machine
            // (before intake evaluated it, at the worker's light pool, 2 s failed at loads of 20-36).
            long videoMillis = videoMicros / 1000;
            assertThat(p95).as("light samples' event -> score p95, ms, against the videos' %d ms", videoMillis)
                    .isLessThan(videoMillis / 8);
            assertThat(Duration.ofMillis(p95)).as("light samples' event -> score p95 (load average %s)", loadAverage())
                    .isLessThan(Duration.ofSeconds(2));
            assertThat(h.scorer().evaluation().loop().sessions()).as("worker sessions (a failure restarts one)").isEqualTo(1);
        }
    }

    @Test
    void anEvaluationPastItsDeadlineFailsWithTheReasonAndTheStreamGoesOn() throws Exception {
        Path artifacts = Files.createDirectories(dir.resolve("artifacts"));
        List<BenchmarkItem> mazes = MazeVideos.items(artifacts.resolve("bench"), 1, 33);
        // far more frames than can be decoded and scored within the deadline, on any machine
        Path longVideo = MazeVideos.correctAnswer(mazes.get(0), 1200, artifacts.resolve("long.mp4"));
        MagmaWorkload light = new MagmaWorkload(10, 5, 9);
        EvaluationSettings evaluation = EvaluationSettings.DEFAULT.withDeadlines(Map.of(CostClass.VIDEO, Duration.ofMillis(100)));
        ScorerApp.Options options = ScorerApp.Options.defaults().withEvaluation(evaluation);
        try (ScorerHarness h = new ScorerHarness(dir.resolve("stack"), settings("deadline.", artifacts), options)) {
            mazes.forEach(h::publish);
            light.items().forEach(h::publish);
            List<SampleKey> videos = new ArrayList<>();
            List<SampleKey> lights = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                GenerationEvent v = MazeVideos.event(mazes.get(0), "deadline", "c1", i, longVideo);
                h.publish(v);
                videos.add(SampleKeys.of(v));
                GenerationEvent l = light.event("deadline", i);
                h.publish(l);
                lights.add(SampleKeys.of(l));
            }
            Map<SampleKey, SampleScore> scores = await(h::scores, s -> s.size() == 6, WAIT, "every sample scored");
            for (SampleKey k : videos) {
                SampleScore s = scores.get(k);
                assertThat(s.getStatus()).isEqualTo("FAILED");
                assertThat(s.getErrors()).containsEntry(MazePixelEvaluator.ID,
                        "evaluation did not finish within its deadline of 0.1 s (video evaluations)");
            }
            for (SampleKey k : lights) {
                assertThat(scores.get(k).getStatus()).as("light samples are scored meanwhile").isEqualTo("COMPLETE");
            }
            assertThat(h.deadLetters()).filteredOn(l -> l.getStage().equals("evaluate:" + MazePixelEvaluator.ID))
                    .extracting(l -> l.getReason())
                    .containsOnly("evaluation did not finish within its deadline of 0.1 s (video evaluations)")
                    .hasSize(3);
            EvaluationWorker worker = h.scorer().evaluation();
            assertThat(worker.deadlineFailures(CostClass.VIDEO)).isEqualTo(3);
            // the decoder stops between frames when interrupted: the abandoned threads come back
            await(() -> worker.stuckThreads(CostClass.VIDEO), n -> n == 0, Duration.ofSeconds(60), "abandoned threads returning");

            // the queue moves on: a sample published now is failed (or scored) again, not stuck behind the others
            GenerationEvent after = MazeVideos.event(mazes.get(0), "deadline", "c2", 0, longVideo);
            h.publish(after);
            await(h::scores, s -> s.containsKey(SampleKeys.of(after)), WAIT, "a video published after the failures");
        }
    }

    /** Microseconds the evaluator's results of this run took, summed, from cv-results. */
    static long evaluationMicros(ScorerHarness h, String evaluator, String runId) {
        Topics t = h.topics();
        long sum = 0;
        for (ConsumerRecord<byte[], byte[]> r : h.records(t.cvResults.name())) {
            SampleKey k = t.cvResults.keySerde().deserializer().deserialize(r.topic(), r.key());
            DeterministicResult d = t.cvResults.valueSerde().deserializer().deserialize(r.topic(), r.value());
            if (k.getRunId().equals(runId) && d.getEvaluator().equals(evaluator)) {
                sum += d.getDurationMicros();
            }
        }
        return sum;
    }

    static Map<SampleKey, List<SampleScore>> scoreRecords(ScorerHarness h) {
        Topics t = h.topics();
        Map<SampleKey, List<SampleScore>> out = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : h.records(t.sampleScores.name())) {
            out.computeIfAbsent(t.sampleScores.keySerde().deserializer().deserialize(r.topic(), r.key()), k -> new ArrayList<>())
                    .add(t.sampleScores.valueSerde().deserializer().deserialize(r.topic(), r.value()));
        }
        return out;
    }

    static long percentile(List<Long> values, double q) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Long::compare);
        return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * q) - 1));
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
