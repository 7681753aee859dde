package io.mmgr.stream.report;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.ComparisonResult;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.MetricStat;
import io.mmgr.stream.contract.SampleKeys;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One run's result as a single self-contained HTML page: styles inline, the chart an inline SVG, no
 * script and nothing fetched, so it can be attached to a pull request or a training log, opened
 * offline, or printed to PDF. It holds the curves (every task and all tasks, the best and the chosen
 * checkpoint marked), the chosen checkpoint's leaderboard with its comparisons, and the run's alerts.
 * {@code bin/mmgr report} builds it from the topics, the dashboard's {@code /report} from the stores.
 */
public final class ReportPage {

    /**
     * The page's policy, in a meta tag (the file is opened from disk, where no header can carry it) and
     * as a header where it is served. No script may run (default-src 'none' covers script-src), nothing
     * may load; inline styles are allowed because the page's own style sheet and swatches are inline,
     * and with every fetch forbidden a style cannot send anything anywhere.
     */
    public static final String CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
            + "form-action 'none'";


    /** Task colours, the dashboard's too (app.js): a task keeps its colour whatever else appears. */
    public static final List<String> COLORS = List.of("#2f6fde", "#d64545", "#1f9d55", "#c98a00", "#8e44ad", "#16a3a3",
            "#e67e22", "#5d6d7e", "#b03a8c", "#6b8e23");
    public static final String ALL_TASKS_COLOR = "#111111";

    private ReportPage() {
    }

    /** The colour of a task: FNV-1a of its UTF-16 code units, as app.js computes it. */
    public static String color(String task) {
        if (SampleKeys.ALL_TASKS.equals(task)) {
            return ALL_TASKS_COLOR;
        }
        int h = 0x811c9dc5;
        for (int i = 0; i < task.length(); i++) {
            h ^= task.charAt(i);
            h *= 0x01000193;
        }
        return COLORS.get(Integer.remainderUnsigned(h, COLORS.size()));
    }

    /**
     * The best checkpoint of a run: the highest all-tasks primary rate among the fully scored checkpoints
     * (among all when none is complete yet), the earlier one on a tie.
     */
    public static Optional<LeaderboardRow> best(List<LeaderboardRow> allTasksRows) {
        List<LeaderboardRow> rated = allTasksRows.stream().filter(r -> r.getPrimaryRate() != null).toList();
        List<LeaderboardRow> complete = rated.stream()
                .filter(r -> r.getSamplesExpected() > 0 && r.getSamplesScored() >= r.getSamplesExpected()).toList();
        return (complete.isEmpty() ? rated : complete).stream()
                .max(Comparator.comparingDouble(LeaderboardRow::getPrimaryRate)
                        .thenComparing(Comparator.comparingLong(LeaderboardRow::getTrainingStep).reversed()));
    }

