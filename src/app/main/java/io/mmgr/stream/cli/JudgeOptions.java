package io.mmgr.stream.cli;

import io.mmgr.stream.judge.AzureSettings;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.panel.PanelRule;
import io.mmgr.stream.judge.panel.PanelSettings;
import io.mmgr.stream.judge.MediaSettings;
import io.mmgr.stream.judge.PricingSettings;
import io.mmgr.stream.judge.batch.BatchProtocols;
import io.mmgr.stream.judge.batch.BatchSettings;
import io.mmgr.stream.judge.batch.LaneMode;
import io.mmgr.stream.judge.protocol.AzureOpenAiClient;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ModelProfile;
import io.mmgr.stream.judge.protocol.StructuredOutput;
import java.net.URI;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The judge's flags, shared by {@code run} (in-process worker) and {@code judge-worker}. Each has an
 * environment default ({@code MMGR_JUDGE_*}), so a container needs no arguments; the key itself stays
 * in the provider's own variable, named by {@code --judge-api-key-env}.
 */
public final class JudgeOptions {

    @Option(names = "--judge-protocol", defaultValue = "${env:MMGR_JUDGE_PROTOCOL}",
            description = "openai (Chat Completions: OpenAI, vLLM, SGLang, Ollama, LM Studio, OpenRouter, Gemini's OpenAI "
                    + "endpoint), gemini (native generateContent), anthropic (Messages) or azure-openai (a deployment's chat "
                    + "completions). Env MMGR_JUDGE_PROTOCOL")
    String protocol;

    @Option(names = "--judge-base-url", defaultValue = "${env:MMGR_JUDGE_BASE_URL}",
            description = "e.g. http://localhost:8000/v1, https://generativelanguage.googleapis.com/v1beta, "
                    + "https://api.anthropic.com/v1, or for azure-openai the resource's endpoint https://RESOURCE.openai.azure.com "
                    + "(env MMGR_JUDGE_BASE_URL)")
    URI baseUrl;

    @Option(names = "--judge-model", defaultValue = "${env:MMGR_JUDGE_MODEL}",
            description = "the judge model, e.g. gemini-2.5-pro (env MMGR_JUDGE_MODEL)")
    String model;

    @Option(names = "--judge-azure-deployment", defaultValue = "${env:MMGR_JUDGE_AZURE_DEPLOYMENT}",
            description = "azure-openai: the deployment the requests go to (default: the --judge-model name; "
                    + "env MMGR_JUDGE_AZURE_DEPLOYMENT)")
    String azureDeployment;

    @Option(names = "--judge-azure-api-version", defaultValue = "${env:MMGR_JUDGE_AZURE_API_VERSION:-"
            + AzureOpenAiClient.DEFAULT_API_VERSION + "}",
            description = "azure-openai: the api-version query parameter (default: ${DEFAULT-VALUE}; "
                    + "env MMGR_JUDGE_AZURE_API_VERSION)")
    String azureApiVersion;

    @Option(names = "--judge-api-key-env", defaultValue = "${env:MMGR_JUDGE_API_KEY_ENV}", paramLabel = "NAME",
            description = "environment variable holding the API key (the key itself is never a flag, never logged, never "
                    + "written to a topic; env MMGR_JUDGE_API_KEY_ENV)")
    String apiKeyEnv;

    @Option(names = "--judge-structured-output", defaultValue = "${env:MMGR_JUDGE_STRUCTURED_OUTPUT:-json_schema}",
            description = "json_schema, json_object or none (prompt-only; the answer is parsed tolerantly), for either "
                    + "protocol (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_STRUCTURED_OUTPUT)")
    String structuredOutput;

    @Option(names = "--judge-profile", defaultValue = "${env:MMGR_JUDGE_PROFILE:-auto}",
            description = "request parameters: auto (from the model name), openai-chat, openai-reasoning, gemini, "
                    + "gemini-thinking, anthropic or anthropic-thinking (docs/judge.md, \"Model profiles\"; default: "
                    + "${DEFAULT-VALUE}; env MMGR_JUDGE_PROFILE)")
    String profile;

    @Option(names = "--judge-rpm", defaultValue = "${env:MMGR_JUDGE_RPM}",
            description = "provider quota in requests per minute (default: 60; env MMGR_JUDGE_RPM)")
    Integer rpm;

    @Option(names = "--judge-rps", defaultValue = "${env:MMGR_JUDGE_RPS}",
            description = "provider quota in requests per second, instead of --judge-rpm (env MMGR_JUDGE_RPS)")
    Integer rps;

    @Option(names = "--judge-quota-margin-ms", defaultValue = "${env:MMGR_JUDGE_QUOTA_MARGIN_MS:-25}",
            description = "allowance for send-to-arrival jitter: sends are held to the quota over the window plus this "
                    + "(default: ${DEFAULT-VALUE}; env MMGR_JUDGE_QUOTA_MARGIN_MS)")
    long quotaMarginMs;

