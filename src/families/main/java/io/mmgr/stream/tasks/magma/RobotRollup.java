package io.mmgr.stream.tasks.magma;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Robot success rates rolled up from tasks to suites and to the whole set, pooled (successes / trials),
 * as the LIBERO scripts report a suite: a task with more trials weighs more. A task whose trial count
 * misses its protocol is counted, and reported, not dropped.
 */
public final class RobotRollup {

    private RobotRollup() {
    }

    /** One task's trials as {@link RobotTrialsEvaluator} scored them. */
    public record TaskResult(String suite, String task, RobotTrialMetrics.Result result) {
    }

    /** Pooled counts over some tasks. */
    public record Totals(int tasks, int trials, int successes) {
        public double successRate() {
            return successes / (double) trials;
        }

        Totals plus(RobotTrialMetrics.Result r) {
            return new Totals(tasks + 1, trials + r.trials(), successes + r.successes());
        }
    }

    /**
     * @param overall    every task pooled
     * @param suites     per suite, in the order the suites first appear
     * @param mismatched tasks whose trial count differs from their protocol's
     */
    public record Rollup(Totals overall, Map<String, Totals> suites, int mismatched) {
        public Rollup {
            suites = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(suites));
        }
    }

    public static Rollup of(List<TaskResult> tasks) {
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("no robot tasks to roll up");
        }
        Totals overall = new Totals(0, 0, 0);
        Map<String, Totals> suites = new LinkedHashMap<>();
        int mismatched = 0;
        for (TaskResult t : tasks) {
            overall = overall.plus(t.result());
            suites.put(t.suite(), suites.getOrDefault(t.suite(), new Totals(0, 0, 0)).plus(t.result()));
            mismatched += t.result().trialCountMismatch() ? 1 : 0;
        }
        return new Rollup(overall, suites, mismatched);
    }
}
