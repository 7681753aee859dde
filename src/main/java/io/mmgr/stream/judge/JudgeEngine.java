package io.mmgr.stream.judge;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.mmgr.stream.artifacts.ArtifactException;
import io.mmgr.stream.artifacts.ArtifactResolver;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.judge.protocol.ProviderException;
import io.mmgr.stream.judge.protocol.ProviderReply;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.JudgePrompt;
import io.mmgr.stream.tasks.JudgeRubric;
import io.mmgr.stream.tasks.RubricAnswer;
import io.mmgr.stream.tasks.RubricAnswerException;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.vision.MediaException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Judges one request, free of Kafka: rubric prompt, cache, budget, the guarded call, one repair turn
 * for an unusable answer, and the verdict. Every request ends as a verdict (VALID, or INVALID with
 * its reason and the raw answer) or as a {@link Outcome.Wait} when the circuit is open, the run's
 * budget is spent or the endpoint rejects the configuration; the worker then keeps the request and
 * asks again later. Thread-safe; called from the worker's pool.
 */
public final class JudgeEngine {

    /** How a request ended for now. */
    public sealed interface Outcome {
        /**
         * @param verdict the verdict to publish
         * @param fresh   a call produced it: it belongs in the shared cache topic
         */
        record Done(JudgeVerdict verdict, boolean fresh) implements Outcome {
        }

        /** Not judged yet: why, and when to try again. Nothing is dropped. */
        record Wait(String reason, Duration retryIn) implements Outcome {
        }
    }

    /**
     * Longest raw answer kept on a verdict (for people reading why it is INVALID) and echoed in the repair
     * turn; the rest is cut. Verdicts travel through Kafka (1 MB records by default) into sample scores,
     * so nothing an answer says may make one unbounded.
     */
    public static final int MAX_KEPT_CHARS = 16_000;
    /** Longest justification of one metric kept on a verdict (the rubric asks for a sentence or two). */
    public static final int MAX_JUSTIFICATION_CHARS = 4_000;
    static final int MAX_REASON_CHARS = 2_000;

    static final String REPAIR = "That answer cannot be used: %s. Reply again with only the JSON object the "
            + "instructions describe, with every key and nothing else.";
    private static final Duration BUDGET_RECHECK = Duration.ofSeconds(30);

    private final JudgeSettings settings;
    private final RubricCatalog rubrics;
    private final PromptMaterializer materializer;
    private final JudgeResilience resilience;
    private final VerdictCache cache;
    private final CostLedger ledger;
    private final JudgeMetrics metrics;
    private final Clock clock;

    public JudgeEngine(JudgeSettings settings, ProviderClient client, RubricCatalog rubrics, ArtifactResolver artifacts,
                       VerdictCache cache, CostLedger ledger, JudgeMetrics metrics, Clock clock) {
        this.settings = settings;
        this.rubrics = rubrics;
        this.materializer = new PromptMaterializer(artifacts, settings.frames(), settings.nativeVideo() && client.acceptsVideo());
        this.resilience = new JudgeResilience(settings, client, metrics);
        this.cache = cache;
        this.ledger = ledger;
        this.metrics = metrics;
        this.clock = clock;
    }

    public JudgeResilience resilience() {
        return resilience;
    }

    public CostLedger ledger() {
        return ledger;
    }

    public VerdictCache cache() {
        return cache;
    }

    public JudgeSettings settings() {
        return settings;
    }

