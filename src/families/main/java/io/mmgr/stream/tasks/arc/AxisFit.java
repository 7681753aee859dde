package io.mmgr.stream.tasks.arc;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds how many equal cells one axis of a grid image holds. Input: the edge profile along the axis
 * (per position, how many pixels across the grid see a colour change there). Edges are condensed to
 * peaks (centroids, robust to blur and to the two sides of a grid line); a count {@code n} is
 * <em>consistent</em> when, after a least-squares fit of start and pitch, nearly all edge mass lies
 * near the {@code n + 1} predicted boundaries. Every multiple of the true count is consistent too, so
 * the caller chooses among consistent counts (coarsest, squarest, ...).
 */
final class AxisFit {

    /**
     * A peak may sit this far from its boundary, as a fraction of the pitch, with a floor of 2.5 px for
     * blur, JPEG and resampling; the floor is at most 0.3 of the pitch, since at half a pitch any
     * lattice would fit (a 29-cell row would pass for 30 cells at 4 px a cell).
     */
    static final double TOLERANCE_FRACTION = 0.12;
    static final double TOLERANCE_MIN_PX = 2.5;
    static final double TOLERANCE_MAX_FRACTION = 0.3;

    static double tolerance(double pitch) {
        return Math.max(TOLERANCE_FRACTION * pitch, Math.min(TOLERANCE_MIN_PX, TOLERANCE_MAX_FRACTION * pitch));
    }
    /** Unexplained edge mass allowed for a consistent count (JPEG ringing, antialiasing). */
    static final double MAX_UNEXPLAINED = 0.04;

    /** One count's fit. {@code coverage} is filled in by the decoder for the counts it considers. */
    record Hypothesis(int count, double start, double pitch, double unexplained, double lineHalf, double residual) {
        Hypothesis(int count, double start, double pitch, double unexplained) {
            this(count, start, pitch, unexplained, 0, 0);
        }

        Hypothesis(int count, double start, double pitch, double unexplained, double lineHalf) {
            this(count, start, pitch, unexplained, lineHalf, 0);
        }

        double boundary(int k) {
            return start + k * pitch;
        }

        /** With thick grid lines both sides of a line are edges, half a line width off its centre. */
        double tolerance() {
            return Math.max(AxisFit.tolerance(pitch), lineHalf + Math.min(TOLERANCE_MIN_PX, 0.1 * pitch));
        }
    }

    record Peak(double centre, double mass) {
    }

    private AxisFit() {
    }

    /** Peaks of a profile: runs above {@code threshold}, split at deep valleys, as (centroid, mass). */
    static List<Peak> peaks(double[] profile, double threshold) {
        return peaks(profile, threshold, 0);
    }

