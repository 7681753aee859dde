package io.mmgr.stream.tasks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Agreement between an evaluator and the known labels of a generated corpus, per render style: how many
 * samples of each style the evaluator scored exactly as constructed, and which ones it did not. Prints
 * the table the issue asks for; {@link #below} lists the styles under a required agreement.
 */
public final class StyleAgreement {

    /** One style's tally; {@code hardFailures} counts samples the evaluator refused outright. */
    public static final class Row {
        private final String style;
        private final String covers;
        private int samples;
        private int agreed;
        private int hardFailures;
        private int excluded;
        private final List<String> disagreements = new ArrayList<>();

        private Row(String style, String covers) {
            this.style = style;
            this.covers = covers;
        }

        public String style() {
            return style;
        }

        public int samples() {
            return samples;
        }

        public int agreed() {
            return agreed;
        }

        public int hardFailures() {
            return hardFailures;
        }

        public double agreement() {
            return samples == 0 ? Double.NaN : agreed / (double) samples;
        }

        public List<String> disagreements() {
            return disagreements;
        }
    }

    private final String title;
    private final Map<String, Row> rows = new LinkedHashMap<>();
    private final List<String> verdicts = new ArrayList<>();

    public StyleAgreement(String title) {
        this.title = title;
    }

    /** Declares a style and what it covers (for the table), in display order. */
    public void style(String style, String covers) {
        rows.putIfAbsent(style, new Row(style, covers));
    }

    public synchronized void agree(String style) {
        Row r = row(style);
        r.samples++;
        r.agreed++;
    }

    public synchronized void disagree(String style, String what) {
        Row r = row(style);
        r.samples++;
        r.disagreements.add(what);
    }

    /** A sample the evaluator refused (an exception where a score was due): a disagreement too. */
    public synchronized void hardFailure(String style, String what) {
        row(style).hardFailures++;
        disagree(style, "refused: " + what);
    }

    /** A sample left out because its picture cannot tell the label (counted, shown, not scored). */
    public synchronized void exclude(String style) {
        row(style).excluded++;
    }

    /** Notes what one sample came to (its id and what the evaluator read), for {@link #writeVerdicts}. */
    public synchronized void verdict(String style, String what) {
        verdicts.add(style + " " + what);
    }

    /** One line per noted sample, so a change to a pipeline can be diffed sample by sample against the last run. */
    public synchronized void writeVerdicts(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, verdicts);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Row row(String style) {
        Row r = rows.get(style);
        if (r == null) {
            throw new IllegalArgumentException("undeclared style " + style);
        }
        return r;
    }

    public List<Row> rows() {
        return List.copyOf(rows.values());
    }

    /** Styles whose agreement is under {@code required}, or that have no samples. */
    public List<String> below(double required) {
        List<String> out = new ArrayList<>();
        for (Row r : rows.values()) {
            if (r.samples == 0 || r.agreement() < required) {
                out.add(String.format(Locale.ROOT, "%s: %d/%d agree; %s", r.style, r.agreed, r.samples,
                        r.disagreements.subList(0, Math.min(8, r.disagreements.size()))));
            }
        }
        return out;
    }

    /** The per-style table: style, samples, agreed, agreement, refusals, excluded, what the style covers. */
    public String table() {
        int w = Math.max(5, rows.keySet().stream().mapToInt(String::length).max().orElse(5));
        StringBuilder sb = new StringBuilder(title).append('\n');
        String head = "%-" + w + "s  %7s  %6s  %9s  %7s  %8s  %s%n";
        sb.append(String.format(Locale.ROOT, head, "style", "samples", "agreed", "agreement", "refused", "excluded",
                "covers"));
        int samples = 0;
        int agreed = 0;
        for (Row r : rows.values()) {
            sb.append(String.format(Locale.ROOT, "%-" + w + "s  %7d  %6d  %8.1f%%  %7d  %8d  %s%n", r.style, r.samples,
                    r.agreed, 100 * r.agreement(), r.hardFailures, r.excluded, r.covers));
            samples += r.samples;
            agreed += r.agreed;
        }
        sb.append(String.format(Locale.ROOT, "%-" + w + "s  %7d  %6d  %8.1f%%%n", "all", samples, agreed,
                100.0 * agreed / Math.max(1, samples)));
        return sb.toString();
    }
}
