package io.mmgr.stream.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * Throughput and latency percentiles of one load run.
 *
 * @param workload         what a sample was
 * @param samples          samples sent (each distinct)
 * @param publishSeconds   first event sent to last event acknowledged
 * @param scoreSeconds     first event sent to last sample score read
 * @param boardSeconds     first event sent to the leaderboard counting every sample
 * @param meanPrimary      mean primary score of the samples (a check that they were really scored)
 * @param scoreLatencies   per sample: event produced to its score written by the scorer (scoredAt - producedAt), ms
 * @param boardLatencies   per sample: event produced to the leaderboard row counting it, as read by this consumer, ms
 */
public record LoadReport(String workload, long samples, double publishSeconds, double scoreSeconds, double boardSeconds,
                         double meanPrimary, long[] scoreLatencies, long[] boardLatencies) {

    public double samplesPerSecond() {
        return samples / scoreSeconds;
    }

    /** Nearest-rank percentile of the given latencies, or -1 when there are none. */
    public static long percentile(long[] latencies, double p) {
        if (latencies.length == 0) {
            return -1;
        }
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        int idx = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100.0 * sorted.length) - 1));
        return sorted[idx];
    }

    public String summary() {
        return String.format(Locale.ROOT, "%s: %d samples scored in %.1f s = %.0f samples/s (published in %.1f s; "
                        + "leaderboard complete at %.1f s; mean primary %.3f)%n"
                        + "  event -> sample score  p50 %d ms, p95 %d ms, p99 %d ms, max %d ms%n"
                        + "  event -> leaderboard   p50 %d ms, p95 %d ms, p99 %d ms, max %d ms",
                workload, samples, scoreSeconds, samplesPerSecond(), publishSeconds, boardSeconds, meanPrimary,
                percentile(scoreLatencies, 50), percentile(scoreLatencies, 95), percentile(scoreLatencies, 99),
                percentile(scoreLatencies, 100), percentile(boardLatencies, 50), percentile(boardLatencies, 95),
                percentile(boardLatencies, 99), percentile(boardLatencies, 100));
    }
}
