package io.mmgr.stream.judge;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Tokens and cost per run and per run x checkpoint, and the optional per-run budget. A call reserves
 * its estimated cost before it starts and settles the real cost after, so concurrent calls cannot
 * overrun the budget by more than the estimate's error. Seeded at start from the verdicts already
 * written, so a restart does not forget what a run has spent.
 */
public final class CostLedger {

    /** Running totals. */
    public record Totals(long calls, long inputTokens, long outputTokens, double costUsd) {
        static final Totals ZERO = new Totals(0, 0, 0, 0.0);

        Totals plus(long c, long in, long out, double cost) {
            return new Totals(calls + c, inputTokens + in, outputTokens + out, costUsd + cost);
        }
    }

    private final Double budgetUsdPerRun;
    private final Map<String, Totals> byRun = new TreeMap<>();
    private final Map<String, Totals> byCheckpoint = new TreeMap<>();
    private final Map<String, Double> reserved = new TreeMap<>();

    public CostLedger(Double budgetUsdPerRun) {
        this.budgetUsdPerRun = budgetUsdPerRun;
    }

    /** Reserves an estimated cost; the reason when the run's budget does not allow it. */
    public synchronized Optional<String> reserve(String run, double estimateUsd) {
        if (budgetUsdPerRun == null) {
            return Optional.empty();
        }
        double spent = byRun.getOrDefault(run, Totals.ZERO).costUsd();
        double held = reserved.getOrDefault(run, 0.0);
        if (spent + held + estimateUsd > budgetUsdPerRun) {
            return Optional.of(String.format(java.util.Locale.ROOT,
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
        add(run, checkpoint, calls, in, out, costUsd);
    }

    /** Adds what earlier verdicts spent (start-up). */
    public synchronized void seed(String run, String checkpoint, long calls, long in, long out, double costUsd) {
        add(run, checkpoint, calls, in, out, costUsd);
    }

    private void add(String run, String checkpoint, long calls, long in, long out, double costUsd) {
        byRun.merge(run, Totals.ZERO.plus(calls, in, out, costUsd), (a, b) -> a.plus(b.calls, b.inputTokens, b.outputTokens, b.costUsd));
        byCheckpoint.merge(run + " / " + checkpoint, Totals.ZERO.plus(calls, in, out, costUsd),
                (a, b) -> a.plus(b.calls, b.inputTokens, b.outputTokens, b.costUsd));
    }

    public synchronized Totals run(String run) {
        return byRun.getOrDefault(run, Totals.ZERO);
    }

    public synchronized Totals checkpoint(String run, String checkpoint) {
        return byCheckpoint.getOrDefault(run + " / " + checkpoint, Totals.ZERO);
    }

    /** Snapshot by {@code run / checkpoint}. */
    public synchronized Map<String, Totals> checkpoints() {
        return new TreeMap<>(byCheckpoint);
    }
}