    public Outcome judge(JudgeRequest request) {
        GenerationEvent event = request.getEvent();
        JudgeRubric rubric = rubrics.find(request.getRubric()).orElse(null);
        if (rubric == null) {
            return new Outcome.Done(verdict(request, "unknown", "INVALID")
                    .setReason("no judge rubric '" + request.getRubric() + "' in this build").build(), false);
        }
        JudgePrompt prompt;
        String key;
        try {
            prompt = rubric.prompt(event, request.getItem());
            key = materializer.cacheKey(settings.model(), rubric.version(), event.getModality(), prompt);
        } catch (EvaluationException e) {
            return new Outcome.Done(verdict(request, rubric.version(), "INVALID")
                    .setReason("cannot build the judge's prompt: " + e.getMessage()).build(), false);
        }
        var hit = cache.get(key);
        metrics.cache(hit.isPresent());
        if (hit.isPresent()) {
            return new Outcome.Done(copyFor(hit.get(), request), false);
        }
        CompletableFuture<Outcome> mine = new CompletableFuture<>();
        CompletableFuture<Outcome> running = cache.claim(key, mine);
        if (running != null) {
            // the same prompt is being judged for another request right now: share its answer
            Outcome o = running.join();
            return o instanceof Outcome.Done d ? new Outcome.Done(copyFor(d.verdict(), request), false) : o;
        }
        Outcome outcome = null;
        try {
            outcome = decide(request, rubric, prompt, key);
            if (outcome instanceof Outcome.Done d && d.fresh()) {
                cache.put(key, d.verdict());
            }
            return outcome;
        } finally {
            cache.release(key, mine, outcome != null ? outcome
                    : new Outcome.Wait("judging failed unexpectedly; retrying", Duration.ofSeconds(5)));
        }
    }

    private Outcome decide(JudgeRequest request, JudgeRubric rubric, JudgePrompt prompt, String key) {
        GenerationEvent event = request.getEvent();
        String run = event.getRunId();
        String modality = event.getModality();
        long inputEstimate = estimateInputTokens(prompt);
        long estimate = inputEstimate + settings.maxOutputTokens();
        double reservedUsd = settings.cost(inputEstimate, settings.maxOutputTokens());
        var refused = ledger.reserve(run, reservedUsd);
        if (refused.isPresent()) {
            return new Outcome.Wait(refused.get(), BUDGET_RECHECK);
        }
        JudgeResilience.Tally tally = new JudgeResilience.Tally();
        long t0 = System.nanoTime();
        Outcome outcome;
        try {
            if (resilience.circuit() == CircuitBreaker.State.OPEN) {
                outcome = circuitOpen();
            } else {
                outcome = callAndParse(request, rubric, prompt, key, modality, estimate, tally, t0);
            }
        } finally {
            double cost = settings.cost(tally.inputTokens, tally.outputTokens);
            ledger.settle(run, event.getCheckpointId(), reservedUsd, tally.attempts, tally.inputTokens, tally.outputTokens, cost);
            if (tally.attempts > 0) {
                metrics.tokens(run, event.getCheckpointId(), tally.inputTokens, tally.outputTokens, cost);
            }
        }
        return outcome;
    }

