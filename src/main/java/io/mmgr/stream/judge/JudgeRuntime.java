package io.mmgr.stream.judge;

import io.micrometer.core.instrument.MeterRegistry;
import io.mmgr.stream.artifacts.ArtifactResolver;
import io.mmgr.stream.judge.protocol.ApiKey;
import io.mmgr.stream.judge.protocol.GeminiClient;
import io.mmgr.stream.judge.protocol.OpenAiChatClient;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.topology.Topics;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/** A judge assembled from its settings: provider client, engine (resilience, cache, ledger) and worker. */
public final class JudgeRuntime implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JudgeRuntime.class);

    private final JudgeEngine engine;
    private final JudgeMetrics metrics;
    private final JudgeWorker worker;

    private JudgeRuntime(JudgeEngine engine, JudgeMetrics metrics, JudgeWorker worker) {
        this.engine = engine;
        this.metrics = metrics;
        this.worker = worker;
    }

    /** The provider client of the settings' protocol; the key comes from the named environment variable. */
    public static ProviderClient client(JudgeSettings s, Map<String, String> env) {
        ApiKey key = ApiKey.fromEnvironment(s.apiKeyEnv(), env);
        Duration backstop = s.timeout().plusSeconds(5);
        String structured = s.structuredOutput().toLowerCase(Locale.ROOT);
        if (s.protocol().equals("gemini")) {
            return new GeminiClient(s.baseUrl(), key, backstop, !structured.equals("none"));
        }
        OpenAiChatClient.StructuredOutput mode = switch (structured) {
            case "json_schema" -> OpenAiChatClient.StructuredOutput.JSON_SCHEMA;
            case "json_object" -> OpenAiChatClient.StructuredOutput.JSON_OBJECT;
            case "none" -> OpenAiChatClient.StructuredOutput.NONE;
            default -> throw new IllegalArgumentException("structured output must be json_schema, json_object or none");
        };
        return new OpenAiChatClient(s.baseUrl(), key, backstop, mode);
    }

    public static JudgeEngine engine(JudgeSettings s, ProviderClient client, ArtifactResolver artifacts, JudgeMetrics metrics) {
        return new JudgeEngine(s, client, RubricCatalog.load(), artifacts, new VerdictCache(s.cacheEntries()),
                new CostLedger(s.budgetUsdPerRun()), metrics, Clock.systemUTC());
    }

    /** Builds the judge and starts its worker on the topics. */
    public static JudgeRuntime start(JudgeSettings s, Map<String, String> env, Topics topics, JudgeWorker.Config config,
                                     ArtifactResolver artifacts, MeterRegistry registry) {
        JudgeMetrics metrics = new JudgeMetrics(registry);
        JudgeEngine engine = engine(s, client(s, env), artifacts, metrics);
        JudgeWorker worker = JudgeWorker.start(engine, metrics, topics.judgeRequests, topics.judgeVerdicts, topics.judgeCache,
                config, Duration.ofMinutes(2));
        return new JudgeRuntime(engine, metrics, worker);
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

    @Override
    public void close() {
        worker.close();
        engine.ledger().checkpoints().forEach((runAndCheckpoint, t) -> LOG.info(
                "judge spend {}: {} calls, {} input + {} output tokens, ${}", runAndCheckpoint, t.calls(), t.inputTokens(),
                t.outputTokens(), String.format(Locale.ROOT, "%.4f", t.costUsd())));
    }
}