    /**
     * @param run         the run
     * @param checkpoint  the checkpoint shown in the table (null: the latest)
     * @param rows        leaderboard rows of the run (others are ignored)
     * @param comparisons comparisons of the run
     * @param alerts      the run's alerts, each as last updated (cleared ones are left out)
     */
    public static String html(String run, String checkpoint, List<LeaderboardRow> rows, List<CheckpointComparison> comparisons,
                              List<Alert> alerts, Instant generatedAt) {
        List<LeaderboardRow> mine = rows.stream().filter(r -> run.equals(r.getRunId())).toList();
        List<LeaderboardRow> checkpoints = mine.stream().filter(r -> SampleKeys.ALL_TASKS.equals(r.getTask()))
                .sorted(Comparator.comparingLong(LeaderboardRow::getTrainingStep).thenComparing(LeaderboardRow::getCheckpointId))
                .toList();
        if (checkpoints.isEmpty()) {
            throw new IllegalArgumentException("no leaderboard rows for run '" + run + "'");
        }
        String chosen = checkpoint != null ? checkpoint : checkpoints.get(checkpoints.size() - 1).getCheckpointId();
        if (checkpoints.stream().noneMatch(r -> r.getCheckpointId().equals(chosen))) {
            throw new IllegalArgumentException("run '" + run + "' has no checkpoint '" + chosen + "'");
        }
        String best = best(checkpoints).map(LeaderboardRow::getCheckpointId).orElse(null);
        Map<String, CheckpointComparison> byKey = new LinkedHashMap<>();
        comparisons.stream().filter(c -> run.equals(c.getRunId()))
                .forEach(c -> byKey.put(c.getCheckpointId() + "\u0000" + c.getTask(), c));
        String model = checkpoints.get(checkpoints.size() - 1).getModel();

        StringBuilder b = new StringBuilder(32_768);
        b.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(CSP).append("\">")
                .append("<title>mmgr-stream report · ").append(esc(run)).append(" · ").append(esc(chosen)).append("</title>")
                .append("<style>").append(STYLE).append("</style></head><body>\n");
        b.append("<h1>mmgr-stream report</h1><p class=\"muted\">run <b>").append(esc(run)).append("</b>")
                .append(model == null ? "" : " · model " + esc(model)).append(" · checkpoint <b>").append(esc(chosen))
                .append("</b> · generated ").append(generatedAt).append("</p>\n");
        verdict(b, checkpoints, chosen, best, byKey);
        b.append("<h2>Primary score by training step</h2>\n");
        chart(b, mine, chosen, best);
        b.append("<h2>Checkpoints</h2>\n");
        checkpointTable(b, checkpoints, chosen, best);
        b.append("<h2>Leaderboard · ").append(esc(chosen)).append("</h2>\n");
        board(b, mine, chosen, byKey);
        b.append("<h2>Alerts</h2>\n");
        alertList(b, alerts.stream().filter(a -> run.equals(a.getRunId()) && !a.getCleared()).toList());
        b.append("<p class=\"muted small\">A static page: no scripts, nothing loaded from elsewhere. Primary rates with 95% Wilson "
                + "intervals; comparisons paired on the samples both checkpoints have (McNemar), else two-proportion tests.</p>\n");
        b.append("</body></html>\n");
        return b.toString();
    }

    private static void verdict(StringBuilder b, List<LeaderboardRow> checkpoints, String chosen, String best,
                                Map<String, CheckpointComparison> byKey) {
        LeaderboardRow row = checkpoints.stream().filter(r -> r.getCheckpointId().equals(chosen)).findFirst().orElseThrow();
        CheckpointComparison c = byKey.get(chosen + "\u0000" + SampleKeys.ALL_TASKS);
        b.append("<div class=\"verdict\" id=\"verdict\"><b>All tasks: ").append(pct(row.getPrimaryRate())).append("</b> on ")
                .append(row.getPrimaryCount()).append(" of ").append(row.getSamplesExpected()).append(" samples");
        if (chosen.equals(best)) {
            b.append(" · <span class=\"best\">★ best checkpoint</span>");
        } else if (best != null) {
            b.append(" · best checkpoint: ").append(esc(best));
        }
        if (c != null && c.getVsPrevious() != null) {
            b.append(" · vs previous ").append(deltaText(c.getVsPrevious()));
        }
        if (c != null && c.getVsBest() != null) {
            b.append(" · vs best earlier ").append(deltaText(c.getVsBest()));
        }
        b.append("</div>\n");
    }