    @Option(names = "--judge-tpm", defaultValue = "${env:MMGR_JUDGE_TPM:-0}",
            description = "provider quota in tokens per minute; 0: none (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_TPM)")
    long tpm;

    @Option(names = "--judge-concurrency", defaultValue = "${env:MMGR_JUDGE_CONCURRENCY:-4}",
            description = "calls in flight (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_CONCURRENCY)")
    int concurrency;

    @Option(names = "--judge-timeout", defaultValue = "${env:MMGR_JUDGE_TIMEOUT:-PT60S}",
            description = "one call's time limit (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_TIMEOUT)")
    Duration timeout;

    @Option(names = "--judge-max-attempts", defaultValue = "${env:MMGR_JUDGE_MAX_ATTEMPTS:-4}",
            description = "calls in one retry cycle on 429/5xx/timeouts; cycles go on with backoff until the deadline "
                    + "(default: ${DEFAULT-VALUE}; env MMGR_JUDGE_MAX_ATTEMPTS)")
    int maxAttempts;

    @Option(names = "--judge-retry-deadline", defaultValue = "${env:MMGR_JUDGE_RETRY_DEADLINE:-PT24H}",
            description = "how long after it was requested a request without an answer is retried before it is FAILED "
                    + "(not cached: publishing it again retries) (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_RETRY_DEADLINE)")
    Duration retryDeadline;

    @Option(names = "--judge-circuit-failure-rate", defaultValue = "${env:MMGR_JUDGE_CIRCUIT_FAILURE_RATE:-50}",
            description = "percent of failed calls (of the last 20) that opens the circuit (default: ${DEFAULT-VALUE}; "
                    + "env MMGR_JUDGE_CIRCUIT_FAILURE_RATE)")
    float circuitFailureRate;

    @Option(names = "--judge-circuit-open-for", defaultValue = "${env:MMGR_JUDGE_CIRCUIT_OPEN_FOR:-PT30S}",
            description = "open-circuit wait before probing (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_CIRCUIT_OPEN_FOR)")
    Duration circuitOpenFor;

    @Option(names = "--judge-price-input", defaultValue = "${env:MMGR_JUDGE_PRICE_INPUT:-0}",
            description = "US$ per million input tokens (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_PRICE_INPUT)")
    double priceInput;

    @Option(names = "--judge-price-output", defaultValue = "${env:MMGR_JUDGE_PRICE_OUTPUT:-0}",
            description = "US$ per million output tokens, thinking included (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_PRICE_OUTPUT)")
    double priceOutput;

    @Option(names = "--judge-budget-usd", defaultValue = "${env:MMGR_JUDGE_BUDGET_USD}",
            description = "spend allowed per run; when spent, requests wait as PENDING with the reason (env MMGR_JUDGE_BUDGET_USD)")
    Double budgetUsd;

    @Option(names = "--judge-batch-discount", defaultValue = "${env:MMGR_JUDGE_BATCH_DISCOUNT:-0.5}",
            description = "a batch-lane request's price as a share of the realtime one; OpenAI, Gemini and Anthropic all bill "
                    + "batches at half (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_BATCH_DISCOUNT)")
    double batchDiscount;

    @Option(names = "--judge-lane", defaultValue = "${env:MMGR_JUDGE_LANE:-realtime}",
            description = "realtime, batch (the provider's batch API, at the batch price) or auto (realtime what the quota "
                    + "serves within --judge-latency-target, the rest in batches) (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_LANE)")
    String lane;

    @Option(names = "--judge-batch-max-requests", defaultValue = "${env:MMGR_JUDGE_BATCH_MAX_REQUESTS:-1000}",
            description = "a batch is submitted once this many requests wait (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_BATCH_MAX_REQUESTS)")
    int batchMaxRequests;

    @Option(names = "--judge-batch-max-wait", defaultValue = "${env:MMGR_JUDGE_BATCH_MAX_WAIT:-PT5M}",
            description = "... or once the oldest waiting request has waited this long (default: ${DEFAULT-VALUE}; "
                    + "env MMGR_JUDGE_BATCH_MAX_WAIT)")
    Duration batchMaxWait;

    @Option(names = "--judge-batch-poll-interval", defaultValue = "${env:MMGR_JUDGE_BATCH_POLL_INTERVAL:-PT30S}",
            description = "how often open batches are polled (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_BATCH_POLL_INTERVAL)")
    Duration batchPollInterval;

