package io.mmgr.stream.leaderboard;

import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.MetricStat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Why a leaderboard row should be read with care. The built-in flags come from the row itself
 * (partial, pending and failed samples, a small sample, a robot protocol mismatch); other modules
 * (e.g. the judge's human-agreement figures) add theirs by implementing {@link Source}. Whoever builds
 * the web API hands it the sources (the app: those listed in
 * {@code META-INF/services/io.mmgr.stream.leaderboard.ReliabilityFlags$Source}).
 */
public final class ReliabilityFlags {

    /** Fewer primaries than this make the interval wide enough to say so. */
    public static final long SMALL_SAMPLE = 30;

    /** How much a flag matters; the dashboard styles a flag by its {@link #label()}. */
    public enum Level {
        /** read the figure knowing this */
        INFO,
        /** the figure may mislead */
        WARN;

        /** Lower-case name, as the REST API and the dashboard carry it ({@code info}, {@code warn}). */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One flag: a short code for filtering, how much it matters and words for people. */
    public record Flag(String code, Level severity, String text) {

        /** The level as the REST API and the dashboard carry it ({@code info} or {@code warn}). */
        public String level() {
            return severity.label();
        }
    }

    /** A provider of flags for a row. */
    public interface Source {
        List<Flag> flags(LeaderboardRow row);
    }

    /** The built-in flags alone. */
    public static final ReliabilityFlags BUILT_IN = new ReliabilityFlags(List.of());

    private final List<Source> sources;

    /** The built-in flags, then those of {@code sources} in their order. */
    public ReliabilityFlags(List<? extends Source> sources) {
        this.sources = List.copyOf(sources);
    }

    public List<Flag> of(LeaderboardRow row) {
        List<Flag> out = new ArrayList<>(builtIn(row));
        for (Source s : sources) {
            out.addAll(s.flags(row));
        }
        return out;
    }

    static List<Flag> builtIn(LeaderboardRow row) {
        List<Flag> out = new ArrayList<>();
        if (row.getSamplesPartial() > 0) {
            // "unavailable": cannot arrive; "pending": still coming (one word each, as in the dashboard, REST and the run banner)
            out.add(new Flag("unavailable", Level.INFO, row.getSamplesPartial()
                    + " samples scored without parts that cannot arrive (judge not configured or evaluator not installed): "
                    + "their metrics are unavailable"));
        }
        if (row.getSamplesPending() > 0) {
            out.add(new Flag("pending", Level.INFO, row.getSamplesPending() + " samples with a part still coming (e.g. the judge)"));
        }
        if (row.getSamplesFailed() > 0) {
            out.add(new Flag("failed", Level.WARN, row.getSamplesFailed() + " samples failed to score (see the dead-letter topic)"));
        }
        if (row.getPrimaryCount() > 0 && row.getPrimaryCount() < SMALL_SAMPLE) {
            out.add(new Flag("small-sample", Level.INFO, "only " + row.getPrimaryCount() + " samples: a wide interval"));
        }
        MetricStat mismatch = row.getMetrics().get("robot-trials.trial_count_mismatch");
        if (mismatch != null && mismatch.getMean() > 0) {
            out.add(new Flag("trial-protocol", Level.WARN, "some tasks ran a trial count other than the protocol's"));
        }
        return out;
    }
}
