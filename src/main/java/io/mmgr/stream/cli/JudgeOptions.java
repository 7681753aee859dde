package io.mmgr.stream.cli;

import io.mmgr.stream.judge.JudgeSettings;
import java.net.URI;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The judge's flags, shared by {@code run} (in-process worker) and {@code judge-worker}. */
public final class JudgeOptions {

    @Option(names = "--judge-protocol", description = "openai (Chat Completions: OpenAI, vLLM, SGLang, Ollama, LM Studio, "
            + "OpenRouter, Gemini's OpenAI endpoint) or gemini (native generateContent)")
    String protocol;

    @Option(names = "--judge-base-url", description = "e.g. http://localhost:8000/v1 or https://generativelanguage.googleapis.com/v1beta")
    URI baseUrl;

    @Option(names = "--judge-model", description = "the judge model, e.g. gemini-2.5-pro")
    String model;

    @Option(names = "--judge-api-key-env", paramLabel = "NAME", description = "environment variable holding the API key "
            + "(the key itself is never a flag, never logged, never written to a topic)")
    String apiKeyEnv;

    @Option(names = "--judge-structured-output", defaultValue = "json_schema",
            description = "json_schema, json_object or none (prompt-only; the answer is parsed tolerantly) (default: ${DEFAULT-VALUE})")
    String structuredOutput;

    @Option(names = "--judge-rpm", description = "provider quota in requests per minute (default: 60)")
    Integer rpm;

    @Option(names = "--judge-rps", description = "provider quota in requests per second (instead of --judge-rpm)")
    Integer rps;

    @Option(names = "--judge-quota-margin-ms", defaultValue = "25",
            description = "allowance for send-to-arrival jitter when spacing requests (default: ${DEFAULT-VALUE})")
    long quotaMarginMs;

    @Option(names = "--judge-tpm", defaultValue = "0", description = "provider quota in tokens per minute; 0: none (default: ${DEFAULT-VALUE})")
    long tpm;

    @Option(names = "--judge-instances", defaultValue = "1",
            description = "judge workers sharing this quota; each takes an equal share (default: ${DEFAULT-VALUE})")
    int instances;

    @Option(names = "--judge-concurrency", defaultValue = "4", description = "calls in flight (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--judge-timeout", defaultValue = "PT60S", description = "one call's time limit (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--judge-max-attempts", defaultValue = "4", description = "calls per request on 429/5xx/timeouts (default: ${DEFAULT-VALUE})")
    int maxAttempts;

    @Option(names = "--judge-circuit-failure-rate", defaultValue = "50",
            description = "percent of failed calls (of the last 20) that opens the circuit (default: ${DEFAULT-VALUE})")
    float circuitFailureRate;

    @Option(names = "--judge-circuit-open-for", defaultValue = "PT30S", description = "open-circuit wait before probing (default: ${DEFAULT-VALUE})")
    Duration circuitOpenFor;

    @Option(names = "--judge-price-input", defaultValue = "0", description = "US$ per million input tokens (default: ${DEFAULT-VALUE})")
    double priceInput;

    @Option(names = "--judge-price-output", defaultValue = "0", description = "US$ per million output tokens (default: ${DEFAULT-VALUE})")
    double priceOutput;

    @Option(names = "--judge-budget-usd", description = "spend allowed per run; when spent, requests wait as PENDING with the reason")
    Double budgetUsd;

    @Option(names = "--judge-frames", defaultValue = "16", description = "frames sampled from a video, first to last (default: ${DEFAULT-VALUE})")
    int frames;

    @Option(names = "--judge-native-video", description = "send videos whole where the protocol takes them (gemini)")
    boolean nativeVideo;

    @Option(names = "--judge-max-output-tokens", defaultValue = "2048", description = "answer cap (default: ${DEFAULT-VALUE})")
    int maxOutputTokens;

    @Option(names = "--judge-group", description = "the judge worker's consumer group (default: <application id>-judge)")
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

    public JudgeSettings settings() {
        int quota = rps != null ? rps : rpm != null ? rpm : 60;
        Duration window = rps != null ? Duration.ofSeconds(1) : Duration.ofMinutes(1);
        return JudgeSettings.defaults(protocol, baseUrl, model)
                .withApiKeyEnv(apiKeyEnv)
                .withQuota(quota, window)
                .withQuotaMargin(Duration.ofMillis(quotaMarginMs))
                .withConcurrency(concurrency, instances)
                .withTimeouts(timeout, maxAttempts, Duration.ofSeconds(1), Duration.ofSeconds(60))
                .withCircuit(circuitFailureRate, 20, circuitOpenFor)
                .withPrices(priceInput, priceOutput, budgetUsd)
                .withMedia(frames, nativeVideo, structuredOutput)
                .withTokens(tpm, 800, maxOutputTokens);
    }

    public String group(String applicationId) {
        return group != null ? group : applicationId + "-judge";
    }

    /** One line for start-up banners: protocol, model, endpoint and limits (never the key). */
    public String describe() {
        JudgeSettings s = settings();
        return String.format(java.util.Locale.ROOT, "%s %s at %s, %d requests per %ds%s, %d in flight%s", s.protocol(), s.model(),
                s.baseUrl(), s.requestQuota(), s.quotaWindow().toSeconds(), s.instances() > 1 ? " shared by " + s.instances() : "",
                s.concurrency(), s.budgetUsdPerRun() == null ? "" : String.format(java.util.Locale.ROOT, ", budget $%.2f per run",
                        s.budgetUsdPerRun()));
    }
}
