package io.mmgr.stream.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the demo simulates.
 *
 * @param dataDir     broker, registry, scorer state and the generated files
 * @param webPort     dashboard port (0: any free port)
 * @param brokerPort  embedded broker port on first start (0: any free port)
 * @param registryPort embedded registry port (0: any free port; busy: any free port)
 * @param families    simulated task families to include (empty: every one found)
 * @param items       benchmark items per task
 * @param seeds       samples per item and checkpoint
 * @param checkpoints checkpoints of the simulated training run
 * @param stepSize    training steps between checkpoints
 * @param interval    pause between checkpoints, so the curves grow at a watchable pace
 * @param regressAt   1-based checkpoint made worse on purpose (shows an alert); 0 for none
 * @param seed        seed of everything random, so a demo repeats
 */
public record DemoSettings(Path dataDir, int webPort, int brokerPort, int registryPort, List<String> families, int items, int seeds, int checkpoints,
                           long stepSize, Duration interval, int regressAt, long seed) {

    public DemoSettings {
        families = List.copyOf(families);
        if (items < 1 || seeds < 1 || checkpoints < 1 || stepSize < 1) {
            throw new IllegalArgumentException("items, seeds, checkpoints and step size must be at least 1");
        }
        if (regressAt < 0 || regressAt > checkpoints) {
            throw new IllegalArgumentException("--regress-at must name a checkpoint between 1 and " + checkpoints + " (0: none)");
        }
    }

    /**
     * Skill of checkpoint k (1-based): rises from 0.2 towards 0.95 as training goes on; the
     * regressed checkpoint keeps less than half of it.
     */
    public double skill(int k) {
        double s = 0.2 + 0.75 * (1 - Math.exp(-2.5 * k / (double) checkpoints));
        return k == regressAt ? s * 0.4 : s;
    }
}
