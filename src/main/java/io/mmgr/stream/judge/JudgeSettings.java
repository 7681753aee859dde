package io.mmgr.stream.judge;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything configurable about the judge. Limits are this instance's share: with {@code instances}
 * workers sharing one provider quota, each takes {@code quota / instances} (a static split, see
 * {@link JudgeResilience}).
 *
 * @param protocol            {@code openai} (Chat Completions) or {@code gemini} (generateContent)
 * @param baseUrl             e.g. {@code https://api.openai.com/v1}, {@code http://localhost:8000/v1},
 *                            {@code https://generativelanguage.googleapis.com/v1beta}
 * @param model               the judge model id
 * @param apiKeyEnv           name of the environment variable holding the key (null: no key)
 * @param structuredOutput    {@code json_schema}, {@code json_object} or {@code none}
 * @param requestQuota        requests the provider allows per {@code quotaWindow}
 * @param quotaWindow         the quota's window (1 s for requests/s, 60 s for requests/min)
 * @param quotaMargin         added to the window when spacing requests, for the jitter between sending a
 *                            request and the provider counting it
 * @param tokensPerMinute     provider token quota per minute (0: none)
 * @param instances           workers sharing the quota (static split)
 * @param concurrency         calls in flight at once (bulkhead)
 * @param timeout             one call's time limit
 * @param maxAttempts         calls per request before giving up on retryable failures
 * @param backoffInitial      first retry wait (exponential, randomized; Retry-After wins when longer)
 * @param backoffMax          longest retry wait
 * @param circuitFailureRate  percentage of failed calls that opens the circuit
 * @param circuitWindow       calls the failure rate is measured over
 * @param circuitOpenFor      how long the circuit stays open before probing
 * @param inputUsdPerMTok     price of a million input tokens
 * @param outputUsdPerMTok    price of a million output tokens
 * @param budgetUsdPerRun     spend allowed per run (null: unlimited); once spent, requests wait
 * @param frames              frames sampled from a video (evenly, first to last)
 * @param nativeVideo         send videos whole where the protocol takes them (Gemini)
 * @param maxOutputTokens     cap on an answer
 * @param tokensPerImage      input tokens assumed per image when estimating a call for the token quota
 * @param cacheEntries        verdicts kept in memory for de-duplication
 * @param maxInFlight         requests held by one worker before its partitions pause
 */
public record JudgeSettings(String protocol, URI baseUrl, String model, String apiKeyEnv, String structuredOutput,
                            int requestQuota, Duration quotaWindow, Duration quotaMargin, long tokensPerMinute, int instances, int concurrency,
                            Duration timeout, int maxAttempts, Duration backoffInitial, Duration backoffMax,
                            float circuitFailureRate, int circuitWindow, Duration circuitOpenFor,
                            double inputUsdPerMTok, double outputUsdPerMTok, Double budgetUsdPerRun, int frames,
                            boolean nativeVideo, int maxOutputTokens, int tokensPerImage, int cacheEntries,
                            int maxInFlight) {

    public JudgeSettings {
        Objects.requireNonNull(protocol);
        Objects.requireNonNull(baseUrl);
        Objects.requireNonNull(model);
        if (!protocol.equals("openai") && !protocol.equals("gemini")) {
            throw new IllegalArgumentException("judge protocol must be openai or gemini, not " + protocol);
        }
        if (requestQuota < 1 || instances < 1 || concurrency < 1 || maxAttempts < 1 || frames < 1 || maxInFlight < 1) {
            throw new IllegalArgumentException("judge quota, instances, concurrency, attempts, frames and in-flight must be positive");
        }
        if (budgetUsdPerRun != null && budgetUsdPerRun < 0) {
            throw new IllegalArgumentException("judge budget must not be negative");
        }
    }

    /** Defaults for a protocol, endpoint and model: 60 requests/min, 4 in flight, 60 s per call, 16 frames. */
    public static JudgeSettings defaults(String protocol, URI baseUrl, String model) {
        return new JudgeSettings(protocol, baseUrl, model, null, "json_schema", 60, Duration.ofMinutes(1), Duration.ofMillis(25), 0, 1, 4,
                Duration.ofSeconds(60), 4, Duration.ofSeconds(1), Duration.ofSeconds(60), 50f, 20, Duration.ofSeconds(30),
                0.0, 0.0, null, 16, false, 2048, 800, 100_000, 256);
    }

    public JudgeSettings withQuota(int requests, Duration window) {
        return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structuredOutput, requests, window, quotaMargin, tokensPerMinute,
                instances, concurrency, timeout, maxAttempts, backoffInitial, backoffMax, circuitFailureRate, circuitWindow,
                circuitOpenFor, inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun, frames, nativeVideo, maxOutputTokens,
                tokensPerImage, cacheEntries, maxInFlight);
    }

    public JudgeSettings withQuotaMargin(Duration margin) {
        return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structuredOutput, requestQuota, quotaWindow, margin,
                tokensPerMinute, instances, concurrency, timeout, maxAttempts, backoffInitial, backoffMax, circuitFailureRate,
                circuitWindow, circuitOpenFor, inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun, frames, nativeVideo,
                maxOutputTokens, tokensPerImage, cacheEntries, maxInFlight);
    }

    public JudgeSettings withTimeouts(Duration callTimeout, int attempts, Duration backoff, Duration backoffCap) {
        return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structuredOutput, requestQuota, quotaWindow, quotaMargin,
                tokensPerMinute, instances, concurrency, callTimeout, attempts, backoff, backoffCap, circuitFailureRate,
                circuitWindow, circuitOpenFor, inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun, frames, nativeVideo,
                maxOutputTokens, tokensPerImage, cacheEntries, maxInFlight);
    }

    public JudgeSettings withCircuit(float failureRate, int window, Duration openFor) {
        return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structuredOutput, requestQuota, quotaWindow, quotaMargin,
                tokensPerMinute, instances, concurrency, timeout, maxAttempts, backoffInitial, backoffMax, failureRate,
                window, openFor, inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun, frames, nativeVideo,
                maxOutputTokens, tokensPerImage, cacheEntries, maxInFlight);
    }

    public JudgeSettings withPrices(double inputPerMTok, double outputPerMTok, Double budgetPerRun) {
        return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structuredOutput, requestQuota, quotaWindow, quotaMargin,
                tokensPerMinute, instances, concurrency, timeout, maxAttempts, backoffInitial, backoffMax,
                circuitFailureRate, circuitWindow, circuitOpenFor, inputPerMTok, outputPerMTok, budgetPerRun, frames,
                nativeVideo, maxOutputTokens, tokensPerImage, cacheEntries, maxInFlight);
    }

    public JudgeSettings withConcurrency(int inFlightCalls, int instanceCount) {
        return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structuredOutput, requestQuota, quotaWindow, quotaMargin,
                tokensPerMinute, instanceCount, inFlightCalls, timeout, maxAttempts, backoffInitial, backoffMax,
                circuitFailureRate, circuitWindow, circuitOpenFor, inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun,
                frames, nativeVideo, maxOutputTokens, tokensPerImage, cacheEntries, maxInFlight);
    }

    public JudgeSettings withApiKeyEnv(String variable) {
        return new JudgeSettings(protocol, baseUrl, model, variable, structuredOutput, requestQuota, quotaWindow, quotaMargin,
                tokensPerMinute, instances, concurrency, timeout, maxAttempts, backoffInitial, backoffMax,
                circuitFailureRate, circuitWindow, circuitOpenFor, inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun,
                frames, nativeVideo, maxOutputTokens, tokensPerImage, cacheEntries, maxInFlight);
    }

    public JudgeSettings withMedia(int frameCount, boolean videoNatively, String structured) {
        return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structured, requestQuota, quotaWindow, quotaMargin,
                tokensPerMinute, instances, concurrency, timeout, maxAttempts, backoffInitial, backoffMax,
                circuitFailureRate, circuitWindow, circuitOpenFor, inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun,
                frameCount, videoNatively, maxOutputTokens, tokensPerImage, cacheEntries, maxInFlight);
    }

    public JudgeSettings withTokens(long perMinute, int perImage, int maxOutput) {
        return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structuredOutput, requestQuota, quotaWindow, quotaMargin,
                perMinute, instances, concurrency, timeout, maxAttempts, backoffInitial, backoffMax,
                circuitFailureRate, circuitWindow, circuitOpenFor, inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun,
                frames, nativeVideo, maxOutput, perImage, cacheEntries, maxInFlight);
    }

    public JudgeSettings withMaxInFlight(int n) {
        return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structuredOutput, requestQuota, quotaWindow, quotaMargin,
                tokensPerMinute, instances, concurrency, timeout, maxAttempts, backoffInitial, backoffMax,
                circuitFailureRate, circuitWindow, circuitOpenFor, inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun,
                frames, nativeVideo, maxOutputTokens, tokensPerImage, cacheEntries, n);
    }

    /** Cost of a call in US dollars. */
    public double cost(long inputTokens, long outputTokens) {
        return inputTokens * inputUsdPerMTok / 1e6 + outputTokens * outputUsdPerMTok / 1e6;
    }
}
