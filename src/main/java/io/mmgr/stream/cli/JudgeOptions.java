package io.mmgr.stream.cli;

import io.mmgr.stream.judge.JudgeSettings;
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
                    + "endpoint) or gemini (native generateContent). Env MMGR_JUDGE_PROTOCOL")
    String protocol;

    @Option(names = "--judge-base-url", defaultValue = "${env:MMGR_JUDGE_BASE_URL}",
            description = "e.g. http://localhost:8000/v1 or https://generativelanguage.googleapis.com/v1beta (env MMGR_JUDGE_BASE_URL)")
    URI baseUrl;

    @Option(names = "--judge-model", defaultValue = "${env:MMGR_JUDGE_MODEL}",
            description = "the judge model, e.g. gemini-2.5-pro (env MMGR_JUDGE_MODEL)")
    String model;

    @Option(names = "--judge-api-key-env", defaultValue = "${env:MMGR_JUDGE_API_KEY_ENV}", paramLabel = "NAME",
            description = "environment variable holding the API key (the key itself is never a flag, never logged, never "
                    + "written to a topic; env MMGR_JUDGE_API_KEY_ENV)")
    String apiKeyEnv;

    @Option(names = "--judge-structured-output", defaultValue = "${env:MMGR_JUDGE_STRUCTURED_OUTPUT:-json_schema}",
            description = "json_schema, json_object or none (prompt-only; the answer is parsed tolerantly) "
                    + "(default: ${DEFAULT-VALUE}; env MMGR_JUDGE_STRUCTURED_OUTPUT)")
    String structuredOutput;

    @Option(names = "--judge-rpm", defaultValue = "${env:MMGR_JUDGE_RPM}",
            description = "provider quota in requests per minute (default: 60; env MMGR_JUDGE_RPM)")
    Integer rpm;

    @Option(names = "--judge-rps", defaultValue = "${env:MMGR_JUDGE_RPS}",
            description = "provider quota in requests per second (instead of --judge-rpm; env MMGR_JUDGE_RPS)")
    Integer rps;

    @Option(names = "--judge-quota-margin-ms", defaultValue = "${env:MMGR_JUDGE_QUOTA_MARGIN_MS:-25}",
            description = "allowance for send-to-arrival jitter when spacing requests (default: ${DEFAULT-VALUE}; "
                    + "env MMGR_JUDGE_QUOTA_MARGIN_MS)")
    long quotaMarginMs;

    @Option(names = "--judge-tpm", defaultValue = "${env:MMGR_JUDGE_TPM:-0}",
            description = "provider quota in tokens per minute; 0: none (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_TPM)")
    long tpm;

    @Option(names = "--judge-instances", defaultValue = "${env:MMGR_JUDGE_INSTANCES:-1}",
            description = "judge workers sharing this quota; each takes an equal share (default: ${DEFAULT-VALUE}; "
                    + "env MMGR_JUDGE_INSTANCES)")
    int instances;

    @Option(names = "--judge-concurrency", defaultValue = "${env:MMGR_JUDGE_CONCURRENCY:-4}",
            description = "calls in flight (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_CONCURRENCY)")
    int concurrency;

    @Option(names = "--judge-timeout", defaultValue = "${env:MMGR_JUDGE_TIMEOUT:-PT60S}",
            description = "one call's time limit (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_TIMEOUT)")
    Duration timeout;

    @Option(names = "--judge-max-attempts", defaultValue = "${env:MMGR_JUDGE_MAX_ATTEMPTS:-4}",
            description = "calls per request on 429/5xx/timeouts (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_MAX_ATTEMPTS)")
    int maxAttempts;

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
            description = "US$ per million output tokens (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_PRICE_OUTPUT)")
    double priceOutput;

    @Option(names = "--judge-budget-usd", defaultValue = "${env:MMGR_JUDGE_BUDGET_USD}",
            description = "spend allowed per run; when spent, requests wait as PENDING with the reason (env MMGR_JUDGE_BUDGET_USD)")
    Double budgetUsd;

    @Option(names = "--judge-frames", defaultValue = "${env:MMGR_JUDGE_FRAMES:-16}",
            description = "frames sampled from a video, first to last (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_FRAMES)")
    int frames;

    @Option(names = "--judge-native-video", defaultValue = "${env:MMGR_JUDGE_NATIVE_VIDEO:-false}",
            description = "send videos whole where the protocol takes them: gemini (env MMGR_JUDGE_NATIVE_VIDEO=true)")
    boolean nativeVideo;

    @Option(names = "--judge-max-output-tokens", defaultValue = "${env:MMGR_JUDGE_MAX_OUTPUT_TOKENS:-2048}",
            description = "answer cap (default: ${DEFAULT-VALUE}; env MMGR_JUDGE_MAX_OUTPUT_TOKENS)")
    int maxOutputTokens;

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
