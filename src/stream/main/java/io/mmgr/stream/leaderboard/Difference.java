package io.mmgr.stream.leaderboard;

/**
 * A checkpoint's primary rate against a baseline's: the difference (candidate minus baseline) with
 * its 95% interval and a two-sided p-value of "no difference".
 *
 * @param method       {@link #PAIRED} (the same samples scored by both) or {@link #TWO_PROPORTION}
 * @param samples      samples compared (pairs when paired; the smaller group otherwise)
 * @param rate         the candidate's mean primary over the compared samples
 * @param baselineRate the baseline's mean primary over the compared samples
 */
public record Difference(String method, long samples, double rate, double baselineRate, double difference,
                         double ciLow, double ciHigh, double pValue) {

    public static final String PAIRED = "paired";
    public static final String TWO_PROPORTION = "two-proportion";
}
