package io.mmgr.stream.bench;

import io.mmgr.stream.judge.batch.LaneMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mmgr bench judge-lanes}: one checkpoint's judge requests in each lane, same workload, side by side. */
@Command(name = "judge-lanes", mixinStandardHelpOptions = true,
        description = {"One checkpoint's judge requests through a judge worker (in-process broker) in each lane against the "
                + "scripted provider (OpenAI's protocol: realtime under a quota, and its Batch API completing each batch "
                + "after --batch-time): time to the last final verdict, cost at the given prices (batch at the default "
                + "discount, 0.5), cost per 1,000 judged samples, realtime calls and batched requests.",
                "Exit status 1 if a lane left a request without its final verdict."})
public final class BenchJudgeLanesCommand implements Callable<Integer> {

    @Option(names = "--requests", defaultValue = "1000", description = "the checkpoint's judge requests (default: ${DEFAULT-VALUE})")
    int requests;

    @Option(names = "--quota", defaultValue = "10", description = "provider requests per second (default: ${DEFAULT-VALUE})")
    int quota;

    @Option(names = "--latency-ms", defaultValue = "200", description = "realtime answer latency (default: ${DEFAULT-VALUE})")
    long latencyMs;

    @Option(names = "--batch-time", defaultValue = "PT30S", description = "how long a batch takes at the provider (default: ${DEFAULT-VALUE})")
    Duration batchTime;

    @Option(names = "--latency-target", defaultValue = "PT30S", description = "--judge-latency-target for auto (default: ${DEFAULT-VALUE})")
    Duration target;

    @Option(names = "--batch-max-wait", defaultValue = "PT5S", description = "--judge-batch-max-wait (default: ${DEFAULT-VALUE})")
    Duration maxWait;

    @Option(names = "--price-input", defaultValue = "1.25", description = "US$ per million input tokens (default: ${DEFAULT-VALUE})")
    double priceInput;

    @Option(names = "--price-output", defaultValue = "10", description = "US$ per million output tokens (default: ${DEFAULT-VALUE})")
    double priceOutput;

    @Option(names = "--lanes", defaultValue = "realtime,auto,batch", split = ",", description = "lanes to run (default: ${DEFAULT-VALUE})")
    List<String> lanes;

    @Override
    public Integer call() throws Exception {
        JudgeLaneBench.Config c = new JudgeLaneBench.Config(requests, quota, Duration.ofMillis(latencyMs), batchTime, target, maxWait,
                priceInput, priceOutput);
        Path dir = Files.createTempDirectory("mmgr-judge-lanes");
        int status = 0;
        System.out.printf(Locale.ROOT, "%d requests, quota %d/s, realtime latency %d ms, batches take %s, auto's target %s, "
                + "prices $%.2f / $%.2f per M tokens%n", requests, quota, latencyMs, batchTime, target, priceInput, priceOutput);
        for (String name : lanes) {
            LaneMode lane = LaneMode.parse(name.trim());
            String load = RestartBench.loadAverage();
            JudgeLaneBench.Result r = JudgeLaneBench.run(c, lane, dir.resolve(lane.name().toLowerCase(Locale.ROOT)));
            System.out.printf(Locale.ROOT, "%-8s %d/%d final in %.1f s, cost $%.4f ($%.4f per 1,000), %d realtime calls, %d requests "
                            + "in %d batches (load %s -> %s)%n", name, r.verdicts(), requests, r.seconds(), r.costUsd(), r.costPer1000(),
                    r.realtimeCalls(), r.batched(), r.batches(), load, RestartBench.loadAverage());
            if (r.verdicts() < requests) {
                status = 1;
            }
        }
        return status;
    }
}
