package io.mmgr.stream.tasks.nav;

/**
 * Success weighted by (normalized inverse) Path Length, Anderson et al. 2018, "On Evaluation of Embodied
 * Navigation Agents": per episode S * l / max(p, l), with S the success indicator, l the shortest-path
 * length from start to goal and p the length of the agent's path (as habitat-lab's SPL measure).
 */
public final class Spl {

    private Spl() {
    }

    public static double of(boolean success, double shortestPath, double agentPath) {
        if (shortestPath < 0 || agentPath < 0) {
            throw new IllegalArgumentException("path lengths cannot be negative");
        }
        if (!success) {
            return 0.0;
        }
        double denominator = Math.max(agentPath, shortestPath);
        return denominator == 0 ? 1.0 : shortestPath / denominator;
    }
}
