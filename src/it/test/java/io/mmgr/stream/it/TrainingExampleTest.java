package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.ComparisonResult;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.topology.status.CheckpointStatusSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked examples against the in-process broker, registry and scorer (one stack for both, each its own
 * run). examples/training/train_mind2web.py: a numpy web agent trains for real, submits every checkpoint's
 * Mind2Web steps, waits for the verdict and keeps the checkpoint the scorer ranks best; its data goes bad
 * halfway (--bad-data-from), so the best checkpoint is not the last one and the scorer raises an alert.
 * examples/training/train_torch.py: a PyTorch agent trains on without waiting, acts on each verdict as it
 * arrives (Evaluator.poll), keeps the best and stops early by the scorer's comparisons.
 */
@Tag("integration")
class TrainingExampleTest {

    static final Path EXAMPLE = Path.of("examples", "training").toAbsolutePath();
    static final String RUN = "webagent-test";
    static final String TORCH_RUN = "torch-test";
    static final int PATIENCE = 3;
    /** The bound for the whole example; it takes a fraction of it (see the printed time and load). */
    static final Duration LIMIT = Duration.ofMinutes(2);

    @TempDir
    static Path dir;
    static ScorerHarness h;

    @BeforeAll
    static void start() throws Exception {
        PythonRunner.requireClient();
        h = new ScorerHarness(dir.resolve("stack"), ScorerSettings.defaults().withPrefix("train.").withPartitions(3)
                .withKafkaOverrides(Map.of(CheckpointStatusSettings.INTERVAL_KEY, "200")));
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void theExampleTrainsWaitsForEachVerdictAndKeepsTheCheckpointTheScorerRanksBest() throws Exception {
        Path out = dir.resolve("run");
        PythonRunner.Result r = PythonRunner.run(List.of(EXAMPLE.resolve("train_mind2web.py").toString(),
                "--bootstrap-servers", h.kafka.bootstrapServers(), "--schema-registry-url", h.registry.url(),
                "--topic-prefix", "train.", "--run-id", RUN, "--out", out.toString(), "--bad-data-from", "150"),
                Map.of(), EXAMPLE, LIMIT);
        System.out.printf("worked example: exit %d in %.1f s (load average %s)%n%s%n", r.code(), r.took().toMillis() / 1000.0,
                Files.readString(Path.of("/proc/loadavg")).trim(), r.out());
        assertThat(r.code()).as("the example finished within %s:%n%s", LIMIT, r.out()).isZero();
        JsonNode summary = JsonAvro.MAPPER.readTree(out.resolve("summary.json").toFile());

        // the scorer's own ranking, from the leaderboard topic: highest all-tasks rate, the earliest of equals
        List<LeaderboardRow> rows = new ArrayList<>(h.leaderboard().values().stream()
                .filter(x -> x.getRunId().equals(RUN) && x.getTask().equals(SampleKeys.ALL_TASKS)).toList());
        assertThat(rows).hasSize(7);
        rows.sort(Comparator.comparing(LeaderboardRow::getPrimaryRate).reversed().thenComparing(LeaderboardRow::getTrainingStep));
        LeaderboardRow best = rows.get(0);
        assertThat(summary.get("best").asText()).isEqualTo(best.getCheckpointId());
        assertThat(summary.get("bestRate").asDouble()).isEqualTo(best.getPrimaryRate());

        List<JsonNode> checkpoints = new ArrayList<>();
        summary.get("checkpoints").forEach(checkpoints::add);
        assertThat(checkpoints).hasSize(7).allSatisfy(c -> assertThat(c.get("status").asText()).isEqualTo("complete"));
        for (JsonNode c : checkpoints) {
            LeaderboardRow row = h.leaderboard().get(new LeaderboardKey(RUN, c.get("checkpointId").asText(), SampleKeys.ALL_TASKS));
            assertThat(c.get("primaryRate").asDouble()).isEqualTo(row.getPrimaryRate());
            // the scorer measures what the agent does: Mind2Web's step success rate, as the example computes it too
            assertThat(row.getPrimaryRate()).as(c.toString()).isCloseTo(c.get("localEstimate").asDouble(), within(1e-9));
        }
        // it learned: the untrained agent is near chance, the best far above it; the bad data made the last worse
        double first = checkpoints.get(0).get("primaryRate").asDouble();
        double last = checkpoints.get(checkpoints.size() - 1).get("primaryRate").asDouble();
        assertThat(first).isLessThan(0.2);
        assertThat(best.getPrimaryRate()).isGreaterThan(first + 0.4);
        assertThat(best.getTrainingStep()).isLessThanOrEqualTo(150);
        assertThat(last).isLessThan(best.getPrimaryRate() - 0.1);
        // the checkpoint kept is the best one's file
        assertThat(Files.readAllBytes(out.resolve("best.npz"))).isEqualTo(Files.readAllBytes(out.resolve(best.getCheckpointId() + ".npz")));

        // the drop was significant: the scorer alerted, and the example logged it
        // an alert raised from a partly scored checkpoint is brought up to date on its key: keep each key's last revision
        Map<java.nio.ByteBuffer, Alert> latest = new java.util.LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> rec : TopicSnapshot.all(h.clientConfig, h.topics.alerts.name(), Duration.ofSeconds(30))) {
            Alert a = h.topics.alerts.valueSerde().deserializer().deserialize(rec.topic(), rec.value());
            if (a.getRunId().equals(RUN)) {
                latest.put(java.nio.ByteBuffer.wrap(rec.key()), a);
            }
        }
        List<Alert> finals = latest.values().stream().filter(a -> !a.getPartial() && !a.getCleared()).toList();
        assertThat(finals).isNotEmpty();
        // the example logs an alert once the checkpoint is complete, so with its final figures
        assertThat(finals).anySatisfy(a -> assertThat(r.out()).contains("ALERT " + a.getMessage()));
        assertThat(h.deadLetters()).isEmpty();
    }