    private Outcome callAndParse(JudgeRequest request, JudgeRubric rubric, JudgePrompt prompt, String key,
                                 String modality, long estimate, JudgeResilience.Tally tally, long t0) {
        ProviderCall call;
        try {
            call = materializer.call(settings.model(), prompt, rubric.answerSchema(modality), settings.maxOutputTokens());
        } catch (ArtifactException | MediaException e) {
            return new Outcome.Done(verdict(request, rubric.version(), "INVALID")
                    .setReason("cannot read the generation for the judge: " + e.getMessage()).build(), false);
        }
        String answer = null;
        try {
            ProviderReply reply = resilience.call(call, estimate, tally);
            answer = reply.text();
            RubricAnswer parsed;
            try {
                parsed = rubric.parse(modality, answer);
            } catch (RubricAnswerException first) {
                metrics.repair();
                ProviderReply again = resilience.call(call.followedBy(clip(answer, MAX_KEPT_CHARS),
                                String.format(REPAIR, first.getMessage())),
                        estimate, tally);
                answer = again.text();
                try {
                    parsed = rubric.parse(modality, answer);
                } catch (RubricAnswerException second) {
                    return done(request, rubric, key, tally, t0, "INVALID", null,
                            "unusable answer after one repair: " + second.getMessage(), answer);
                }
            }
            return done(request, rubric, key, tally, t0, "VALID", parsed, null, null);
        } catch (CallNotPermittedException e) {
            return circuitOpen();
        } catch (ProviderException e) {
            return switch (e.kind()) {
                case CONFIGURATION -> new Outcome.Wait("the judge endpoint rejects the configuration (" + e.getMessage()
                        + "); waiting for it to be fixed", settings.circuitOpenFor());
                case REFUSED -> done(request, rubric, key, tally, t0, "INVALID", null,
                        "the judge refused to answer: " + e.getMessage(), e.body() != null ? e.body() : answer);
                case REJECTED -> done(request, rubric, key, tally, t0, "INVALID", null,
                        "the judge rejected the request: " + e.getMessage(), answer);
                default -> done(request, rubric, key, tally, t0, "INVALID", null,
                        "gave up after " + tally.attempts + " attempt(s): " + e.getMessage(), answer);
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Wait("the judge worker is stopping", Duration.ofSeconds(1));
        } catch (Exception e) {
            return done(request, rubric, key, tally, t0, "INVALID", null, "judge call failed: " + e, answer);
        }
    }

    private Outcome circuitOpen() {
        return new Outcome.Wait("judge circuit open after sustained failures; calls resume when a probe succeeds "
                + "(next probe within " + settings.circuitOpenFor().toSeconds() + " s)", settings.circuitOpenFor());
    }

    private Outcome done(JudgeRequest request, JudgeRubric rubric, String key, JudgeResilience.Tally tally, long t0,
                         String status, RubricAnswer answer, String reason, String raw) {
        JudgeVerdict.Builder b = verdict(request, rubric.version(), status)
                .setReason(clip(reason, MAX_REASON_CHARS))
                .setRawText(clip(raw, MAX_KEPT_CHARS))
                .setLatencyMs((System.nanoTime() - t0) / 1_000_000)
                .setAttempts(tally.attempts)
                .setInputTokens(tally.inputTokens)
                .setOutputTokens(tally.outputTokens)
                .setCostUsd(settings.cost(tally.inputTokens, tally.outputTokens))
                .setCacheKey(key);
        if (answer != null) {
            Map<String, String> justifications = new HashMap<>();
            answer.justifications().forEach((metric, text) -> justifications.put(metric, clip(text, MAX_JUSTIFICATION_CHARS)));
            b.setMetrics(new HashMap<>(answer.metrics())).setJustifications(justifications);
        }
        return new Outcome.Done(b.build(), true);
    }

    private JudgeVerdict.Builder verdict(JudgeRequest request, String rubricVersion, String status) {
        return JudgeVerdict.newBuilder()
                .setRequestId(request.getRequestId())
                .setGenerationId(request.getGenerationId())
                .setRubric(request.getRubric())
                .setRubricVersion(rubricVersion)
                .setJudgeModel(settings.model())
                .setStatus(status)
                .setMetrics(new HashMap<>())
                .setJustifications(new HashMap<>())
                .setDecidedAt(Instant.now(clock));
    }

    /** A cached verdict re-addressed to another request; no call, no cost. */
    static JudgeVerdict copyFor(JudgeVerdict cached, JudgeRequest request) {
        return JudgeVerdict.newBuilder(cached)
                .setRequestId(request.getRequestId())
                .setGenerationId(request.getGenerationId())
                .setMetrics(new HashMap<>(cached.getMetrics()))
                .setJustifications(new HashMap<>(cached.getJustifications()))
                .setLatencyMs(0)
                .setAttempts(0)
                .setInputTokens(0)
                .setOutputTokens(0)
                .setCostUsd(0.0)
                .setCachedFrom(cached.getCachedFrom() != null ? cached.getCachedFrom() : cached.getRequestId())
                .setDecidedAt(Instant.now())
                .build();
    }

    /** A PENDING verdict: the score shows the judge part as waiting, with why. */
    public JudgeVerdict pending(JudgeRequest request, String reason) {
        String version = rubrics.find(request.getRubric()).map(JudgeRubric::version).orElse("unknown");
        return verdict(request, version, "PENDING").setReason(reason).build();
    }

    /** The text cut to {@code max} characters (never inside a surrogate pair), saying how much was cut. */
    static String clip(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + " ... [" + (text.length() - end) + " more characters cut]";
    }

    /** Input tokens guessed before the call: about four characters a token, a fixed count an image. */
    long estimateInputTokens(JudgePrompt prompt) {
        long chars = prompt.system().length();
        long images = 0;
        for (JudgePrompt.Part p : prompt.parts()) {
            if (p instanceof JudgePrompt.Text t) {
                chars += t.text().length();
            } else if (p instanceof JudgePrompt.Media m) {
                images += m.video() ? settings.frames() : 1;
            }
        }
        return chars / 4 + images * settings.tokensPerImage();
    }

}
