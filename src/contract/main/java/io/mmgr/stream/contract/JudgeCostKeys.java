package io.mmgr.stream.contract;

/**
 * Keys of the judge's cost: the scorer's spend store ({@code run NUL checkpoint}) and the projections topic
 * ({@code run NUL checkpoint NUL worker}), so that a prefix scan of {@link #run} reads one run's checkpoints.
 */
public final class JudgeCostKeys {

    public static final char SEP = '\u0000';

    private JudgeCostKeys() {
    }

    /** The prefix of every key of a run. */
    public static String run(String run) {
        return run + SEP;
    }

    public static String checkpoint(String run, String checkpoint) {
        return run(run) + checkpoint;
    }

    public static String projection(String run, String checkpoint, String worker) {
        return checkpoint(run, checkpoint) + SEP + worker;
    }

    /** The checkpoint of a key of {@code run} (either kind). */
    public static String checkpointOf(String run, String key) {
        String rest = key.substring(run(run).length());
        int end = rest.indexOf(SEP);
        return end < 0 ? rest : rest.substring(0, end);
    }
}