    @Option(names = "--judge-latency-target", defaultValue = "${env:MMGR_JUDGE_LATENCY_TARGET:-PT5M}",
            description = "in the auto lane, realtime takes what the quota serves within this (default: ${DEFAULT-VALUE}; "
                    + "env MMGR_JUDGE_LATENCY_TARGET)")
    Duration latencyTarget;

    @Option(names = "--judge-frames", defaultValue = "${env:MMGR_JUDGE_FRAMES:-16}",
            description = "frames sampled from a video, first to last (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_FRAMES)")
    int frames;

    @Option(names = "--judge-native-video", defaultValue = "${env:MMGR_JUDGE_NATIVE_VIDEO:-false}",
            description = "send videos whole where the protocol takes them: gemini (env MMGR_JUDGE_NATIVE_VIDEO=true)")
    boolean nativeVideo;

    @Option(names = "--judge-max-output-tokens", defaultValue = "${env:MMGR_JUDGE_MAX_OUTPUT_TOKENS:-2048}",
            description = "room for the answer itself; reasoning profiles add their thinking budget on top "
                    + "(default: ${DEFAULT-VALUE}; env MMGR_JUDGE_MAX_OUTPUT_TOKENS)")
    int maxOutputTokens;

    @Option(names = "--judge-thinking-budget", defaultValue = "${env:MMGR_JUDGE_THINKING_BUDGET}",
            description = "reasoning room in tokens: Gemini 2.5's thinkingConfig.thinkingBudget, Anthropic's "
                    + "thinking.budget_tokens (at least 1024), or what an OpenAI reasoning model may spend before its answer "
                    + "(default: the profile's; env MMGR_JUDGE_THINKING_BUDGET)")
    Integer thinkingBudget;

    @Option(names = "--judge-reasoning-effort", defaultValue = "${env:MMGR_JUDGE_REASONING_EFFORT}",
            description = "reasoning_effort of OpenAI reasoning models: minimal, low, medium, high (default: medium; "
                    + "env MMGR_JUDGE_REASONING_EFFORT)")
    String reasoningEffort;

    @Option(names = "--judge-samples", defaultValue = "${env:MMGR_JUDGE_SAMPLES:-1}", paramLabel = "N",
            description = "answers per judge and rubric, each with its own seed; the verdict is their per-metric majority "
                    + "(default: ${DEFAULT-VALUE}; env MMGR_JUDGE_SAMPLES)")
    int samples;

    @Option(names = "--judge-panel", paramLabel = "PROTOCOL,MODEL,BASE_URL[,KEY_ENV]",
            description = "another judge on the panel beside --judge-model (repeatable); it shares the quota, retry, circuit, "
                    + "price and budget flags, with a client, quota and circuit of its own")
    java.util.List<String> panel = new java.util.ArrayList<>();

    @Option(names = "--judge-panel-rule", defaultValue = "${env:MMGR_JUDGE_PANEL_RULE:-majority}",
            description = "how the panel's judges decide each metric: majority (ties to the lower value) or unanimous (the "
                    + "lowest value) (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_PANEL_RULE)")
    String panelRule;

    @Option(names = "--judge-group", defaultValue = "${env:MMGR_JUDGE_GROUP}",
            description = "the judge worker's consumer group (default: <application id>-judge; env MMGR_JUDGE_GROUP)")
    String group;

    /** Whether a judge is configured; a partial configuration is an error naming what is missing. */
    public boolean configured() {
        if (protocol == null && baseUrl == null && model == null) {
            return false;
        }
        if (protocol == null || baseUrl == null || model == null) {
            throw new IllegalArgumentException("a judge needs --judge-protocol, --judge-base-url and --judge-model together");
        }
        return true;
    }

