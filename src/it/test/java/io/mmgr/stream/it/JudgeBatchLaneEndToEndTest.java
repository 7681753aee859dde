package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.bench.ScriptedBatchApi;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.bench.ScriptedVlmServer.Action;
import io.mmgr.stream.cli.JudgeOptions;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.worker.MemberIdentity;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Per protocol with a batch lane, 300 judged samples through the batch lane on the in-process broker end COMPLETE
 * with the verdicts the scripted provider implies, while their scores show PENDING "in batch <id>". The first judge
 * worker is {@code mmgr judge-worker} in a JVM of its own, killed with SIGKILL while its batches run at the provider
 * (the scripted batches are held in progress until the test releases them, so the kill lands mid-batch without a
 * race and without waiting out a batch run time); a second worker, in this JVM with the same flags and member id,
 * takes the batches over from the batches topic. Nothing is submitted twice (no batch created before the kill is
 * created again), nothing is billed twice, and nothing goes realtime.
 *
 * <p>Why it takes its time (the class: 102 s at load 21, where the version with an in-process worker stopped
 * mid-way and 8 s batches took 142 s; both about 67 CPU-s, the worker JVMs' included): per protocol, a scorer's
 * start with the worker JVM starting beside it (some 40 % of it), the 300 samples' two trips through the scorer,
 * and the second worker's start. Nothing waits on a clock but the lane's batching wait (2 s) and polls (250 ms).
 * The broker and registry are started once for the three protocols, each on its own topic prefix and application
 * id. The second worker takes the killed one's static member id and so its transactional id: it has its
 * partitions at once and aborts the killed one's open transaction, instead of waiting for its session (10 s) and
 * the transaction timeout (20 s). The issue asks for this one end-to-end case.
 */
@Tag("integration")
class JudgeBatchLaneEndToEndTest {

    static final String RUN = "run-batch";
    static final int SAMPLES = 300;
    static final String KEY_ENV = "E2E_KEY";
    static final String KEY = "sk-e2e-batch";
    /** A bound for a loaded machine, not an expectation. */
    static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    static Path shared;
    static EmbeddedKafka kafka;
    static RegistryServer registry;

    @TempDir
    Path dir;

    @BeforeAll
    static void brokerAndRegistry() throws Exception {
        kafka = EmbeddedKafka.start(shared.resolve("broker"), 0, Map.of(), null);
        registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), shared.resolve("registry"));
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    static Action script(ScriptedVlmServer.Exchange e) {
        double score = e.caseName().equals("math-bad") ? 0.0 : 1.0;
        return Action.ok(Duration.ZERO, Map.of("final_correctness", 1.0, "intermediate_correctness", score));
    }

    /** The judge flags of both workers: the same flags give the same request keys, so the batches' custom ids match. */
    static List<String> judgeFlags(JudgeProtocol protocol, ScriptedVlmServer server) {
        return List.of("--judge-protocol", protocol.id(), "--judge-base-url", server.baseUrl(protocol), "--judge-model", "judge-batch",
                "--judge-api-key-env", KEY_ENV, "--judge-rps", "50", "--judge-timeout", "PT5S", "--judge-max-attempts", "3",
                "--judge-lane", "batch", "--judge-batch-max-requests", "100", "--judge-batch-max-wait", "PT2S",
                "--judge-batch-poll-interval", "PT0.25S", "--judge-latency-target", "PT1M");
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai", "gemini", "anthropic"})
    void threeHundredSamplesCompleteThroughTheBatchLaneAcrossAKillWithoutDoubleSubmissionOrBilling(String protocolId)
            throws Exception {
        JudgeProtocol protocol = JudgeProtocol.parse(protocolId);
        String app = "e2eb-" + protocolId;
        String group = app + "-judge";
        MemberIdentity member = new MemberIdentity(app + "-worker", true);
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("e2eb" + protocolId + ".").withApplicationId(app)
                .withPartitions(3).withJudge(true).withArtifactRoots(List.of(dir));
        try (ScriptedVlmServer server = ScriptedVlmServer.start(JudgeBatchLaneEndToEndTest::script);
             ScorerHarness h = new ScorerHarness(dir, settings, kafka, registry);
             ChildScorer first = ChildScorer.judgeWorker("judge-worker-" + protocolId, dir.resolve("worker"),
                     judgeFlags(protocol, server), workerEnvironment(settings, group, member), List.of())) {
            ScriptedBatchApi provider = server.batchApi(protocol);
            provider.hold(true);
            // the worker's JVM starts while the scorer does (the topics exist): the two starts are most of the time
            CompletableFuture<Void> started = CompletableFuture.runAsync(() -> start(first));
            h.startScorer();
            publish(h);
            started.join();

            await(() -> provider.batchIds().size(), n -> n > 0, WAIT, "a batch submitted");
            Map<SampleKey, SampleScore> inBatch = await(h::scores, m -> m.values().stream().anyMatch(s -> inBatch(s, provider)),
                    WAIT, "a score PENDING in a batch the provider holds");
            assertThat(inBatch).isNotEmpty();
            first.kill();
            assertThat(first.alive()).isFalse();
            Map<String, Integer> submittedBeforeKill = provider.submitted();
            List<String> batchesBeforeKill = provider.batchIds();
            // the provider held every batch: the kill landed while they ran, before any answer was read
            assertThat(provider.billed()).as("answered before the kill").isEmpty();
            assertThat(submittedBeforeKill).isNotEmpty();
            provider.hold(false);

            try (JudgeRuntime second = inProcess(protocol, server, h, group, member)) {
                Map<SampleKey, SampleScore> scores = await(h::scores, m -> m.values().stream()
                        .filter(s -> "COMPLETE".equals(s.getStatus())).count() == SAMPLES, WAIT, SAMPLES + " complete scores");
                for (SampleScore s : scores.values()) {
                    assertThat(s.getPrimary()).as(s.getSampleId()).isEqualTo(s.getSampleId().startsWith("math-bad") ? 0.0 : 1.0);
                }
            }
            Map<String, Integer> submitted = provider.submitted();
            assertThat(provider.batchIds()).as("the batches created before the kill, then any the second worker made")
                    .startsWith(batchesBeforeKill.toArray(String[]::new));
            submittedBeforeKill.keySet().forEach(id -> assertThat(submitted.get(id)).as("%s, in a batch created before the kill", id)
                    .isEqualTo(1));
            assertThat(submitted).hasSize(SAMPLES);
            assertThat(submitted.values()).as("no request submitted twice").containsOnly(1);
            assertThat(provider.billed()).hasSize(SAMPLES);
            assertThat(provider.billed().values()).as("no request billed twice").containsOnly(1);
            assertThat(server.requestCount()).as("no realtime call").isZero();
        }
    }

    /** The first worker's connection, by environment as a container's: the same group and static member id as the second. */
    static Map<String, String> workerEnvironment(ScorerSettings settings, String group, MemberIdentity member) {
        return Map.of("MMGR_BOOTSTRAP_SERVERS", kafka.bootstrapServers(), "MMGR_SCHEMA_REGISTRY_URL", registry.url(),
                "MMGR_TOPIC_PREFIX", settings.topicPrefix(), "MMGR_APPLICATION_ID", settings.applicationId(), "MMGR_JUDGE_GROUP", group,
                "MMGR_GROUP_INSTANCE_ID", member.id(), "MMGR_ARTIFACT_ROOTS", settings.artifactRoots().get(0).toString(), KEY_ENV, KEY);
    }

    static void start(ChildScorer worker) {
        try {
            worker.start(WAIT);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** PENDING "in batch <id>" with the id of a batch the provider created. */
    static boolean inBatch(SampleScore s, ScriptedBatchApi provider) {
        String why = String.valueOf(s.getPending().get("judge"));
        return "PENDING".equals(s.getStatus()) && why.startsWith("in batch ")
                && provider.batchIds().contains(why.substring("in batch ".length()));
    }

    /** A third of the samples are scored 0 on one of the rubric's metrics by the script. */
    static void publish(ScorerHarness h) {
        List<BenchmarkItem> items = new ArrayList<>();
        List<GenerationEvent> events = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            String c = i % 3 == 0 ? "math-bad" : "math-good";
            String id = c + "-" + i;
            items.add(BenchmarkItem.newBuilder().setTask("math").setSampleId(id).setPrompt("case=" + c + " sample " + i
                    + ": solve 3x = 12.").setGroundTruth(GroundTruth.newBuilder().setAnswer("x = 4").build()).build());
            events.add(GenerationEvent.newBuilder().setRunId(RUN).setModel("gen-model").setCheckpointId("ckpt-1").setTrainingStep(1)
                    .setTask("math").setSampleId(id).setModality("text").setProducedAt(Instant.now())
                    .setInputs(GenerationInputs.newBuilder().setText("3x = 12, x = 4").build()).build());
        }
        h.publishAll(items, events);
    }

    /** The second worker: the first one's flags, group and member id, in this JVM. */
    JudgeRuntime inProcess(JudgeProtocol protocol, ScriptedVlmServer server, ScorerHarness h, String group, MemberIdentity member) {
        JudgeOptions judge = new JudgeOptions();
        new CommandLine(judge).parseArgs(judgeFlags(protocol, server).toArray(String[]::new));
        return JudgeRuntime.start(judge.settings(), judge.panel(), judge.batchSettings(), Map.of(KEY_ENV, KEY), h.topics,
                new JudgeWorker.Config(kafka.bootstrapServers(), group, Map.of(), member),
                new LocalArtifactResolver(List.of(dir), LocalArtifactResolver.DEFAULT_MAX_BYTES, dir.resolve("spill")),
                new SimpleMeterRegistry(), dir.resolve("judge-cache"));
    }
}
