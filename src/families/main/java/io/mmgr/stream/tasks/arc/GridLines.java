package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.RgbImage;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a grid image has drawn grid lines, and which readings agree with them. The telling sign is
 * the seam between two neighbouring cells of the same colour: without lines it shows no edge at all,
 * with lines it shows the line. A reading whose same-colour seams mostly show edges has lines on its
 * boundaries; a finer reading (each cell split in two) has many same-colour seams without edges and
 * is rejected when lines are seen. Images that give too few same-colour seams to tell are treated as
 * line-free (conservative: readings are then chosen as for any line-free image).
 */
final class GridLines {

    /** Colours of two cell cores this close (L1 RGB) are the same colour. */
    static final int SAME = 48;
    /** Same-colour seams needed to judge, and the share of them with an edge that means lines. */
    static final int MIN_SEAMS = 3;
    static final double LINE_SHARE = 0.75;

    private GridLines() {
    }

    /** Share of same-colour seams showing an edge under the reading, or NaN when there are too few. */
    static double seamEdgeShare(RgbImage img, boolean[] edgeX, boolean[] edgeY, AxisFit.Hypothesis rows,
                                AxisFit.Hypothesis cols) {
        int[][] core = coreMeans(img, rows, cols);
        int w = img.width();
        int h = img.height();
        int seams = 0;
        int withEdge = 0;
        for (int i = 0; i < rows.count(); i++) {
            int[] span = coreSpan(rows, i, h);
            for (int k = 1; k < cols.count(); k++) {
                if (ArcGridDecoder.l1(core[i][k - 1], core[i][k]) > SAME) {
                    continue;
                }
                seams++;
                if (edgeAlong(edgeX, w, cols.boundary(k), cols.tolerance(), span, true, w)) {
                    withEdge++;
                }
            }
        }
        for (int j = 0; j < cols.count(); j++) {
            int[] span = coreSpan(cols, j, w);
            for (int k = 1; k < rows.count(); k++) {
                if (ArcGridDecoder.l1(core[k - 1][j], core[k][j]) > SAME) {
                    continue;
                }
                seams++;
                if (edgeAlong(edgeY, w, rows.boundary(k), rows.tolerance(), span, false, h)) {
                    withEdge++;
                }
            }
        }
        return seams < MIN_SEAMS ? Double.NaN : withEdge / (double) seams;
    }

    /**
     * Lines are seen when same-colour seams show edges; a grid with too few same-colour neighbours is
     * judged by the seams' own colour instead: one colour, unlike the cells on both sides, at nearly
     * every seam (a seam without a line shows one neighbour's colour or a blend that varies with the pair).
     */
    static boolean lines(RgbImage img, boolean[] edgeX, boolean[] edgeY, AxisFit.Hypothesis rows, AxisFit.Hypothesis cols) {
        double share = seamEdgeShare(img, edgeX, edgeY, rows, cols);
        if (!Double.isNaN(share)) {
            return share >= LINE_SHARE;
        }
        int[][] core = coreMeans(img, rows, cols);
        List<Integer> seams = new ArrayList<>();
        int samples = 0;
        for (int i = 0; i < rows.count(); i++) {
            int y = (int) Math.round(rows.boundary(i) + rows.pitch() / 2);
            for (int k = 1; k < cols.count(); k++) {
                samples++;
                Integer c = seamColour(img, cols.boundary(k), y, true, core[i][k - 1], core[i][k]);
                if (c != null) {
                    seams.add(c);
                }
            }
        }
        for (int j = 0; j < cols.count(); j++) {
            int x = (int) Math.round(cols.boundary(j) + cols.pitch() / 2);
            for (int k = 1; k < rows.count(); k++) {
                samples++;
                Integer c = seamColour(img, rows.boundary(k), x, false, core[k - 1][j], core[k][j]);
                if (c != null) {
                    seams.add(c);
                }
            }
        }
        if (samples < 4 || seams.size() < 0.8 * samples) {
            return false;
        }
        int first = seams.get(seams.size() / 2);
        int agree = 0;
        for (int c : seams) {
            agree += ArcGridDecoder.l1(c, first) <= SAME ? 1 : 0;
        }
        return agree >= 0.8 * seams.size();
    }

