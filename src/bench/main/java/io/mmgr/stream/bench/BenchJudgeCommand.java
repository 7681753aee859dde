package io.mmgr.stream.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr bench judge}: judge throughput against a scripted provider on loopback. */
@Command(name = "judge", mixinStandardHelpOptions = true,
        description = {"Judge throughput: distinct requests through the judge (quota limiter, bulkhead, retry, circuit breaker) "
                + "against a scripted provider on loopback that answers slowly, enforces the quota over a sliding window "
                + "of arrivals (429 with the protocol's hints past it) and can return 429 for a share of requests.",
                "Prints the sustained requests/s the provider saw against its quota and the most in any 1 s window.",
                "Exit status 1 if any 1 s window held more than the quota."})
public final class BenchJudgeCommand implements Callable<Integer> {

    @Option(names = "--requests", defaultValue = "600", description = "distinct requests (default: ${DEFAULT-VALUE})")
    int requests;

    @Option(names = "--quota", defaultValue = "20", description = "provider requests per second (default: ${DEFAULT-VALUE})")
    int quota;

    @Option(names = "--latency-ms", defaultValue = "200", description = "provider latency (default: ${DEFAULT-VALUE})")
    long latencyMs;

    @Option(names = "--rate-limited", defaultValue = "0", description = "share of requests answered 429 at random, besides "
            + "the enforced quota (default: ${DEFAULT-VALUE}); every 429 holds all sends for its announced wait")
    double rateLimited;

    @Option(names = "--retry-after", defaultValue = "1", description = "the wait those 429s announce, seconds (default: ${DEFAULT-VALUE})")
    double retryAfter;

    @Option(names = "--no-enforce", description = "the provider does not refuse requests past the quota (only counts them)")
    boolean noEnforce;

    @Option(names = "--concurrency", defaultValue = "16", description = "calls in flight (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--quota-margin-ms", defaultValue = "25",
            description = "the judge's allowance for send-to-arrival jitter (default: ${DEFAULT-VALUE})")
    long marginMs;

    @Option(names = "--protocol", defaultValue = "openai", description = "openai, gemini, anthropic or azure-openai (default: ${DEFAULT-VALUE})")
    String protocol;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        out.printf("judge bench: %d requests, quota %d/s%s, latency %d ms, %.0f%% random 429 (wait %.1f s), %d in flight, %s, "
                        + "load average %s%n", requests, quota, noEnforce ? "" : " (enforced by the provider)", latencyMs,
                rateLimited * 100, retryAfter, concurrency, protocol, RestartBench.loadAverage());
        out.flush();
        JudgeBench.Report r = JudgeBench.run(new JudgeBench.Config(requests, quota, Duration.ofMillis(latencyMs), rateLimited,
                retryAfter, concurrency, io.mmgr.stream.judge.protocol.JudgeProtocol.parse(protocol), Duration.ofMillis(marginMs), 42, !noEnforce));
        out.printf("provider saw %d requests (%d answered 429) over %.2f s%n", r.seen(), r.rateLimited(), r.providerSeconds());
        out.printf("sustained (10th-90th percentile arrivals): %.2f requests/s = %.1f%% of the quota%n",
                r.sustainedRps(), r.quotaShare() * 100);
        out.printf("overall (first to last arrival): %.2f requests/s; most in any 1 s window: %d (quota %d), from %.2f s%n",
                r.overallRps(), r.maxInAnySecond(), r.quota(), r.busiestAt());
        out.printf("verdicts: %d (%d valid), %.2f verdicts/s; load average after: %s%n", r.verdicts(), r.valid(),
                r.verdictsPerSecond(), RestartBench.loadAverage());
        return r.maxInAnySecond() <= r.quota() ? 0 : 1;
    }
}
