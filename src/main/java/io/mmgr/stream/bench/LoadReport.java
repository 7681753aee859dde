package io.mmgr.stream.bench;

import java.util.Arrays;

/** Throughput and latency percentiles of one load run. */
public record LoadReport(long samples, int stepsPerSample, double publishSeconds, double scoreSeconds,
                         long[] latenciesMillis) {

    public double samplesPerSecond() {
        return samples / scoreSeconds;
    }

    public long percentile(double p) {
        if (latenciesMillis.length == 0) {
            return -1;
        }
        long[] sorted = latenciesMillis.clone();
        Arrays.sort(sorted);
        int idx = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100.0 * sorted.length) - 1));
        return sorted[idx];
    }

    public String summary() {
        return String.format("%d samples (%d UI steps each) scored in %.1f s: %.0f samples/s, %.0f steps/s; "
                        + "published in %.1f s; event->score latency p50 %d ms, p95 %d ms, p99 %d ms, max %d ms",
                samples, stepsPerSample, scoreSeconds, samplesPerSecond(), samplesPerSecond() * stepsPerSample,
                publishSeconds, percentile(50), percentile(95), percentile(99), percentile(100));
    }
}
