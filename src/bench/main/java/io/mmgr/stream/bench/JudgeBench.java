package io.mmgr.stream.bench;

import io.mmgr.stream.contract.VerdictStatus;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.judge.JudgeEngine;
import io.mmgr.stream.judge.JudgeMetrics;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.VerdictCache;
import io.mmgr.stream.tasks.math.MathTruth;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Judge throughput against the scripted provider: distinct Math requests (no cache hits) go through
 * the judge engine on a pool as large as the worker's, while the provider answers after a fixed
 * latency, enforces the quota over a sliding window of arrivals as a real provider counts it (a request
 * past it gets the protocol's 429 with its hints), and can answer 429 to a random share of requests
 * too. Reports what the provider saw: sustained requests/s against the quota, the most requests in any
 * one-second window, and how many it refused.
 */
public final class JudgeBench {

    /**
     * @param requests      distinct judge requests
     * @param quota         provider requests per second
     * @param latency       provider answer latency
     * @param rateLimited   share of requests answered 429 at random (besides the enforced quota)
     * @param retryAfter    the wait those announce, seconds
     * @param concurrency   calls in flight (bulkhead)
     * @param protocol      the protocol the scripted provider is spoken to in
     * @param quotaMargin   the judge's allowance for send-to-arrival jitter
     * @param seed          randomness of the 429s
     * @param enforce       the provider answers 429 past the quota
     */
    public record Config(int requests, int quota, Duration latency, double rateLimited, double retryAfter, int concurrency,
                         JudgeProtocol protocol, Duration quotaMargin, long seed, boolean enforce) {
    }

    /**
     * @param seen              requests the provider received (429s included)
     * @param rateLimited       of which answered 429
     * @param verdicts          final verdicts
     * @param valid             of which VALID
     * @param providerSeconds   first to last arrival at the provider
     * @param overallRps        requests the provider received per second, first to last arrival
     * @param sustainedRps      the same between the 10th and 90th percentile arrivals (ramp-up and the
     *                          tail of late retries left out)
     * @param verdictsPerSecond final verdicts per second of wall time
     * @param maxInAnySecond    most arrivals in any sliding one-second window
     * @param busiestAt         when that window began, seconds after the first arrival
     */
    public record Report(int seen, long rateLimited, int verdicts, long valid, double providerSeconds, double overallRps,
                         double sustainedRps,
                         double verdictsPerSecond, int maxInAnySecond, double busiestAt, int quota) {
        public double quotaShare() {
            return sustainedRps / quota;
        }
    }

    private JudgeBench() {
    }

    public static Report run(Config c) throws Exception {
        SplittableRandom random = new SplittableRandom(c.seed());
        try (ScriptedVlmServer server = ScriptedVlmServer.start(e -> {
            boolean reject;
            synchronized (random) {
                reject = random.nextDouble() < c.rateLimited();
            }
            return reject ? ScriptedVlmServer.Action.rateLimited(c.retryAfter()) : ScriptedVlmServer.Action.ok(c.latency(), Map.of());
        }); VerdictCache cache = VerdictCache.temporary()) {
            if (c.enforce()) {
                server.quota(new ScriptedVlmServer.Quota(c.quota(), Duration.ofSeconds(1)));
            }
            URI base = URI.create(server.baseUrl(c.protocol()));
            JudgeSettings s = JudgeSettings.builder(c.protocol(), base, "bench-judge")
                    .quota(q -> q.requests(c.quota(), Duration.ofSeconds(1)).margin(c.quotaMargin()))
                    .concurrency(c.concurrency())
                    .timeout(Duration.ofSeconds(10))
                    .retry(r -> r.maxAttempts(6).backoff(Duration.ofMillis(200), Duration.ofSeconds(5)))
                    .build();
            JudgeEngine engine = JudgeRuntime.engine(s, JudgeRuntime.client(s, Map.of()),
                    new LocalArtifactResolver(List.of(Path.of("").toAbsolutePath()), LocalArtifactResolver.DEFAULT_MAX_BYTES,
                            Path.of(System.getProperty("java.io.tmpdir"))), cache, JudgeMetrics.standalone());
            ExecutorService pool = Executors.newFixedThreadPool(c.concurrency() + 2);
            List<Future<JudgeEngine.Outcome>> results = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int i = 0; i < c.requests(); i++) {
                JudgeRequest r = request(i);
                results.add(pool.submit(() -> judgeUntilDone(engine, r)));
            }
            int verdicts = 0;
            long valid = 0;
            for (Future<JudgeEngine.Outcome> f : results) {
                if (f.get() instanceof JudgeEngine.Outcome.Done d) {
                    verdicts++;
                    valid += VerdictStatus.VALID.is(d.verdict().getStatus()) ? 1 : 0;
                }
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            pool.shutdownNow();
            List<Long> arrivals = server.seen().stream().map(ScriptedVlmServer.Seen::arrivedNanos).sorted().toList();
            long refused = server.seen().stream().filter(x -> x.status() == 429).count();
            double span = (arrivals.get(arrivals.size() - 1) - arrivals.get(0)) / 1e9;
            // n arrivals span n-1 intervals
            double rps = (arrivals.size() - 1) / span;
            int lo = arrivals.size() / 10;
            int hi = arrivals.size() * 9 / 10;
            double steady = (hi - lo) / ((arrivals.get(hi) - arrivals.get(lo)) / 1e9);
            ScriptedVlmServer.Busiest busiest = server.busiestWindow(Duration.ofSeconds(1));
            return new Report(arrivals.size(), refused, verdicts, valid, span, rps, steady, verdicts / wall,
                    busiest.requests(), (busiest.fromNanos() - arrivals.get(0)) / 1e9, c.quota());
        }
    }

    /** What the worker does with a request that must wait: tries it again when the wait is over. */
    private static JudgeEngine.Outcome judgeUntilDone(JudgeEngine engine, JudgeRequest r) throws InterruptedException {
        JudgeEngine.Tries tries = new JudgeEngine.Tries();
        while (true) {
            JudgeEngine.Outcome o = engine.judge(r, tries);
            if (!(o instanceof JudgeEngine.Outcome.Wait w)) {
                return o;
            }
            Thread.sleep(Math.max(1, w.retryIn().toMillis()));
        }
    }

    static JudgeRequest request(int i) {
        String id = "bench-" + i;
        GenerationEvent e = GenerationEvent.newBuilder().setRunId("bench").setModel("bench-model").setCheckpointId("ckpt")
                .setTrainingStep(0).setTask("math").setSampleId(id).setModality("text")
                .setInputs(GenerationInputs.newBuilder().setText("x = " + i).build()).setProducedAt(Instant.now()).build();
        BenchmarkItem item = BenchmarkItem.newBuilder().setTask("math").setSampleId(id).setPrompt("case=" + id + " Solve x - " + i + " = 0.")
                .setGroundTruth(new MathTruth(Integer.toString(i)).into(GroundTruth.newBuilder()).build()).build();
        return JudgeRequest.newBuilder().setRequestId(id).setGenerationId(id).setRubric("math").setEvent(e).setItem(item)
                .setRequestedAt(Instant.now()).build();
    }
}
