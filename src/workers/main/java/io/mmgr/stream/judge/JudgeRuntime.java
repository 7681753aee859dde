package io.mmgr.stream.judge;

import io.micrometer.core.instrument.MeterRegistry;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.judge.protocol.AnthropicClient;
import io.mmgr.stream.judge.protocol.ApiKey;
import io.mmgr.stream.judge.protocol.AzureOpenAiClient;
import io.mmgr.stream.judge.protocol.GeminiClient;
import io.mmgr.stream.judge.protocol.OpenAiChatClient;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.batch.BatchLane;
import io.mmgr.stream.judge.batch.BatchProtocols;
import io.mmgr.stream.judge.batch.BatchSettings;
import io.mmgr.stream.judge.batch.KafkaBatchLog;
import io.mmgr.stream.judge.batch.LaneMode;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.contract.Topics;
import java.time.Clock;
import java.time.Duration;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** A judge assembled from its settings: provider client, engine (resilience, cache, ledger) and worker. */
public final class JudgeRuntime implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JudgeRuntime.class);

    private final JudgeEngine engine;
    private final JudgeMetrics metrics;
    private final JudgeWorker worker;
    private final Lane lane;
    private final ProjectionPublisher projections;

    /** The batch lane and the threads it runs on. */
    private record Lane(BatchLane lane, java.util.concurrent.ExecutorService timer, java.util.concurrent.ExecutorService reader) {
        void close() {
            lane.close();
            timer.shutdownNow();
            reader.shutdownNow();
        }
    }

    private JudgeRuntime(JudgeEngine engine, JudgeMetrics metrics, JudgeWorker worker, Lane lane, ProjectionPublisher projections) {
        this.engine = engine;
        this.metrics = metrics;
        this.worker = worker;
        this.lane = lane;
        this.projections = projections;
    }

    /** The provider client of the settings' protocol; the key comes from the named environment variable. */
    public static ProviderClient client(JudgeSettings s, Map<String, String> env) {
        ApiKey key = ApiKey.fromEnvironment(s.apiKeyEnv(), env);
        Duration backstop = s.timeout().plusSeconds(5);
        return switch (s.protocol()) {
            case GEMINI -> new GeminiClient(s.baseUrl(), key, backstop, s.structuredOutput());
            case OPENAI -> new OpenAiChatClient(s.baseUrl(), key, backstop, s.structuredOutput());
            case ANTHROPIC -> new AnthropicClient(s.baseUrl(), key, backstop, s.structuredOutput());
            case AZURE_OPENAI -> new AzureOpenAiClient(s.baseUrl(), s.azure().deploymentFor(s.model()), s.azure().apiVersion(), key,
                    backstop, s.structuredOutput());
        };
    }

    /** An engine over a cache (its owner closes it). */
    public static JudgeEngine engine(JudgeSettings s, ProviderClient client, ArtifactResolver artifacts, VerdictCache cache,
                                     JudgeMetrics metrics) {
        JudgeEngine engine = new JudgeEngine(s, client, RubricCatalog.load(), artifacts, cache,
                new CostLedger(s.pricing().budgetUsdPerRun()), metrics, Clock.systemUTC());
        metrics.quotaShare(engine.resilience()::requestShare);
        return engine;
    }

    /**
     * Puts the cost projection on {@code engine} and lets {@code panel} take over its judging when it is one (its other
     * judges get engines of their own over the same cache and ledger).
     */
    public static void panel(JudgeEngine engine, PanelHook panel, Map<String, String> env, ArtifactResolver artifacts,
                             JudgeMetrics metrics) {
        CostProjection projection = new CostProjection(engine.ledger(), panel.judges(), panel.samples(), panel.laneDiscount(),
                metrics.registry());
        engine.project(projection, true);
        panel.attach(engine, projection, env, artifacts, metrics);
    }

    /**
     * Builds the judge and starts its worker on the topics; the verdict cache lives in {@code cacheDir}
     * (one worker per directory).
     */
    public static JudgeRuntime start(JudgeSettings s, Map<String, String> env, Topics topics, JudgeWorker.Config config,
                                     ArtifactResolver artifacts, MeterRegistry registry, Path cacheDir) {
        return start(s, PanelHook.NONE, BatchSettings.realtime(), env, topics, config, artifacts, registry, cacheDir);
    }

    /** As above, with a panel of judges and repeated samples ({@link PanelHook}), in the realtime lane. */
    public static JudgeRuntime start(JudgeSettings s, PanelHook panel, Map<String, String> env, Topics topics,
                                     JudgeWorker.Config config, ArtifactResolver artifacts, MeterRegistry registry, Path cacheDir) {
        return start(s, panel, BatchSettings.realtime(), env, topics, config, artifacts, registry, cacheDir);
    }

    /** As {@link #start(JudgeSettings, Map, Topics, JudgeWorker.Config, ArtifactResolver, MeterRegistry, Path)}, in a lane. */
    public static JudgeRuntime start(JudgeSettings s, BatchSettings batch, Map<String, String> env, Topics topics,
                                     JudgeWorker.Config config, ArtifactResolver artifacts, MeterRegistry registry, Path cacheDir) {
        return start(s, PanelHook.NONE, batch, env, topics, config, artifacts, registry, cacheDir);
    }

    /**
     * With a panel and in a lane. A panel (more than one judge or sample) asks every judge and sample in realtime:
     * the batch lane carries a single judge's calls. The projection prices the batch lane at its discount; {@code auto}
     * at the realtime price, since how much of it goes to a batch depends on the quota at the time (an upper bound).
     */
    public static JudgeRuntime start(JudgeSettings s, PanelHook panel, BatchSettings batch, Map<String, String> env, Topics topics,
                                     JudgeWorker.Config config, ArtifactResolver artifacts, MeterRegistry registry, Path cacheDir) {
        JudgeMetrics metrics = new JudgeMetrics(registry);
        ProviderClient client = client(s, env);
        VerdictCache cache = VerdictCache.open(cacheDir.resolve(topics.judgeCache.name()));
        Lane lane = null;
        try {
            JudgeEngine engine = engine(s, client, artifacts, cache, metrics);
            boolean single = panel.judges() == 1 && panel.samples() == 1;
            panel(engine, panel.withLaneDiscount(single && batch.lane() == LaneMode.BATCH ? s.pricing().batchDiscount() : 1.0),
                    env, artifacts, metrics);
            if (batch.lane() != LaneMode.REALTIME) {
                lane = lane(s, batch, client, engine, topics, config);
                engine.lane(lane.lane());
            }
            JudgeWorker worker = JudgeWorker.start(engine, metrics, topics.judgeRequests, topics.judgeVerdicts, topics.judgeCache,
                    config);
            // every scorer shows the projection, whichever process judges (docs/judge.md, "Cost up front")
            Map<String, Object> kafka = new java.util.HashMap<>(config.clientConfig());
            kafka.put("bootstrap.servers", config.bootstrapServers());
            ProjectionPublisher projections = new ProjectionPublisher(topics.judgeProjections, kafka, engine.projection(),
                    worker.workerId(), Clock.systemUTC());
            projections.start();
            return new JudgeRuntime(engine, metrics, worker, lane, projections);
        } catch (RuntimeException e) {
            if (lane != null) {
                lane.close();
            }
            cache.close();
            throw e;
        }
    }

    /** The batch lane on its own threads: a scheduler for submitting and polling, a reader for results files. */
    private static Lane lane(JudgeSettings s, BatchSettings batch, ProviderClient client, JudgeEngine engine, Topics topics,
                                  JudgeWorker.Config config) {
        java.util.concurrent.ScheduledExecutorService timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "judge-batch-lane");
            t.setDaemon(true);
            return t;
        });
        java.util.concurrent.ExecutorService reader = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "judge-batch-results");
            t.setDaemon(true);
            return t;
        });
        Map<String, Object> kafka = new java.util.HashMap<>(config.clientConfig());
        kafka.put("bootstrap.servers", config.bootstrapServers());
        String id = config.identity() != null ? config.identity().id() : java.util.UUID.randomUUID().toString().substring(0, 8);
        BatchLane lane = new BatchLane(batch, BatchProtocols.of(client, s.timeout(), reader),
                new KafkaBatchLog(topics.judgeBatches, kafka), timer, Clock.systemUTC(), id, engine.resilience()::requestShare,
                s.quota().window());
        lane.start();
        return new Lane(lane, timer, reader);
    }

    public JudgeEngine engine() {
        return engine;
    }

    public JudgeMetrics metrics() {
        return metrics;
    }

    public JudgeWorker worker() {
        return worker;
    }

    public CostLedger ledger() {
        return engine.ledger();
    }

    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (lane != null) {
            lane.close(); // first: a stopping worker submits and polls nothing more; the next one takes its batches over
        }
        worker.close();
        projections.close(); // after the worker: its last requests are counted in
        engine.cache().close();
        engine.ledger().checkpoints().forEach((runAndCheckpoint, t) -> LOG.info(
                "judge spend {}: {} calls, {} input + {} output tokens, ${}", runAndCheckpoint, t.calls(), t.inputTokens(),
                t.outputTokens(), String.format(Locale.ROOT, "%.4f", t.costUsd())));
    }
}