    /** The seam pixel most unlike both neighbouring cells, if it is unlike both. */
    private static Integer seamColour(RgbImage img, double boundary, int at, boolean xAxis, int a, int b) {
        int limit = xAxis ? img.width() : img.height();
        int other = xAxis ? img.height() : img.width();
        if (at < 0 || at >= other) {
            return null;
        }
        int best = -1;
        int bestPx = 0;
        for (int p = (int) Math.floor(boundary); p <= (int) Math.ceil(boundary); p++) {
            if (p < 0 || p >= limit) {
                continue;
            }
            int px = xAxis ? img.get(p, at) : img.get(at, p);
            int d = Math.min(ArcGridDecoder.l1(px, a), ArcGridDecoder.l1(px, b));
            if (d > best) {
                best = d;
                bestPx = px;
            }
        }
        return best > SAME ? bestPx : null;
    }

    /** The candidates of one axis whose same-colour seams show the lines (or cannot be judged). */
    static List<AxisFit.Hypothesis> agreeing(RgbImage img, boolean[] edgeX, boolean[] edgeY,
                                             List<AxisFit.Hypothesis> candidates, AxisFit.Hypothesis across,
                                             boolean xAxis) {
        List<AxisFit.Hypothesis> out = new ArrayList<>();
        for (AxisFit.Hypothesis c : candidates) {
            double share = xAxis ? seamEdgeShare(img, edgeX, edgeY, across, c) : seamEdgeShare(img, edgeX, edgeY, c, across);
            if (Double.isNaN(share) || share >= LINE_SHARE) {
                out.add(c);
            }
        }
        return out;
    }

    /** Whether at least half of the positions along the seam's span have an edge near the boundary. */
    private static boolean edgeAlong(boolean[] edges, int w, double boundary, double tol, int[] span, boolean xAxis,
                                     int limit) {
        int lo = Math.max(0, (int) Math.floor(boundary - tol));
        int hi = Math.min(limit - 1, (int) Math.ceil(boundary + tol));
        int hit = 0;
        for (int a = span[0]; a <= span[1]; a++) {
            for (int p = lo; p <= hi; p++) {
                if (xAxis ? edges[a * w + p] : edges[p * w + a]) {
                    hit++;
                    break;
                }
            }
        }
        return hit * 2 >= span[1] - span[0] + 1;
    }

    /** The core (middle half) of cell {@code i} along an axis, as an inclusive pixel range. */
    private static int[] coreSpan(AxisFit.Hypothesis h, int i, int limit) {
        int a = clamp((int) Math.ceil(h.boundary(i) + h.pitch() / 4), limit);
        int b = Math.max(a, clamp((int) Math.floor(h.boundary(i + 1) - h.pitch() / 4), limit));
        return new int[] {a, b};
    }

    /** Mean colour of each cell's core. */
    static int[][] coreMeans(RgbImage img, AxisFit.Hypothesis rows, AxisFit.Hypothesis cols) {
        int[][] out = new int[rows.count()][cols.count()];
        for (int i = 0; i < rows.count(); i++) {
            int[] ys = coreSpan(rows, i, img.height());
            for (int j = 0; j < cols.count(); j++) {
                int[] xs = coreSpan(cols, j, img.width());
                long r = 0;
                long g = 0;
                long b = 0;
                int n = 0;
                for (int y = ys[0]; y <= ys[1]; y++) {
                    for (int x = xs[0]; x <= xs[1]; x++) {
                        int p = img.get(x, y);
                        r += (p >> 16) & 0xFF;
                        g += (p >> 8) & 0xFF;
                        b += p & 0xFF;
                        n++;
                    }
                }
                out[i][j] = (int) (r / n) << 16 | (int) (g / n) << 8 | (int) (b / n);
            }
        }
        return out;
    }

    private static int clamp(int v, int limit) {
        return Math.max(0, Math.min(limit - 1, v));
    }
}