    @Test
    void thePyTorchExampleActsOnVerdictsAsTheyArriveKeepsTheBestAndStopsAfterPatienceCheckpointsWithoutASignificantGain()
            throws Exception {
        // 16 s at load 15, 30 s at load 23: torch's import, the scorer's first verdicts (4-8 s after their checkpoint)
        // and ~400 training steps; the stop comes by the 9th checkpoint
        PythonRunner.Result torch = PythonRunner.run(List.of("-c", "import torch"), Map.of(), EXAMPLE);
        SystemPackages.require(torch.code() == 0, "python3 cannot import torch: install the Debian package python3-torch "
                + "(.ci/run does): " + torch.out().trim(), "mmgr.interop.required");
        Path out = dir.resolve("torch");
        // its 30 benchmark episodes are the numpy example's (the same world and seed): a scorer expects a task's whole
        // benchmark from every checkpoint, so runs sharing a scorer share the benchmark
        PythonRunner.Result r = PythonRunner.run(List.of(EXAMPLE.resolve("train_torch.py").toString(),
                "--bootstrap-servers", h.kafka.bootstrapServers(), "--schema-registry-url", h.registry.url(),
                "--topic-prefix", "train.", "--run-id", TORCH_RUN, "--out", out.toString(), "--patience", Integer.toString(PATIENCE)),
                Map.of(), EXAMPLE, LIMIT);
        System.out.printf("PyTorch example: exit %d in %.1f s (load average %s)%n%s%n", r.code(), r.took().toMillis() / 1000.0,
                Files.readString(Path.of("/proc/loadavg")).trim(), r.out());
        assertThat(r.code()).as("the example finished within %s:%n%s", LIMIT, r.out()).isZero();
        JsonNode summary = JsonAvro.MAPPER.readTree(out.resolve("summary.json").toFile());
        Map<String, JsonNode> checkpoints = new java.util.LinkedHashMap<>();
        summary.get("checkpoints").forEach(c -> checkpoints.put(c.get("checkpointId").asText(), c));
        // every verdict came, and while it was out the model trained on: a loop that waited would get it at its own step
        assertThat(checkpoints.values()).isNotEmpty().allSatisfy(c -> {
            assertThat(c.get("status").asText()).as(c.toString()).isEqualTo("complete");
            assertThat(c.get("stepAtVerdict").asLong()).as(c.toString()).isGreaterThan(c.get("trainingStep").asLong());
        });

        // the kept checkpoint is the one the scorer ranks best: highest all-tasks rate, the earliest of equals
        List<LeaderboardRow> rows = new ArrayList<>(h.leaderboard().values().stream()
                .filter(x -> x.getRunId().equals(TORCH_RUN) && x.getTask().equals(SampleKeys.ALL_TASKS)).toList());
        assertThat(rows).hasSize(checkpoints.size());
        rows.sort(Comparator.comparing(LeaderboardRow::getPrimaryRate).reversed().thenComparing(LeaderboardRow::getTrainingStep));
        LeaderboardRow best = rows.get(0);
        JsonNode kept = summary.get("best");
        assertThat(kept.get("checkpointId").asText()).isEqualTo(best.getCheckpointId());
        assertThat(kept.get("primaryRate").asDouble()).isEqualTo(best.getPrimaryRate());
        assertThat(kept.get("primaryCiLow").asDouble()).isEqualTo(best.getPrimaryCiLow());
        assertThat(kept.get("primaryCiHigh").asDouble()).isEqualTo(best.getPrimaryCiHigh());
        assertThat(Files.readAllBytes(out.resolve("best.pt"))).isEqualTo(Files.readAllBytes(out.resolve(best.getCheckpointId() + ".pt")));
        for (LeaderboardRow row : rows) {
            JsonNode c = checkpoints.get(row.getCheckpointId());
            assertThat(c.get("primaryRate").asDouble()).isEqualTo(row.getPrimaryRate());
            // the scorer measured what the model did (Mind2Web's step success rate, as the example computes it too)
            assertThat(row.getPrimaryRate()).as(c.toString()).isCloseTo(c.get("localEstimate").asDouble(), within(1e-9));
        }
        // it learned: the untrained model is near chance, the best far above it
        double first = checkpoints.get("ckpt-0").get("primaryRate").asDouble();
        assertThat(first).isLessThan(0.2);
        assertThat(best.getPrimaryRate()).isGreaterThan(first + 0.4);

        // it stopped early, at the poll that brought PATIENCE checkpoints in a row without a significant gain by the
        // scorer's own comparisons, and not a poll later
        JsonNode stopped = summary.get("stopped");
        assertThat(stopped.isNull()).as("the run stopped early").isFalse();
        long stopStep = stopped.get("trainingStep").asLong();
        Map<String, CheckpointComparison> comparisons = new java.util.HashMap<>();
        TopicSnapshot.latest(h.clientConfig, h.topics.comparisons.name(), h.topics.comparisons.keySerde().deserializer(),
                h.topics.comparisons.valueSerde().deserializer(), Duration.ofSeconds(30)).forEach((k, c) -> {
                    if (k.getRunId().equals(TORCH_RUN) && k.getTask().equals(SampleKeys.ALL_TASKS)) {
                        comparisons.put(k.getCheckpointId(), c);
                    }
                });
        long stopPoll = stopped.get("poll").asLong();
        List<LeaderboardRow> inStepOrder = rows.stream().sorted(Comparator.comparing(LeaderboardRow::getTrainingStep)).toList();
        List<String> withoutGain = withoutGain(inStepOrder, comparisons, checkpoints, stopPoll);
        assertThat(withoutGain).as("the scorer's comparisons: %s", comparisons).hasSizeGreaterThanOrEqualTo(PATIENCE);
        List<String> told = new ArrayList<>();
        stopped.get("sinceImprovement").forEach(x -> told.add(x.asText()));
        assertThat(told).isEqualTo(withoutGain);
        assertThat(withoutGain(inStepOrder, comparisons, checkpoints, stopPoll - 1)).as("the verdicts before the last poll")
                .hasSizeLessThan(PATIENCE);
        assertThat(summary.get("steps").asLong()).isEqualTo(stopStep).isLessThan(3000);
        assertThat(h.deadLetters()).isEmpty();
    }

