package io.mmgr.stream.tasks.magma;

import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Robot manipulation success rate per task (LIBERO, SimplerEnv): successful trials / trials, as the
 * seed's {@code score_robotics}, with a flag when the number of trials is not what the suite's
 * protocol prescribes (a rate over 7 trials is not comparable with one over 50).
 *
 * <p>Trials per task, by suite:
 * <ul>
 *   <li>LIBERO (spatial, object, goal, 10, 90): 50, the {@code num_trials_per_task} of the LIBERO
 *       evaluation scripts (e.g. openvla/openvla {@code experiments/robot/libero/run_libero_eval.py});</li>
 *   <li>SimplerEnv WidowX (Bridge): 24, simpler-env/SimplerEnv {@code scripts/bridge.sh} runs every
 *       task with {@code --obj-variation-mode episode --obj-episode-range 0 24} and one robot pose,
 *       and the evaluator loops {@code range(start, end)};</li>
 *   <li>SimplerEnv Google Robot: varies per task and setting in the simpler-env scripts (e.g. pick
 *       coke can: 5 x 5 object positions per can orientation per URDF variant; move near: episodes
 *       0..60; drawers: 9 robot poses per drawer per URDF variant; put in drawer: 3 poses x 3 x 3
 *       object positions), so the benchmark item must state it.</li>
 * </ul>
 * Where the benchmark item states {@code protocolTrials}, that count wins.
 */
public final class RobotTrialMetrics {

    private RobotTrialMetrics() {
    }

    /** One rollout: its index within the task and whether it reached the goal. */
    public record Trial(int index, boolean success) {
    }

    public record Result(int trials, int successes, int protocolTrials) {
        public double successRate() {
            return successes / (double) trials;
        }

        public boolean trialCountMismatch() {
            return trials != protocolTrials;
        }
    }

    /** The suite's fixed trial count, or empty when the suite's count varies per task (or is unknown). */
    public static OptionalInt suiteProtocolTrials(String task) {
        if (task != null && task.startsWith("libero-")) {
            return OptionalInt.of(MagmaThresholds.LIBERO_TRIALS_PER_TASK);
        }
        if ("simplerenv-widowx".equals(task)) {
            return OptionalInt.of(MagmaThresholds.SIMPLERENV_WIDOWX_TRIALS_PER_TASK);
        }
        return OptionalInt.empty();
    }

    /** The benchmark item's count when given, else the suite's; fails when neither is known. */
    public static int protocolTrials(String task, Integer itemProtocolTrials) {
        if (itemProtocolTrials != null) {
            if (itemProtocolTrials <= 0) {
                throw new IllegalArgumentException("protocolTrials must be positive, got " + itemProtocolTrials);
            }
            return itemProtocolTrials;
        }
        OptionalInt suite = suiteProtocolTrials(task);
        if (suite.isEmpty()) {
            throw new IllegalArgumentException("protocolTrials is missing: the trial count of '" + task
                    + "' varies per task, so the benchmark item must give groundTruth.protocolTrials");
        }
        return suite.getAsInt();
    }

    public static Result score(List<Trial> trials, int protocolTrials) {
        if (trials.isEmpty()) {
            throw new IllegalArgumentException("no trials: a success rate needs at least one trial");
        }
        if (protocolTrials <= 0) {
            throw new IllegalArgumentException("protocolTrials must be positive, got " + protocolTrials);
        }
        Set<Integer> seen = new HashSet<>();
        int successes = 0;
        for (Trial t : trials) {
            if (!seen.add(t.index())) {
                throw new IllegalArgumentException("trial " + t.index() + " is reported twice");
            }
            successes += t.success() ? 1 : 0;
        }
        return new Result(trials.size(), successes, protocolTrials);
    }
}
