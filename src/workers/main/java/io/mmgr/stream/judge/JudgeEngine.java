package io.mmgr.stream.judge;

import io.mmgr.stream.contract.VerdictStatus;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactUnavailableException;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.judge.batch.LaneRouter;
import io.mmgr.stream.judge.protocol.ModelProfile;
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
 * Judges one request, free of Kafka: rubric prompt, cache, budget, the guarded call, one more try with
 * more room for an answer cut before any text, one repair turn for an unusable answer, and the verdict.
 *
 * <p><b>Final and transient.</b> An answer from the provider is final and cached: a verdict (VALID),
 * or an answer still unusable after the repair round, a refusal, a 4xx rejection of this exact request
 * configuration, or a body past every limit (INVALID). A failure to get an answer is never final:
 * 429, 5xx, a timeout, a connection error, an open circuit, the quota or the budget, the endpoint
 * refusing the key, or the cache still loading all end as an {@link Outcome.Wait} saying why and when
 * to try again; the worker keeps the request PENDING and asks again, with backoff, until the request is
 * {@link RetrySettings#deadline()} old (its {@code requestedAt}; the cache loading does not count).
 * Then it is FAILED with the last reason, and not cached, so publishing it again retries. Thread-safe;
 * called from the worker's pool.
 */
public final class JudgeEngine {

    /** How a request ended for now. */
    public sealed interface Outcome {
        /**
         * @param verdict the verdict to publish
         * @param fresh   a call produced it and it is final: it belongs in the shared cache topic
         */
        record Done(JudgeVerdict verdict, boolean fresh) implements Outcome {
        }

        /**
         * Not judged yet: why, and when to try again. Nothing is dropped.
         *
         * @param reason  shown on the score while the request waits
         * @param retryIn when to try again (for {@link Resume#CIRCUIT} and {@link Resume#CACHE}, at the latest)
         * @param resume  what the retry waits for
         */
        record Wait(String reason, Duration retryIn, Resume resume) implements Outcome {
        }
    }

    /**
     * Judges in this engine's place: a panel of judges and repeated samples ({@code io.mmgr.stream.judge.panel}),
     * each through an engine of its own made with {@link #withSeed} or the constructor.
     */
    public interface Delegate {
        Outcome judge(JudgeRequest request, Tries tries);

        /** This worker's share of the judge-request partitions, for every panel judge's quota. */
        void share(java.util.Collection<Integer> partitions, int total);
    }

    /** What a waiting request waits for. */
    public enum Resume {
        /** its {@code retryIn} (the budget, the quota) */
        LATER,
        /** its backoff after the provider failed, or the circuit closing again (the provider answers), if sooner */
        BACKOFF,
        /** the circuit letting calls through again */
        CIRCUIT,
        /** the cache being complete */
        CACHE,
        /** a batch ending (the request is in or waiting for one); the batch's own window bounds it, not the deadline */
        BATCH
    }

    /** One request's history over its tries: transient cycles so far and what all its calls cost. */
    public static final class Tries {
        int cycles;
        final JudgeResilience.Tally tally = new JudgeResilience.Tally();
        String lastReason;
        /** counted in its checkpoint's cost projection (once, on its first try) */
        boolean planned;

        public int cycles() {
            return cycles;
        }

        public JudgeResilience.Tally tally() {
            return tally;
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
    static final String STOPPING = "the judge worker is stopping";

    static final String REPAIR = "That answer cannot be used: %s. Reply again with only the JSON object the "
            + "instructions describe, with every key and nothing else.";
    private static final Duration BUDGET_RECHECK = Duration.ofSeconds(30);
    private static final Duration SHARED_RECHECK = Duration.ofMillis(500);

    private final JudgeSettings settings;
    private final RubricCatalog rubrics;
    private final PromptMaterializer materializer;
    private final JudgeResilience resilience;
    private final VerdictCache cache;
    private final CostLedger ledger;
    private final JudgeMetrics metrics;
    private final Clock clock;
    private final String configuration;
    private volatile Delegate delegate;
    private volatile CostProjection projection;
    /** whether this engine counts requests into the projection (the panel's own engines only name it in hold reasons) */
    private volatile boolean plans;
    private volatile LaneRouter lane = LaneRouter.REALTIME;

    public JudgeEngine(JudgeSettings settings, ProviderClient client, RubricCatalog rubrics, ArtifactResolver artifacts,
                       VerdictCache cache, CostLedger ledger, JudgeMetrics metrics, Clock clock) {
        this.settings = settings;
        this.rubrics = rubrics;
        this.materializer = new PromptMaterializer(artifacts, settings.media().frames(),
                settings.media().nativeVideo() && client.acceptsVideo());
        this.resilience = new JudgeResilience(settings, client, metrics);
        this.cache = cache;
        this.ledger = ledger;
        this.metrics = metrics;
        this.clock = clock;
        this.configuration = settings.requestConfiguration();
    }

    private JudgeEngine(JudgeEngine of, JudgeSettings settings) {
        this.settings = settings;
        this.rubrics = of.rubrics;
        this.materializer = of.materializer;
        this.resilience = of.resilience;
        this.cache = of.cache;
        this.ledger = of.ledger;
        this.metrics = of.metrics;
        this.clock = of.clock;
        this.configuration = settings.requestConfiguration();
        this.projection = of.projection;
    }

    /**
     * This judge asking with a sample seed ({@link ModelProfile#withSeed}): the same client, quota, circuit, cache and
     * ledger, a cache key of its own. Without a delegate or projection.
     */
    public JudgeEngine withSeed(int seed) {
        return new JudgeEngine(this, settings.toBuilder().profile(p -> p.withSeed(seed)).build());
    }

    /** Hands judging to a panel ({@code null}: this engine judges alone). */
    public void delegateTo(Delegate d) {
        delegate = d;
    }

    public Delegate delegate() {
        return delegate;
    }

    /**
     * Names {@code p} in budget hold reasons; {@code plans}: this engine also counts each request into its checkpoint's
     * projection before it is sent (the engine the worker calls, not a panel's own).
     */
    public void project(CostProjection p, boolean plans) {
        projection = p;
        this.plans = plans;
    }

    public CostProjection projection() {
        return projection;
    }

    /** Gives this worker's partition share to the quota of this judge and of every panel judge. */
    public void share(java.util.Collection<Integer> partitions, int total) {
        resilience.share(partitions, total);
        Delegate d = delegate;
        if (d != null) {
            d.share(partitions, total);
        }
    }

    /** A call's price at the estimated input and the output cap, 0 when the prompt cannot be built. */
    private double firstCallEstimate(JudgeRequest request) {
        JudgeRubric rubric = rubrics.find(request.getRubric()).orElse(null);
        try {
            return rubric == null ? 0.0
                    : settings.cost(estimateInputTokens(rubric.prompt(request.getEvent(), request.getItem())), settings.profile().outputCap());
        } catch (EvaluationException e) {
            return 0.0;
        }
    }

    /** The cache key of a request under this engine's configuration, or empty when its prompt cannot be built. */
    public java.util.Optional<String> cacheKey(JudgeRequest request) {
        JudgeRubric rubric = rubrics.find(request.getRubric()).orElse(null);
        if (rubric == null) {
            return java.util.Optional.empty();
        }
        try {
            JudgePrompt prompt = rubric.prompt(request.getEvent(), request.getItem());
            return java.util.Optional.of(materializer.cacheKey(configuration, rubric.version(), request.getEvent().getModality(),
                    prompt));
        } catch (EvaluationException e) {
            return java.util.Optional.empty();
        }
    }

    /** Where first calls go from now on: realtime (the default) or the batch lane. */
    public void lane(LaneRouter router) {
        this.lane = java.util.Objects.requireNonNull(router);
    }

    public LaneRouter lane() {
        return lane;
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

    /** Judges a request on its first try. */
    public Outcome judge(JudgeRequest request) {
        return judge(request, new Tries());
    }

    /** Judges a request, {@code tries} carrying what its earlier tries did; past its deadline a wait becomes FAILED. */
    public Outcome judge(JudgeRequest request, Tries tries) {
        CostProjection p = projection;
        if (p != null && plans && !tries.planned) {
            tries.planned = true;
            p.planned(request, firstCallEstimate(request));
        }
        Delegate d = delegate;
        if (d != null) {
            return d.judge(request, tries);
        }
        Outcome o = attempt(request, tries);
        if (!(o instanceof Outcome.Wait w) || w.resume() == Resume.CACHE || w.resume() == Resume.BATCH
                || w.reason().equals(STOPPING)) {
            // the worker's own start and stop are not the provider failing, nor is a batch taking its hours: never
            // counted toward the deadline
            return o;
        }
        tries.lastReason = w.reason();
        Instant deadline = request.getRequestedAt().plus(settings.retry().deadline());
        Instant now = clock.instant();
        if (!now.isBefore(deadline)) {
            return new Outcome.Done(failed(request, tries, w.reason()), false);
        }
        Duration left = Duration.between(now, deadline);
        return w.retryIn().compareTo(left) > 0 ? new Outcome.Wait(w.reason(), left, w.resume()) : w;
    }

    private Outcome attempt(JudgeRequest request, Tries tries) {
        GenerationEvent event = request.getEvent();
        JudgeRubric rubric = rubrics.find(request.getRubric()).orElse(null);
        if (rubric == null) {
            return new Outcome.Done(verdict(request, "unknown", VerdictStatus.INVALID)
                    .setReason("no judge rubric '" + request.getRubric() + "' in this build").build(), false);
        }
        JudgePrompt prompt;
        String key;
        try {
            prompt = rubric.prompt(event, request.getItem());
            key = materializer.cacheKey(configuration, rubric.version(), event.getModality(), prompt);
        } catch (EvaluationException e) {
            return new Outcome.Done(verdict(request, rubric.version(), VerdictStatus.INVALID)
                    .setReason("cannot build the judge's prompt: " + e.getMessage()).build(), false);
        }
        var hit = cache.get(key);
        if (hit.isPresent()) {
            metrics.cache(JudgeMetrics.CacheResult.HIT);
            return new Outcome.Done(copyFor(hit.get(), request), false);
        }
        if (!cache.complete()) {
            // a miss may be an entry not read yet: calling now could bill again what was billed before
            return new Outcome.Wait("judge cache still loading; the judge is asked once it is read",
                    settings.retry().backoffMax(), Resume.CACHE);
        }
        CompletableFuture<Outcome> mine = new CompletableFuture<>();
        CompletableFuture<Outcome> running = cache.claim(key, mine);
        metrics.cache(running == null ? JudgeMetrics.CacheResult.MISS : JudgeMetrics.CacheResult.IN_FLIGHT);
        if (running != null) {
            // the same prompt is being judged for another request right now: share its answer
            Outcome o = running.join();
            if (o instanceof Outcome.Done d && !VerdictStatus.FAILED.is(d.verdict().getStatus())) {
                return new Outcome.Done(copyFor(d.verdict(), request), false);
            }
            return o instanceof Outcome.Wait w ? w
                    : new Outcome.Wait(tries.lastReason != null ? tries.lastReason : "an identical prompt could not be judged yet",
                    SHARED_RECHECK, Resume.LATER);
        }
        Outcome outcome = null;
        try {
            outcome = decide(request, rubric, prompt, key, tries);
            if (outcome instanceof Outcome.Done d && d.fresh()) {
                cache.put(key, d.verdict());
            }
            return outcome;
        } finally {
            cache.release(key, mine, outcome != null ? outcome
                    : new Outcome.Wait("judging failed unexpectedly; retrying", Duration.ofSeconds(5), Resume.LATER));
        }
    }

    private Outcome decide(JudgeRequest request, JudgeRubric rubric, JudgePrompt prompt, String key, Tries tries) {
        GenerationEvent event = request.getEvent();
        String run = event.getRunId();
        String modality = event.getModality();
        long inputEstimate = estimateInputTokens(prompt);
        int cap = settings.profile().outputCap();
        double reservedUsd = settings.cost(inputEstimate, cap);
        var refused = ledger.reserve(run, reservedUsd);
        if (refused.isPresent()) {
            CostProjection p = projection;
            String beyond = p == null ? "" : p.beyondBudget(run, event.getCheckpointId(), settings.pricing().budgetUsdPerRun());
            return new Outcome.Wait(refused.get() + beyond, BUDGET_RECHECK, Resume.LATER);
        }
        JudgeResilience.Tally tally = tries.tally;
        int attempts0 = tally.attempts;
        long in0 = tally.inputTokens;
        long out0 = tally.outputTokens;
        double usd0 = tally.usd(settings.pricing());
        long t0 = System.nanoTime();
        Outcome outcome;
        try {
            if (resilience.circuit() == CircuitBreaker.State.OPEN) {
                outcome = circuitOpen();
            } else {
                outcome = callAndParse(request, rubric, prompt, key, modality, inputEstimate, tries, t0);
            }
        } finally {
            long in = tally.inputTokens - in0;
            long out = tally.outputTokens - out0;
            double cost = tally.usd(settings.pricing()) - usd0;
            ledger.settle(run, event.getCheckpointId(), reservedUsd, tally.attempts - attempts0, in, out, cost);
            if (tally.attempts > attempts0) {
                metrics.tokens(run, event.getCheckpointId(), in, out, cost);
            }
        }
        return outcome;
    }

    private Outcome callAndParse(JudgeRequest request, JudgeRubric rubric, JudgePrompt prompt, String key,
                                 String modality, long inputEstimate, Tries tries, long t0) {
        JudgeResilience.Tally tally = tries.tally;
        ProviderCall call;
        try {
            call = materializer.call(settings.model(), prompt, rubric.answerSchema(modality), settings.profile());
        } catch (ArtifactUnavailableException e) {
            // the generation's store is out of reach (S3 down, slow): nothing was asked or billed; ask once it answers
            tries.cycles++;
            return new Outcome.Wait("cannot read the generation for the judge yet: " + e.getMessage(),
                    settings.retry().betweenCycles(tries.cycles), Resume.BACKOFF);
        } catch (ArtifactException | MediaException e) {
            return new Outcome.Done(verdict(request, rubric.version(), VerdictStatus.INVALID)
                    .setReason("cannot read the generation for the judge: " + e.getMessage()).build(), false);
        }
        String answer = null;
        try {
            ProviderReply reply;
            try {
                reply = firstCall(key, call, inputEstimate, tally);
            } catch (Deferred d) {
                if (d.again) {
                    tries.cycles++;
                    return new Outcome.Wait(d.reason + "; back in the queue", settings.retry().betweenCycles(tries.cycles), Resume.BACKOFF);
                }
                return new Outcome.Wait(d.reason, d.recheck, Resume.BATCH);
            }
            if (reply.cutBeforeAnswer()) {
                ModelProfile first = call.profile();
                if (first.canEnlarge()) {
                    // the room went on thinking: once more with twice the room, then the answer is final
                    metrics.enlarged();
                    call = call.withProfile(first.enlarged());
                    reply = resilience.call(call, inputEstimate + call.profile().outputCap(), tally);
                }
                if (reply.cutBeforeAnswer()) {
                    return done(request, rubric, key, tally, t0, VerdictStatus.INVALID, null, cutReason(reply, first, call.profile()), null);
                }
            }
            answer = reply.text();
            RubricAnswer parsed;
            try {
                parsed = rubric.parse(modality, answer);
            } catch (RubricAnswerException first) {
                metrics.repair();
                ProviderReply again = resilience.call(call.followedBy(clip(answer, MAX_KEPT_CHARS),
                                String.format(REPAIR, first.getMessage())),
                        inputEstimate + call.profile().outputCap(), tally);
                answer = again.text();
                try {
                    parsed = rubric.parse(modality, answer);
                } catch (RubricAnswerException second) {
                    String why = again.cutBeforeAnswer() ? cutReason(again, call.profile(), call.profile()) : second.getMessage();
                    return done(request, rubric, key, tally, t0, VerdictStatus.INVALID, null, "unusable answer after one repair: " + why,
                            answer);
                }
            }
            return done(request, rubric, key, tally, t0, VerdictStatus.VALID, parsed, null, null);
        } catch (CallNotPermittedException e) {
            return circuitOpen();
        } catch (QuotaLimiter.Closed e) {
            return new Outcome.Wait(e.getMessage(), e.retryIn, Resume.LATER);
        } catch (ProviderException e) {
            if (e.kind().answered()) {
                String reason = switch (e.kind()) {
                    case REFUSED -> "the judge refused to answer: " + e.getMessage();
                    case REJECTED -> "the judge rejected the request as configured (" + call.profile().describe() + "): "
                            + e.getMessage();
                    default -> "unusable answer: " + e.getMessage();
                };
                String raw = e.kind() == ProviderException.Kind.REFUSED && e.body() != null ? e.body() : answer;
                return done(request, rubric, key, tally, t0, VerdictStatus.INVALID, null, reason, raw);
            }
            if (e.kind() == ProviderException.Kind.CONFIGURATION) {
                tries.cycles++;
                return new Outcome.Wait("the judge endpoint rejects the configuration (" + e.getMessage()
                        + "); waiting for it to be fixed", settings.retry().betweenCycles(tries.cycles), Resume.BACKOFF);
            }
            tries.cycles++;
            Duration announced = resilience.announcedWait();
            Duration backoff = settings.retry().betweenCycles(tries.cycles);
            String hint = e.hint() == null ? "" : "; the provider asked to wait " + JudgeResilience.seconds(e.hint().delay())
                    + " (" + e.hint().source() + ")";
            return new Outcome.Wait("no answer from the judge yet (" + e.getMessage() + hint + "); retrying with backoff",
                    announced.compareTo(backoff) > 0 ? announced : backoff, Resume.BACKOFF);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Wait(STOPPING, Duration.ofSeconds(1), Resume.LATER);
        } catch (Exception e) {
            tries.cycles++;
            return new Outcome.Wait("judge call failed unexpectedly (" + e + "); retrying with backoff",
                    settings.retry().betweenCycles(tries.cycles), Resume.BACKOFF);
        }
    }

    /**
     * The request's first call, through its lane: realtime, or the batch lane's answer once its batch has ended
     * ({@link Deferred} while it waits, or when the batch gave no answer). Follow-up calls (more room, the repair
     * turn) are realtime.
     */
    private ProviderReply firstCall(String key, ProviderCall call, long inputEstimate, JudgeResilience.Tally tally)
            throws Exception {
        LaneRouter.Route route = lane.route(key, call);
        if (route instanceof LaneRouter.Answer a) {
            tally.batchAnswer(a.reply());
            return a.reply();
        }
        if (route instanceof LaneRouter.Failure f) {
            tally.attempts++;
            throw f.error();
        }
        if (route instanceof LaneRouter.Waiting w) {
            throw new Deferred(w.reason(), w.recheck(), false);
        }
        if (route instanceof LaneRouter.Again a) {
            throw new Deferred(a.reason(), Duration.ZERO, true);
        }
        try {
            return resilience.call(call, inputEstimate + call.profile().outputCap(), tally);
        } finally {
            lane.realtimeDone();
        }
    }

    /** A request that waits for the batch lane instead of a call. */
    private static final class Deferred extends Exception {
        final String reason;
        final Duration recheck;
        final boolean again;

        Deferred(String reason, Duration recheck, boolean again) {
            super(reason, null, false, false);
            this.reason = reason;
            this.recheck = recheck;
            this.again = again;
        }
    }

    private static String cutReason(ProviderReply reply, ModelProfile first, ModelProfile last) {
        String again = last.equals(first) ? "" : ", and again with " + last.describe();
        return "the answer was cut at the output cap before any text (finish " + reply.finishReason() + ", "
                + reply.outputTokens() + " output tokens of which " + reply.thinkingTokens() + " thinking) with "
                + first.describe() + again + "; raise --judge-thinking-budget or --judge-max-output-tokens";
    }

    private Outcome circuitOpen() {
        return new Outcome.Wait("judge circuit open after sustained failures; calls resume as soon as it lets probes through "
                + "(within " + settings.circuit().openFor().toSeconds() + " s)", settings.retry().backoffMax(), Resume.CIRCUIT);
    }

    /** The verdict of a request that got no answer by its deadline: FAILED with the last reason; never cached. */
    private JudgeVerdict failed(JudgeRequest request, Tries tries, String reason) {
        String version = rubrics.find(request.getRubric()).map(JudgeRubric::version).orElse("unknown");
        JudgeResilience.Tally t = tries.tally;
        return verdict(request, version, VerdictStatus.FAILED)
                .setReason(clip("no answer from the judge within " + settings.retry().deadline() + " of the request: " + reason,
                        MAX_REASON_CHARS))
                .setAttempts(t.attempts)
                .setInputTokens(t.inputTokens)
                .setOutputTokens(t.outputTokens)
                .setCostUsd(t.usd(settings.pricing()))
                .build();
    }

    private Outcome done(JudgeRequest request, JudgeRubric rubric, String key, JudgeResilience.Tally tally, long t0,
                         VerdictStatus status, RubricAnswer answer, String reason, String raw) {
        JudgeVerdict.Builder b = verdict(request, rubric.version(), status)
                .setReason(clip(reason, MAX_REASON_CHARS))
                .setRawText(clip(raw, MAX_KEPT_CHARS))
                .setLatencyMs((System.nanoTime() - t0) / 1_000_000)
                .setAttempts(tally.attempts)
                .setInputTokens(tally.inputTokens)
                .setOutputTokens(tally.outputTokens)
                .setCostUsd(tally.usd(settings.pricing()))
                .setCacheKey(key);
        if (answer != null) {
            Map<String, String> justifications = new HashMap<>();
            answer.justifications().forEach((metric, text) -> justifications.put(metric, clip(text, MAX_JUSTIFICATION_CHARS)));
            b.setMetrics(new HashMap<>(answer.metrics())).setJustifications(justifications);
        }
        return new Outcome.Done(b.build(), true);
    }

    private JudgeVerdict.Builder verdict(JudgeRequest request, String rubricVersion, VerdictStatus status) {
        return JudgeVerdict.newBuilder()
                .setRequestId(request.getRequestId())
                .setGenerationId(request.getGenerationId())
                .setRubric(request.getRubric())
                .setRubricVersion(rubricVersion)
                .setJudgeModel(settings.model())
                .setStatus(status.name())
                .setMetrics(new HashMap<>())
                .setJustifications(new HashMap<>())
                .setDecidedAt(Instant.now(clock));
    }

    /** A cached verdict re-addressed to another request; no call, no cost. */
    public static JudgeVerdict copyFor(JudgeVerdict cached, JudgeRequest request) {
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
        return notice(request, VerdictStatus.PENDING, reason);
    }

    /**
     * A FAILED verdict in place of one the broker refused to take ({@code error}: its exception's name), so
     * the score says why instead of waiting for a verdict that can never be written.
     */
    public JudgeVerdict unwritable(JudgeRequest request, String error) {
        return notice(request, VerdictStatus.FAILED, "the judge's verdict could not be written (" + error + ")");
    }

    private JudgeVerdict notice(JudgeRequest request, VerdictStatus status, String reason) {
        String version = rubrics.find(request.getRubric()).map(JudgeRubric::version).orElse("unknown");
        return verdict(request, version, status).setReason(reason).build();
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
    public long estimateInputTokens(JudgePrompt prompt) {
        long chars = prompt.system().length();
        long images = 0;
        for (JudgePrompt.Part p : prompt.parts()) {
            if (p instanceof JudgePrompt.Text t) {
                chars += t.text().length();
            } else if (p instanceof JudgePrompt.Media m) {
                images += m.video() ? settings.media().frames() : 1;
            }
        }
        return chars / 4 + images * settings.media().tokensPerImage();
    }

}
