package io.mmgr.stream.judge;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.mmgr.stream.avro.JudgeRequest;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A checkpoint's projected judge cost, known before its requests are sent: requests planned x judges x
 * samples x the estimated cost of a call x the lane's discount. The estimate is the running mean of the
 * calls settled so far (the ledger's cost over its calls, repair turns included); before the first, the
 * price of each planned request's estimated input tokens ({@link JudgeEngine#estimateInputTokens}) at the
 * full output cap, an upper bound as long as answers stay within the cap. Every judge of a panel is
 * priced at the first judge's prices. Shown as {@code mmgr.judge.projected_cost_usd{run,checkpoint}}.
 * (docs/judge.md, "Cost up front").
 */
public final class CostProjection {

    private record Planned(String run, String checkpoint, LongAdder requests, DoubleAdder firstCallUsd) {
    }

    private final CostLedger ledger;
    private final int judges;
    private final int samples;
    private final double laneDiscount;
    private final MeterRegistry registry;
    private final Map<String, Planned> byCheckpoint = new ConcurrentHashMap<>();

    /**
     * @param judges       judges per rubric (1 without a panel)
     * @param samples      answers per judge ({@code --judge-samples})
     * @param laneDiscount price factor of the lane the requests go through (1.0 realtime)
     */
    public CostProjection(CostLedger ledger, int judges, int samples, double laneDiscount, MeterRegistry registry) {
        if (judges < 1 || samples < 1) {
            throw new IllegalArgumentException("a projection needs at least one judge and one sample");
        }
        if (!(laneDiscount > 0.0) || laneDiscount > 1.0) {
            throw new IllegalArgumentException("the lane's price factor must be in (0, 1], not " + laneDiscount);
        }
        this.ledger = ledger;
        this.judges = judges;
        this.samples = samples;
        this.laneDiscount = laneDiscount;
        this.registry = registry;
    }

    /** Counts a request into its checkpoint before it is sent; {@code firstCallUsd}: its call's price estimate. */
    public void planned(JudgeRequest request, double firstCallUsd) {
        String run = request.getEvent().getRunId();
        String checkpoint = request.getEvent().getCheckpointId();
        Planned p = byCheckpoint.computeIfAbsent(key(run, checkpoint), k -> {
            Planned fresh = new Planned(run, checkpoint, new LongAdder(), new DoubleAdder());
            if (registry != null) {
                Gauge.builder("mmgr.judge.projected_cost_usd", () -> projectedUsd(run, checkpoint))
                        .description("projected judge cost of a checkpoint: requests x judges x samples x cost a call x lane factor")
                        .tag("run", run).tag("checkpoint", checkpoint).register(registry);
            }
            return fresh;
        });
        p.requests.increment();
        p.firstCallUsd.add(firstCallUsd);
    }

    /** One checkpoint's projection, as the judge-projections topic carries it. */
    public record Figures(String run, String checkpoint, long requests, int judges, int samples, double laneFactor,
                          double perCallUsd, double projectedUsd) {
    }

    /** Every checkpoint with requests counted in, as it stands now. */
    public java.util.List<Figures> figures() {
        java.util.List<Figures> out = new java.util.ArrayList<>();
        byCheckpoint.values().forEach(p -> out.add(new Figures(p.run(), p.checkpoint(), p.requests().sum(), judges, samples,
                laneDiscount, perCallUsd(p.run(), p.checkpoint()), projectedUsd(p.run(), p.checkpoint()))));
        return out;
    }

    /** The checkpoints of {@code run} with requests counted in, by id. */
    public java.util.SortedSet<String> checkpoints(String run) {
        java.util.SortedSet<String> out = new java.util.TreeSet<>();
        String prefix = key(run, "");
        byCheckpoint.keySet().forEach(k -> {
            if (k.startsWith(prefix)) {
                out.add(k.substring(prefix.length()));
            }
        });
        return out;
    }

    /** Requests counted into a checkpoint so far. */
    public long requests(String run, String checkpoint) {
        Planned p = byCheckpoint.get(key(run, checkpoint));
        return p == null ? 0 : p.requests.sum();
    }

    /** The estimated cost of one call: the settled calls' mean, else the planned requests' mean price estimate. */
    public double perCallUsd(String run, String checkpoint) {
        long calls = 0;
        double cost = 0.0;
        for (CostLedger.Totals t : ledger.checkpoints().values()) {
            calls += t.calls();
            cost += t.costUsd();
        }
        if (calls > 0) {
            return cost / calls;
        }
        Planned p = byCheckpoint.get(key(run, checkpoint));
        long n = p == null ? 0 : p.requests.sum();
        return n == 0 ? 0.0 : p.firstCallUsd.sum() / n;
    }

    /** The checkpoint's projected cost in US dollars. */
    public double projectedUsd(String run, String checkpoint) {
        return requests(run, checkpoint) * (double) judges * samples * perCallUsd(run, checkpoint) * laneDiscount;
    }

    /**
     * What a budget hold adds when the checkpoint's projection alone is past the run's budget ("" otherwise), so the
     * reason says the checkpoint cannot finish within it rather than only that the budget is spent.
     */
    public String beyondBudget(String run, String checkpoint, Double budgetUsd) {
        if (budgetUsd == null) {
            return "";
        }
        double projected = projectedUsd(run, checkpoint);
        if (projected <= budgetUsd) {
            return "";
        }
        return String.format(Locale.ROOT, "; checkpoint %s alone is projected at $%.4f (%d requests x %d judges x %d samples x "
                        + "$%.6f a call x lane factor %.2f), above the $%.4f budget", checkpoint, projected, requests(run, checkpoint),
                judges, samples, perCallUsd(run, checkpoint), laneDiscount, budgetUsd);
    }

    private static String key(String run, String checkpoint) {
        return run + " / " + checkpoint;
    }
}