    /** The settings the flags give; conflicting or invalid values are an error saying which. */
    public JudgeSettings settings() {
        if (rps != null && rpm != null) {
            throw new IllegalArgumentException("give the judge's quota once: --judge-rps " + rps + " and --judge-rpm " + rpm
                    + " are both set (from the command line or MMGR_JUDGE_RPS / MMGR_JUDGE_RPM)");
        }
        JudgeProtocol p = JudgeProtocol.parse(protocol);
        if (reasoningEffort != null && !reasoningEffort.isBlank() && p.family() != JudgeProtocol.OPENAI) {
            throw new IllegalArgumentException("--judge-reasoning-effort is for OpenAI reasoning models, not the " + p + " protocol");
        }
        int quota = rps != null ? rps : rpm != null ? rpm : 60;
        Duration window = rps != null ? Duration.ofSeconds(1) : Duration.ofMinutes(1);
        ModelProfile prof = "auto".equalsIgnoreCase(profile.strip()) ? ModelProfile.forModel(p, model)
                : ModelProfile.defaults(ModelProfile.Kind.parse(profile), model);
        if (!prof.kind().fits(p)) {
            throw new IllegalArgumentException("--judge-profile " + prof.kind().id() + " is for the " + prof.kind().protocol()
                    + " protocol, not " + p);
        }
        prof = prof.withAnswerTokens(maxOutputTokens);
        if (thinkingBudget != null) {
            if (!prof.kind().reasons()) {
                throw new IllegalArgumentException("--judge-thinking-budget needs a reasoning profile (openai-reasoning, "
                        + "gemini-thinking or anthropic-thinking); " + model + " is judged with " + prof.kind().id());
            }
            prof = prof.withThinkingTokens(thinkingBudget);
        }
        if (reasoningEffort != null && !reasoningEffort.isBlank()) {
            if (prof.kind() != ModelProfile.Kind.OPENAI_REASONING) {
                throw new IllegalArgumentException("--judge-reasoning-effort needs the openai-reasoning profile; " + model
                        + " is judged with " + prof.kind().id());
            }
            prof = prof.withReasoningEffort(reasoningEffort);
        }
        return JudgeSettings.builder(p, baseUrl, model)
                .apiKeyEnv(apiKeyEnv)
                .structuredOutput(StructuredOutput.parse(structuredOutput, p))
                .profile(prof)
                .quota(q -> q.requests(quota, window).margin(Duration.ofMillis(quotaMarginMs)).tokensPerMinute(tpm))
                .concurrency(concurrency)
                .timeout(timeout)
                .retry(r -> r.maxAttempts(maxAttempts).deadline(retryDeadline))
                .circuit(c -> c.failureRate(circuitFailureRate).openFor(circuitOpenFor))
                .pricing(PricingSettings.of(priceInput, priceOutput, budgetUsd).withBatchDiscount(batchDiscount))
                .media(MediaSettings.defaults().withFrames(frames, nativeVideo))
                .azure(azure(p))
                // a batch fills from the requests a worker holds: hold a full batch beside one being answered
                .maxInFlight(lane == null || LaneMode.parse(lane) == LaneMode.REALTIME ? JudgeSettings.DEFAULT_MAX_IN_FLIGHT
                        : Math.max(JudgeSettings.DEFAULT_MAX_IN_FLIGHT, 2 * batchMaxRequests))
                .build();
    }

    /** The panel, samples and rule the flags give (JudgeRuntime sets the lane's price factor). */
    public PanelSettings panel() {
        return new PanelSettings(PanelSettings.parse(panel, settings()), samples, PanelRule.parse(panelRule), 1.0);
    }

    /** The batch lane's settings; a lane other than realtime needs a protocol with a batch API here. */
    public BatchSettings batchSettings() {
        BatchSettings b = new BatchSettings(LaneMode.parse(lane), batchMaxRequests, batchMaxWait, batchPollInterval, latencyTarget);
        JudgeProtocol p = JudgeProtocol.parse(protocol);
        if (b.lane() != LaneMode.REALTIME && !BatchProtocols.speaks(p)) {
            throw new IllegalArgumentException("--judge-lane " + b.lane() + " needs a protocol with a batch API ("
                    + BatchProtocols.names() + "), not " + p);
        }
        return b;
    }

    /** The Azure settings; naming a deployment for another protocol is an error (it would be ignored). */
    private AzureSettings azure(JudgeProtocol p) {
        if (p != JudgeProtocol.AZURE_OPENAI && azureDeployment != null && !azureDeployment.isBlank()) {
            throw new IllegalArgumentException("--judge-azure-deployment is for the azure-openai protocol, not " + p);
        }
        return new AzureSettings(azureDeployment, azureApiVersion);
    }

    public String group(String applicationId) {
        return group != null ? group : io.mmgr.stream.app.ScorerApp.defaultJudgeGroup(applicationId);
    }

    /** One line for start-up banners: protocol, model, endpoint, request parameters and limits (never the key). */
    public String describe() {
        JudgeSettings s = settings();
        String where = s.protocol() == JudgeProtocol.AZURE_OPENAI ? s.baseUrl() + " (deployment "
                + s.azure().deploymentFor(s.model()) + ", api-version " + s.azure().apiVersion() + ")" : s.baseUrl().toString();
        PanelSettings p = panel();
        String panelled = !p.active() ? "" : String.format(java.util.Locale.ROOT, ", panel of %d (%s rule), %d sample(s) each",
                p.judges(), p.rule().id(), p.samples());
        return String.format(java.util.Locale.ROOT, "%s %s at %s, %d requests per %ds, %d in flight, %s%s%s", s.protocol(), s.model(),
                where, s.quota().requests(), s.quota().window().toSeconds(), s.concurrency(), s.profile().describe(),
                s.pricing().budgetUsdPerRun() == null ? "" : String.format(java.util.Locale.ROOT, ", budget $%.2f per run",
                        s.pricing().budgetUsdPerRun()), panelled);
    }
}