    /** As {@link #peaks(double[], double)}, profile index i standing for position i + {@code offset}. */
    static List<Peak> peaks(double[] profile, double threshold, double offset) {
        int n = profile.length;
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            double l = i > 0 ? profile[i - 1] : profile[i];
            double r = i < n - 1 ? profile[i + 1] : profile[i];
            s[i] = (l + 2 * profile[i] + r) / 4.0;
        }
        List<Peak> out = new ArrayList<>();
        int i = 0;
        while (i < n) {
            if (s[i] < threshold) {
                i++;
                continue;
            }
            int j = i;
            while (j < n && s[j] >= threshold) {
                j++;
            }
            split(profile, s, i, j, out);
            i = j;
        }
        if (offset != 0) {
            out.replaceAll(p -> new Peak(p.centre() + offset, p.mass()));
        }
        return out;
    }

    /** Splits a run [from, to) at valleys lower than 60 % of the smaller neighbouring maximum. */
    private static void split(double[] raw, double[] s, int from, int to, List<Peak> out) {
        int segStart = from;
        int lastMax = from;
        for (int i = from + 1; i < to; i++) {
            if (s[i] > s[lastMax]) {
                lastMax = i;
            }
            // a valley at i: look for the next maximum after it
            if (i < to - 1 && s[i] < s[i - 1] && s[i] <= s[i + 1]) {
                int nextMax = i + 1;
                for (int k = i + 1; k < to; k++) {
                    if (s[k] > s[nextMax]) {
                        nextMax = k;
                    }
                    if (k + 1 < to && s[k + 1] < s[k]) {
                        break;
                    }
                }
                if (s[i] < 0.6 * Math.min(s[lastMax], s[nextMax])) {
                    out.add(centroid(raw, segStart, i + 1));
                    segStart = i + 1;
                    lastMax = nextMax;
                }
            }
        }
        out.add(centroid(raw, segStart, to));
    }

    private static Peak centroid(double[] raw, int from, int to) {
        double m = 0;
        double c = 0;
        for (int i = from; i < to; i++) {
            m += raw[i];
            c += raw[i] * i;
        }
        return m == 0 ? new Peak((from + to - 1) / 2.0, 0) : new Peak(c / m, m);
    }

    /**
     * Fits {@code count} cells between {@code start} and {@code end} (pixel positions of the outer
     * boundaries, as located) to the peaks; returns the refined fit and its unexplained edge mass.
     */
    static Hypothesis fit(List<Peak> peaks, double start, double end, int count) {
        return fit(peaks, start, end, count, 0);
    }

    /** As {@link #fit(List, double, double, int)}, boundaries being the centres of lines {@code 2 lineHalf} wide. */
    static Hypothesis fit(List<Peak> peaks, double start, double end, int count, double lineHalf) {
        double pitch = (end - start) / count;
        double s = start;
        double p = pitch;
        // two rounds of assignment + weighted least squares on (start, pitch)
        for (int round = 0; round < 2; round++) {
            double sw = 0;
            double sk = 0;
            double sx = 0;
            double skk = 0;
            double skx = 0;
            int kMin = Integer.MAX_VALUE;
            int kMax = Integer.MIN_VALUE;
            for (Peak pk : peaks) {
                int k = (int) Math.round((pk.centre() - s) / p);
                if (k < 0 || k > count) {
                    continue;
                }
                double signed = pk.centre() - (s + k * p);
                double d = Math.abs(signed);
                if (d > 0.35 * p + lineHalf) {
                    continue;
                }
                // a side of a thick line stands for the line's centre, half a width in; one side alone
                // (the other merged into a cell of the line's colour) must not pull the fit off centre
                double x = d >= lineHalf / 2 ? pk.centre() - Math.signum(signed) * lineHalf : pk.centre();
                double w = pk.mass();
                sw += w;
                sk += w * k;
                sx += w * x;
                skk += w * k * k;
                skx += w * k * x;
                kMin = Math.min(kMin, k);
                kMax = Math.max(kMax, k);
            }
            if (kMax - kMin < 1 || sw == 0) {
                break;
            }
            double det = sw * skk - sk * sk;
            if (Math.abs(det) < 1e-9) {
                break;
            }
            double newP = (sw * skx - sk * sx) / det;
            double newS = (sx - newP * sk) / sw;
            // a refit may not wander off the located extent (a few pixels of halo at most)
            double slack = new Hypothesis(count, start, pitch, 0, lineHalf).tolerance();
            if (newP <= 0 || Math.abs(newS - start) > slack || Math.abs(newS + count * newP - end) > slack) {
                break;
            }
            s = newS;
            p = newP;
        }
        Hypothesis h = new Hypothesis(count, s, p, 0, lineHalf);
        double tol = h.tolerance();
        // the outer boundaries are the located extent: a fit that moved them is not a reading of this grid
        if (Math.abs(s - start) > tol || Math.abs(h.boundary(count) - end) > tol) {
            return new Hypothesis(count, s, p, 1.0, lineHalf);
        }
        double total = 0;
        double unexplained = 0;
        double off = 0;
        for (Peak pk : peaks) {
            total += pk.mass();
            int k = (int) Math.round((pk.centre() - s) / p);
            k = Math.max(0, Math.min(count, k));
            double d = Math.abs(pk.centre() - h.boundary(k));
            if (d > tol) {
                unexplained += pk.mass();
            } else {
                off += pk.mass() * Math.max(0, d - lineHalf);
            }
        }
        double explained = total - unexplained;
        return new Hypothesis(count, s, p, total == 0 ? 0 : unexplained / total, lineHalf,
                explained == 0 ? 0 : off / explained);
    }
}
