package io.mmgr.stream.judge;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Tokens and cost per run and per run x checkpoint, and the optional per-run budget. A call reserves
 * its estimated cost before it starts and settles the real cost after, so concurrent calls cannot
 * overrun the budget by more than the estimate's error.
 *
 * <p>Two sources add up: what the cache topic says every worker spent ({@link #observed}, persisted
 * with the follower's positions, so a restart remembers it), and what this worker spent that the topic
 * does not show yet ({@link #settle}; it leaves this part when the worker reads its own entry back).
 */
public final class CostLedger {

    /** Running totals. */
    public record Totals(long calls, long inputTokens, long outputTokens, double costUsd) {
        static final Totals ZERO = new Totals(0, 0, 0, 0.0);

        Totals plus(Totals o) {
            return new Totals(calls + o.calls, inputTokens + o.inputTokens, outputTokens + o.outputTokens, costUsd + o.costUsd);
        }

        Totals minus(Totals o) {
            return new Totals(Math.max(0, calls - o.calls), Math.max(0, inputTokens - o.inputTokens),
                    Math.max(0, outputTokens - o.outputTokens), Math.max(0.0, costUsd - o.costUsd));
        }
    }

    static final String RUN = "run:";
    static final String CHECKPOINT = "checkpoint:";

    private final Double budgetUsdPerRun;
    /** From the cache topic, keyed {@code run:<run>} and {@code checkpoint:<run> / <checkpoint>}. */
    private final Map<String, Totals> topic = new HashMap<>();
    /** This worker's spend not yet read back from the topic, keyed the same way. */
    private final Map<String, Totals> own = new HashMap<>();
    private final Map<String, Double> reserved = new HashMap<>();

    public CostLedger(Double budgetUsdPerRun) {
        this.budgetUsdPerRun = budgetUsdPerRun;
    }

    /** Reserves an estimated cost; the reason when the run's budget does not allow it. */
    public synchronized Optional<String> reserve(String run, double estimateUsd) {
        if (budgetUsdPerRun == null) {
            return Optional.empty();
        }
        double spent = run(run).costUsd();
        double held = reserved.getOrDefault(run, 0.0);
        if (spent + held + estimateUsd > budgetUsdPerRun) {
            return Optional.of(String.format(Locale.ROOT,
                    "judge budget of $%.4f for run %s is spent ($%.4f used, $%.4f held by calls under way); "
                            + "raise --judge-budget-usd to continue", budgetUsdPerRun, run, spent, held));
        }
        reserved.merge(run, estimateUsd, Double::sum);
        return Optional.empty();
    }

    /** Records a call's real tokens and cost and releases its reservation. */
    public synchronized void settle(String run, String checkpoint, double reservedUsd, long calls, long in, long out,
                                    double costUsd) {
        if (budgetUsdPerRun != null) {
            reserved.computeIfPresent(run, (k, v) -> Math.max(0.0, v - reservedUsd));
        }
        Totals t = new Totals(calls, in, out, costUsd);
        own.merge(RUN + run, t, Totals::plus);
        own.merge(CHECKPOINT + run + " / " + checkpoint, t, Totals::plus);
    }

    /**
     * Adds what a cache-topic entry says was spent; {@code mine}: this worker wrote it, so its spend moves
     * from the not-yet-read part to the topic's. Returns the changed topic totals (for the store).
     */
    synchronized Map<String, Totals> observed(String run, String checkpoint, long calls, long in, long out, double costUsd,
                                              boolean mine) {
        Totals t = new Totals(calls, in, out, costUsd);
        Map<String, Totals> changed = new HashMap<>();
        for (String k : new String[] {RUN + run, CHECKPOINT + run + " / " + checkpoint}) {
            changed.put(k, topic.merge(k, t, Totals::plus));
            if (mine) {
                own.computeIfPresent(k, (key, v) -> v.minus(t));
            }
        }
        return changed;
    }

    /** Restores the topic's totals a previous run of this worker had read (start-up). */
    synchronized void restore(Map<String, Totals> totals) {
        topic.putAll(totals);
    }

    private Totals total(String key) {
        return topic.getOrDefault(key, Totals.ZERO).plus(own.getOrDefault(key, Totals.ZERO));
    }

    public synchronized Totals run(String run) {
        return total(RUN + run);
    }

    public synchronized Totals checkpoint(String run, String checkpoint) {
        return total(CHECKPOINT + run + " / " + checkpoint);
    }

    /** Snapshot by {@code run / checkpoint}. */
    public synchronized Map<String, Totals> checkpoints() {
        Map<String, Totals> out = new TreeMap<>();
        for (String k : topic.keySet()) {
            if (k.startsWith(CHECKPOINT)) {
                out.put(k.substring(CHECKPOINT.length()), total(k));
            }
        }
        for (String k : own.keySet()) {
            if (k.startsWith(CHECKPOINT)) {
                out.put(k.substring(CHECKPOINT.length()), total(k));
            }
        }
        return out;
    }
}