    private static void chart(StringBuilder b, List<LeaderboardRow> rows, String chosen, String best) {
        Map<String, List<LeaderboardRow>> series = new TreeMap<>(Comparator.comparing((String t) -> SampleKeys.ALL_TASKS.equals(t))
                .thenComparing(Comparator.naturalOrder()));
        for (LeaderboardRow r : rows) {
            if (r.getPrimaryRate() != null) {
                series.computeIfAbsent(r.getTask(), t -> new ArrayList<>()).add(r);
            }
        }
        series.values().forEach(l -> l.sort(Comparator.comparingLong(LeaderboardRow::getTrainingStep)));
        TreeSet<Long> steps = new TreeSet<>();
        rows.forEach(r -> steps.add(r.getTrainingStep()));
        int w = 900;
        int h = 300;
        int left = 48;
        int right = 40;
        int top = 12;
        int bottom = 40;
        double minX = steps.isEmpty() ? 0 : steps.first();
        double maxX = steps.isEmpty() ? 1 : steps.last();
        if (minX == maxX) {
            minX -= 1;
            maxX += 1;
        }
        double fx = (w - left - right) / (maxX - minX);
        double x0 = minX;
        java.util.function.DoubleUnaryOperator x = v -> left + fx * (v - x0);
        java.util.function.DoubleUnaryOperator y = v -> top + (h - top - bottom) * (1 - v);
        b.append(String.format(Locale.ROOT, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">", w, h, w, h));
        for (int g = 0; g <= 4; g++) {
            double v = g / 4.0;
            b.append(String.format(Locale.ROOT, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>", left, w - right, y.applyAsDouble(v),
                    y.applyAsDouble(v), left - 6, y.applyAsDouble(v) + 4, 25 * g));
        }
        for (long s : steps) {
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>", x.applyAsDouble(s),
                    h - bottom + 16, s));
        }
        b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"axis-title\">training step</text>",
                left + (w - left - right) / 2.0, h - 4));
        rows.stream().filter(r -> SampleKeys.ALL_TASKS.equals(r.getTask()) && r.getCheckpointId().equals(chosen)).findFirst()
                .ifPresent(r -> b.append(String.format(Locale.ROOT, "<line class=\"selected\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>",
                        x.applyAsDouble(r.getTrainingStep()), x.applyAsDouble(r.getTrainingStep()), top, h - bottom)));
        series.forEach((task, pts) -> {
            boolean all = SampleKeys.ALL_TASKS.equals(task);
            StringBuilder poly = new StringBuilder();
            for (LeaderboardRow p : pts) {
                poly.append(String.format(Locale.ROOT, "%.1f,%.1f ", x.applyAsDouble(p.getTrainingStep()), y.applyAsDouble(p.getPrimaryRate())));
            }
            b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"%s\"/>",
                    color(task), all ? "3.5" : "2", all ? " stroke-dasharray=\"7 4\"" : "", poly.toString().trim()));
            for (LeaderboardRow p : pts) {
                b.append(String.format(Locale.ROOT, "<circle r=\"%s\" fill=\"%s\" cx=\"%.1f\" cy=\"%.1f\"/>", all ? "4.5" : "3.5",
                        color(task), x.applyAsDouble(p.getTrainingStep()), y.applyAsDouble(p.getPrimaryRate())));
                if (all && p.getCheckpointId().equals(best)) {
                    b.append(String.format(Locale.ROOT, "<text class=\"best-mark\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">★ best</text>",
                            x.applyAsDouble(p.getTrainingStep()), y.applyAsDouble(p.getPrimaryRate()) - 10));
                }
            }
        });
        b.append("</svg>\n<div class=\"legend\">");
        series.keySet().forEach(t -> b.append("<span><i style=\"background:").append(color(t)).append("\"></i>")
                .append(SampleKeys.ALL_TASKS.equals(t) ? "all tasks" : esc(t)).append("</span>"));
        b.append("</div>\n");
    }

    private static void checkpointTable(StringBuilder b, List<LeaderboardRow> checkpoints, String chosen, String best) {
        b.append("<table><thead><tr><th>checkpoint</th><th>step</th><th>all tasks</th><th>95% CI</th><th>scored</th></tr></thead><tbody>");
        for (LeaderboardRow r : checkpoints) {
            b.append("<tr").append(r.getCheckpointId().equals(chosen) ? " class=\"chosen\"" : "").append("><td>")
                    .append(esc(r.getCheckpointId())).append(r.getCheckpointId().equals(best) ? " <span class=\"best\">★ best</span>" : "")
                    .append("</td><td>").append(r.getTrainingStep()).append("</td><td>").append(pct(r.getPrimaryRate()))
                    .append("</td><td>").append(ci(r)).append("</td><td>").append(r.getSamplesScored()).append(" / ")
                    .append(r.getSamplesExpected()).append("</td></tr>");
        }
        b.append("</tbody></table>\n");
    }

    private static void board(StringBuilder b, List<LeaderboardRow> rows, String chosen, Map<String, CheckpointComparison> byKey) {
        b.append("<table id=\"board\"><thead><tr><th>task</th><th>primary</th><th>95% CI</th><th>samples</th>"
                + "<th>vs previous</th><th>vs best earlier</th><th>fine-grained metrics</th></tr></thead><tbody>");
        rows.stream().filter(r -> r.getCheckpointId().equals(chosen))
                .sorted(Comparator.comparing((LeaderboardRow r) -> SampleKeys.ALL_TASKS.equals(r.getTask())).thenComparing(LeaderboardRow::getTask))
                .forEach(r -> {
                    CheckpointComparison c = byKey.get(chosen + "\u0000" + r.getTask());
                    boolean all = SampleKeys.ALL_TASKS.equals(r.getTask());
                    b.append("<tr").append(all ? " class=\"all\"" : "").append(" data-task=\"").append(esc(r.getTask())).append("\"><td>")
                            .append("<i class=\"swatch\" style=\"background:").append(color(r.getTask())).append("\"></i>")
                            .append(all ? "all tasks" : esc(r.getTask())).append("</td><td>").append(pct(r.getPrimaryRate()))
                            .append("</td><td>").append(ci(r)).append("</td><td>").append(r.getPrimaryCount()).append(" / ")
                            .append(r.getSamplesExpected()).append("</td><td>")
                            .append(c == null || c.getVsPrevious() == null ? "–" : deltaText(c.getVsPrevious())).append("</td><td>")
                            .append(c == null || c.getVsBest() == null ? "–" : deltaText(c.getVsBest())).append("</td><td class=\"small\">")
                            .append(metrics(r.getMetrics())).append("</td></tr>");
                });
        b.append("</tbody></table>\n");
    }

    private static void alertList(StringBuilder b, List<Alert> alerts) {
        if (alerts.isEmpty()) {
            b.append("<p class=\"muted\" id=\"alerts\">none</p>\n");
            return;
        }
        b.append("<ul id=\"alerts\">");
        alerts.stream().sorted(Comparator.comparing(Alert::getCheckpointId).thenComparing(Alert::getTask).thenComparing(Alert::getKind))
                .forEach(a -> b.append("<li><b>").append(SampleKeys.ALL_TASKS.equals(a.getTask()) ? "all tasks" : esc(a.getTask()))
                        .append("</b> ").append(esc(a.getCheckpointId())).append(": ").append(esc(a.getMessage()))
                        .append(a.getPartial() ? " <span class=\"muted\">(partial)</span>" : "").append("</li>"));
        b.append("</ul>\n");
    }

    private static String deltaText(ComparisonResult r) {
        String cls = r.getSignificantDrop() ? "down sig" : r.getDifference() < 0 ? "down" : "up";
        return String.format(Locale.ROOT, "<span class=\"%s\">%+.1f pts%s</span> <span class=\"muted small\">vs %s, p=%s%s</span>", cls,
                100 * r.getDifference(), r.getSignificantDrop() ? " ▼" : "", esc(r.getBaselineCheckpointId()), p(r.getPValue()),
                r.getPartial() ? ", partial" : "");
    }

    private static String metrics(Map<String, MetricStat> metrics) {
        StringBuilder b = new StringBuilder();
        new TreeMap<>(metrics).forEach((k, v) -> {
            if (!k.startsWith("gate.") && b.length() < 600) {
                b.append(b.length() == 0 ? "" : " · ").append(esc(k.replaceFirst("^[^.]+\\.", ""))).append(' ')
                        .append(number(v.getMean()));
            }
        });
        return b.toString();
    }

    /** Integers as integers (a count of trials is no rate), other values to three decimals. */
    static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String p(double p) {
        return p < 0.001 ? String.format(Locale.ROOT, "%.1e", p) : String.format(Locale.ROOT, "%.3f", p);
    }

    private static String pct(Double x) {
        return x == null ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * x);
    }

    private static String ci(LeaderboardRow r) {
        return r.getPrimaryCiLow() == null ? "–" : "[" + pct(r.getPrimaryCiLow()) + ", " + pct(r.getPrimaryCiHigh()) + "]";
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static final String STYLE = "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;margin:24px;max-width:1100px}"
            + "h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:22px 0 8px}.muted{color:#6b7385}.small{font-size:12px}"
            + "table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #e3e6ee;vertical-align:top}"
            + "th{font-weight:600;color:#4a5266;font-size:12px}tr.all td{font-weight:600;background:#f4f6fb}tr.chosen td{background:#eef3ff}"
            + ".verdict{padding:10px 12px;border:1px solid #d5dbea;border-radius:6px;background:#f8f9fc}"
            + ".best{color:#a06a00;font-weight:600}.up{color:#1f7a3f}.down{color:#b23a3a}.sig{font-weight:700}"
            + ".chart{max-width:100%;height:auto;font-size:11px;fill:#4a5266}.chart .grid{stroke:#e3e6ee}"
            + ".chart .selected{stroke:#2f6fde;stroke-opacity:.35;stroke-width:10}.chart .best-mark{fill:#a06a00;font-weight:600}"
            + ".chart .axis-title{fill:#6b7385}.legend span{margin-right:14px;font-size:12px}"
            + ".legend i,.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px}"
            + "@media print{body{margin:0}h2{break-after:avoid}tr{break-inside:avoid}}";
}
