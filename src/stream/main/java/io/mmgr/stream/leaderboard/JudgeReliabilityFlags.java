package io.mmgr.stream.leaderboard;

import io.mmgr.stream.avro.AgreementStat;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.leaderboard.ReliabilityFlags.Level;
import java.util.List;
import java.util.Locale;

/**
 * How far a task row's judged numbers can be trusted: the row's reliability (the judge's agreement with
 * human annotators on this task and generating model, {@link Agreement}) as a flag, with the figure
 * behind it, live once enough labels exist and from the MMGR paper's Table 5 before that. A row the
 * judge contributed nothing to (no judge configured, every verdict unusable) gets no such flag: there
 * is nothing of the judge's on it to discount. Registered in
 * {@code META-INF/services/io.mmgr.stream.leaderboard.ReliabilityFlags$Source}.
 */
public final class JudgeReliabilityFlags implements ReliabilityFlags.Source {

    @Override
    public List<ReliabilityFlags.Flag> flags(LeaderboardRow row) {
        String reliability = row.getReliability();
        if (reliability == null || !judged(row)) {
            return List.of();
        }
        AgreementStat stat = row.getAgreement().get(Agreement.JUDGE_VS_HUMAN);
        String figure = stat == null ? "no paired verdicts with human labels and no Table 5 figure" : figure(stat);
        return List.of(switch (reliability) {
            case Agreement.RELIABLE -> new ReliabilityFlags.Flag("judge-reliable", Level.INFO, "judged metrics reliable: " + figure);
            case Agreement.DISCOUNT -> new ReliabilityFlags.Flag("judge-discount", Level.WARN, "discount judged metrics: " + figure);
            default -> new ReliabilityFlags.Flag("judge-unknown", Level.INFO, "judge reliability unknown: " + figure);
        });
    }

    /** Whether any of the row's metrics is the judge's. */
    static boolean judged(LeaderboardRow row) {
        return row.getMetrics().keySet().stream()
                .anyMatch(k -> MetricKey.tryParse(k).filter(key -> key.isOf(Agreement.JUDGE)).isPresent());
    }

    /** The agreement behind the flag: live pairs with their figures, or the basis Agreement recorded (Table 5, too few pairs). */
    static String figure(AgreementStat s) {
        if (s.getBasis().startsWith(Agreement.LIVE_BASIS) && s.getPercentAgreement() != null) {
            return String.format(Locale.ROOT, "%.2f%% agreement with human annotators over %d paired verdicts%s",
                    s.getPercentAgreement() * 100, s.getPairs(),
                    s.getKappa() == null ? "" : String.format(Locale.ROOT, ", Cohen's kappa %.2f", s.getKappa()));
        }
        return s.getBasis();
    }
}