    /**
     * The checkpoints since the last significant gain among the verdicts the example had by its {@code poll}-th poll:
     * in step order, up to the first one it did not have yet (verdicts travel on several partitions, so they may
     * arrive out of step order). A gain is significant when the 95% interval of the scorer's comparison with the best
     * earlier checkpoint (or the previous one, when that is the best) lies above zero.
     */
    static List<String> withoutGain(List<LeaderboardRow> inStepOrder, Map<String, CheckpointComparison> comparisons,
                                    Map<String, JsonNode> checkpoints, long poll) {
        List<String> out = new ArrayList<>();
        for (LeaderboardRow row : inStepOrder) {
            if (checkpoints.get(row.getCheckpointId()).get("poll").asLong() > poll) {
                break;
            }
            CheckpointComparison c = comparisons.get(row.getCheckpointId());
            ComparisonResult vs = c == null ? null : c.getVsBest() != null ? c.getVsBest() : c.getVsPrevious();
            if (vs == null || vs.getCiLow() > 0) {
                out.clear();
            } else {
                out.add(row.getCheckpointId());
            }
        }
        return out;
    }

    @Test
    void theClientsCheckpointHelpersPassTheirOwnTests() throws Exception {
        PythonRunner.Result r = PythonRunner.run(List.of("-m", "unittest", "-v", "test_checkpoints"), Map.of(),
                PythonRunner.CLIENT.resolve("tests"));
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).containsPattern("Ran [1-9][0-9]* tests").contains("\nOK").doesNotContain("skipped");
    }

    @Test
    void theTrainerCallbackEvaluatesASavedCheckpointWhenTransformersIsInstalled() throws Exception {
        PythonRunner.Result hf = PythonRunner.run(List.of("-c", "import transformers"), Map.of(), EXAMPLE);
        Assumptions.assumeTrue(hf.code() == 0, "transformers is not installed (not a Debian package): the Trainer callback is not run");
        // the callback driven as a Trainer would drive it on save, with the example's agent as the model
        String script = String.join("\n",
                "import sys, types",
                "sys.path.insert(0, '" + PythonRunner.CLIENT + "')",
                "from mmgr_client import Evaluator",
                "from hf_callback import MmgrEvalCallback",
                "from webagent import World, Agent",
                "world = World(7, noise=0.9); episodes = world.episodes(5, 1, 'hf'); agent = Agent(1)",
                "ev = Evaluator('" + h.kafka.bootstrapServers() + "', '" + h.registry.url() + "', run_id='hf-run', model='m', topic_prefix='train.')",
                "ev.publish_benchmark([{'task': 'mind2web', 'sampleId': e.episode_id, 'groundTruth': {'uiSteps': e.gold_steps()}} for e in episodes])",
                "gen = lambda model, step: ({'task': 'mind2web', 'sample_id': e.episode_id, 'inputs': {'uiActions': model.predict(e)}} for e in episodes)",
                "cb = MmgrEvalCallback(ev, gen, wait_timeout=60)",
                "state = types.SimpleNamespace(global_step=10, log_history=[], best_metric=None, best_model_checkpoint=None)",
                "control = types.SimpleNamespace(should_training_stop=False)",
                "cb.on_save(types.SimpleNamespace(output_dir='/tmp/out'), state, control, model=agent)",
                "print('LOG', state.log_history[-1]['mmgr/status'], state.best_model_checkpoint)");
        PythonRunner.Result r = PythonRunner.run(List.of("-c", script), Map.of(), EXAMPLE);
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("LOG complete /tmp/out/checkpoint-10");
    }
}
