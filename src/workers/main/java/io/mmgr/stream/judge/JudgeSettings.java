package io.mmgr.stream.judge;

import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ModelProfile;
import io.mmgr.stream.judge.protocol.StructuredOutput;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Everything configurable about the judge, one record per concern, each with a builder; the
 * resilience concerns map onto resilience4j's own configs ({@link RetrySettings#toRetryConfig},
 * {@link CircuitSettings#toCircuitBreakerConfig}, {@link #bulkheadConfig()}, {@link #timeLimiterConfig()}).
 * The quota is this deployment's whole quota: each worker takes the share of the judge-request
 * partitions it is assigned ({@link QuotaSettings#requestShare}).
 *
 * @param protocol         the wire protocol
 * @param baseUrl          e.g. {@code https://api.openai.com/v1}, {@code http://localhost:8000/v1},
 *                         {@code https://generativelanguage.googleapis.com/v1beta}, {@code https://api.anthropic.com/v1},
 *                         or an Azure resource's endpoint {@code https://<resource>.openai.azure.com}
 * @param model            the judge model id
 * @param apiKeyEnv        name of the environment variable holding the key (null: no key)
 * @param structuredOutput how the answer's JSON is asked for
 * @param profile          the request parameters (output caps, temperature, reasoning), from the model name by default
 * @param quota            the provider's quota
 * @param retry            retries of transient failures and the deadline
 * @param circuit          the circuit breaker
 * @param pricing          prices and the per-run budget
 * @param media            frames, native video, image token estimate
 * @param concurrency      calls in flight at once (bulkhead)
 * @param timeout          one call's time limit
 * @param maxInFlight      requests held by one worker before its partitions pause
 * @param azure            deployment and api-version of the azure-openai protocol (unused by the others)
 */
public record JudgeSettings(JudgeProtocol protocol, URI baseUrl, String model, String apiKeyEnv, StructuredOutput structuredOutput,
                            ModelProfile profile, QuotaSettings quota, RetrySettings retry, CircuitSettings circuit,
                            PricingSettings pricing, MediaSettings media, int concurrency, Duration timeout, int maxInFlight,
                            AzureSettings azure) {

    /** Version of the cache key's format: raising it makes every earlier verdict a miss. */
    public static final int CACHE_KEY_FORMAT = 2;

    /** Requests one worker holds before its partitions pause, unless a lane needs more. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 256;

    public JudgeSettings {
        Objects.requireNonNull(protocol);
        Objects.requireNonNull(baseUrl);
        Objects.requireNonNull(model);
        Objects.requireNonNull(structuredOutput);
        Objects.requireNonNull(profile);
        Objects.requireNonNull(quota);
        Objects.requireNonNull(retry);
        Objects.requireNonNull(circuit);
        Objects.requireNonNull(pricing);
        Objects.requireNonNull(media);
        Objects.requireNonNull(timeout);
        Objects.requireNonNull(azure);
        if (!profile.kind().fits(protocol)) {
            throw new IllegalArgumentException("the judge profile " + profile.kind().id() + " is for the "
                    + profile.kind().protocol().id() + " protocol, not " + protocol.id());
        }
        if (concurrency < 1 || maxInFlight < 1) {
            throw new IllegalArgumentException("judge concurrency and in-flight requests must be positive");
        }
    }

    /** A builder with the defaults for a protocol, endpoint and model (the profile from the model's name). */
    public static Builder builder(JudgeProtocol protocol, URI baseUrl, String model) {
        return new Builder(protocol, baseUrl, model);
    }

    public static Builder builder(String protocol, URI baseUrl, String model) {
        return builder(JudgeProtocol.parse(protocol), baseUrl, model);
    }

    /** Defaults: the model's profile, 60 requests/min, 4 in flight, 60 s per call, 16 frames, retried for 24 h. */
    public static JudgeSettings defaults(String protocol, URI baseUrl, String model) {
        return builder(protocol, baseUrl, model).build();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Everything in the configuration that changes what the provider answers, for the cache key: key
     * format, protocol, model, request parameters and structured-output mode. (Rubric version, prompt and
     * artifact digests are added per request.)
     */
    public String requestConfiguration() {
        // an Azure deployment decides the model that answers; the other protocols' keys stay as they were
        String deployment = protocol == JudgeProtocol.AZURE_OPENAI ? " deployment=" + azure.deploymentFor(model) : "";
        return "format=" + CACHE_KEY_FORMAT + " protocol=" + protocol.id() + " model=" + model + deployment + " params="
                + profile.describe() + " structured=" + structuredOutput.id();
    }

    public BulkheadConfig bulkheadConfig() {
        return BulkheadConfig.custom().maxConcurrentCalls(concurrency).maxWaitDuration(Duration.ofDays(1)).build();
    }

    public TimeLimiterConfig timeLimiterConfig() {
        return TimeLimiterConfig.custom().timeoutDuration(timeout).cancelRunningFuture(true).build();
    }

    /** Cost of a call in US dollars. */
    public double cost(long inputTokens, long outputTokens) {
        return pricing.cost(inputTokens, outputTokens);
    }

    public static final class Builder {
        private final JudgeProtocol protocol;
        private final URI baseUrl;
        private final String model;
        private String apiKeyEnv;
        private StructuredOutput structuredOutput = StructuredOutput.JSON_SCHEMA;
        private ModelProfile profile;
        private QuotaSettings quota = QuotaSettings.defaults();
        private RetrySettings retry = RetrySettings.defaults();
        private CircuitSettings circuit = CircuitSettings.defaults();
        private PricingSettings pricing = PricingSettings.free();
        private MediaSettings media = MediaSettings.defaults();
        private int concurrency = 4;
        private Duration timeout = Duration.ofSeconds(60);
        private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
        private AzureSettings azure = AzureSettings.defaults();

        private Builder(JudgeProtocol protocol, URI baseUrl, String model) {
            this.protocol = protocol;
            this.baseUrl = baseUrl;
            this.model = model;
            this.profile = ModelProfile.forModel(protocol, model);
        }

        private Builder(JudgeSettings s) {
            this(s.protocol, s.baseUrl, s.model);
            apiKeyEnv = s.apiKeyEnv;
            structuredOutput = s.structuredOutput;
            profile = s.profile;
            quota = s.quota;
            retry = s.retry;
            circuit = s.circuit;
            pricing = s.pricing;
            media = s.media;
            concurrency = s.concurrency;
            timeout = s.timeout;
            maxInFlight = s.maxInFlight;
            azure = s.azure;
        }

        public Builder apiKeyEnv(String variable) {
            apiKeyEnv = variable;
            return this;
        }

        public Builder structuredOutput(StructuredOutput mode) {
            structuredOutput = mode;
            return this;
        }

        public Builder profile(ModelProfile p) {
            profile = p;
            return this;
        }

        public Builder profile(UnaryOperator<ModelProfile> change) {
            profile = change.apply(profile);
            return this;
        }

        public Builder quota(QuotaSettings q) {
            quota = q;
            return this;
        }

        public Builder quota(UnaryOperator<QuotaSettings.Builder> change) {
            quota = change.apply(quota.toBuilder()).build();
            return this;
        }

        public Builder retry(RetrySettings r) {
            retry = r;
            return this;
        }

        public Builder retry(UnaryOperator<RetrySettings.Builder> change) {
            retry = change.apply(retry.toBuilder()).build();
            return this;
        }

        public Builder circuit(CircuitSettings c) {
            circuit = c;
            return this;
        }

        public Builder circuit(UnaryOperator<CircuitSettings.Builder> change) {
            circuit = change.apply(circuit.toBuilder()).build();
            return this;
        }

        public Builder pricing(PricingSettings p) {
            pricing = p;
            return this;
        }

        public Builder media(MediaSettings m) {
            media = m;
            return this;
        }

        public Builder concurrency(int calls) {
            concurrency = calls;
            return this;
        }

        public Builder timeout(Duration d) {
            timeout = d;
            return this;
        }

        public Builder maxInFlight(int n) {
            maxInFlight = n;
            return this;
        }

        public Builder azure(AzureSettings a) {
            azure = a;
            return this;
        }

        public JudgeSettings build() {
            return new JudgeSettings(protocol, baseUrl, model, apiKeyEnv, structuredOutput, profile, quota, retry, circuit,
                    pricing, media, concurrency, timeout, maxInFlight, azure);
        }
    }
}
