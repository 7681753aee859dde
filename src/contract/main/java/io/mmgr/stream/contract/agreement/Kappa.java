package io.mmgr.stream.contract.agreement;

import java.util.HashMap;
import java.util.Map;

/**
 * Chance-corrected agreement between judges over nominal ratings (a metric's distinct values are its
 * categories), with a 95 % interval kappa +- 1.96 SE clipped to [-1, 1]. Both tables only add, so they
 * grow verdict by verdict.
 * <ul>
 *   <li>Two judges: Cohen's kappa (Cohen 1960), SE = sqrt(p_o (1 - p_o) / (N (1 - p_e)^2)), Cohen's
 *       large-sample approximation (as in Wikipedia's "Cohen's kappa", section on the confidence interval).</li>
 *   <li>Three or more: Fleiss' kappa (Fleiss 1971) and the asymptotic SE of Fleiss, Nee and Landis (1979),
 *       sqrt(2) / (sum p_j q_j sqrt(N n (n - 1))) * sqrt((sum p_j q_j)^2 - sum p_j q_j (q_j - p_j)), the one R's
 *       {@code irr::kappam.fleiss} reports. It is derived under kappa = 0, so away from 0 the interval is
 *       approximate.</li>
 * </ul>
 */
public final class Kappa {

    /** 1.96: the two-sided 95 % normal quantile. */
    public static final double Z95 = 1.959963984540054;

    /**
     * @param kappa  the estimate; NaN when undefined (no items, or chance agreement 1: every rating the same)
     * @param low    the interval's lower end (NaN when undefined)
     * @param high   its upper end
     * @param items  items rated by every judge
     * @param method "cohen" or "fleiss"
     */
    public record Estimate(double kappa, double low, double high, long items, String method) {
        static Estimate of(double kappa, double se, long items, String method) {
            if (Double.isNaN(kappa)) {
                return new Estimate(Double.NaN, Double.NaN, Double.NaN, items, method);
            }
            return new Estimate(kappa, Math.max(-1.0, kappa - Z95 * se), Math.min(1.0, kappa + Z95 * se), items, method);
        }

        public boolean defined() {
            return !Double.isNaN(kappa);
        }
    }

    private Kappa() {
    }

    /** Two judges' ratings of the same items: counts by (first's value, second's value). */
    public static final class Cohen {
        private final Map<Double, Map<Double, Long>> cells = new HashMap<>();
        private long items;

        public synchronized void add(double first, double second) {
            add(first, second, 1);
        }

        /** {@code count} items rated {@code first} and {@code second}: a contingency table's cell (the leaderboard's 2x2 counts). */
        public synchronized void add(double first, double second, long count) {
            if (count < 0) {
                throw new IllegalArgumentException("a cell holds no fewer than 0 items, not " + count);
            }
            if (count == 0) {
                return;
            }
            cells.computeIfAbsent(first, k -> new HashMap<>()).merge(second, count, Long::sum);
            items += count;
        }

        public synchronized Estimate estimate() {
            if (items == 0) {
                return Estimate.of(Double.NaN, 0, 0, "cohen");
            }
            Map<Double, Long> rows = new HashMap<>();
            Map<Double, Long> cols = new HashMap<>();
            long agree = 0;
            for (var row : cells.entrySet()) {
                for (var cell : row.getValue().entrySet()) {
                    rows.merge(row.getKey(), cell.getValue(), Long::sum);
                    cols.merge(cell.getKey(), cell.getValue(), Long::sum);
                    if (row.getKey().equals(cell.getKey())) {
                        agree += cell.getValue();
                    }
                }
            }
            double n = items;
            double po = agree / n;
            double pe = 0.0;
            for (var r : rows.entrySet()) {
                pe += (r.getValue() / n) * (cols.getOrDefault(r.getKey(), 0L) / n);
            }
            if (pe >= 1.0) {
                return Estimate.of(Double.NaN, 0, items, "cohen");
            }
            double kappa = (po - pe) / (1.0 - pe);
            double se = Math.sqrt(po * (1.0 - po) / (n * (1.0 - pe) * (1.0 - pe)));
            return Estimate.of(kappa, se, items, "cohen");
        }
    }

    /** Several judges' ratings: per item, how many judges gave each value; every item rated by the same number. */
    public static final class Fleiss {
        private final int raters;
        private final Map<Double, Long> totals = new HashMap<>();
        private long items;
        private double sumAgreement;

        public Fleiss(int raters) {
            if (raters < 2) {
                throw new IllegalArgumentException("Fleiss' kappa needs at least two raters an item, not " + raters);
            }
            this.raters = raters;
        }

        /** One item's ratings by value; they must add up to the raters. */
        public synchronized void add(Map<Double, Integer> counts) {
            int n = counts.values().stream().mapToInt(Integer::intValue).sum();
            if (n != raters) {
                throw new IllegalArgumentException("an item has " + n + " ratings, not " + raters);
            }
            long pairs = 0;
            for (var e : counts.entrySet()) {
                pairs += (long) e.getValue() * (e.getValue() - 1);
                totals.merge(e.getKey(), (long) e.getValue(), Long::sum);
            }
            // P_i: the share of the item's ordered rater pairs that agree
            sumAgreement += pairs / (double) (raters * (raters - 1));
            items++;
        }

        public synchronized Estimate estimate() {
            if (items == 0) {
                return Estimate.of(Double.NaN, 0, 0, "fleiss");
            }
            double all = items * (double) raters;
            double pBar = sumAgreement / items;
            double pe = 0.0;
            double sumPq = 0.0;
            double sumPqQp = 0.0;
            for (long t : totals.values()) {
                double p = t / all;
                double q = 1.0 - p;
                pe += p * p;
                sumPq += p * q;
                sumPqQp += p * q * (q - p);
            }
            if (pe >= 1.0) {
                return Estimate.of(Double.NaN, 0, items, "fleiss");
            }
            double kappa = (pBar - pe) / (1.0 - pe);
            double se = Math.sqrt(2.0) / (sumPq * Math.sqrt(items * (double) raters * (raters - 1)))
                    * Math.sqrt(Math.max(0.0, sumPq * sumPq - sumPqQp));
            return Estimate.of(kappa, se, items, "fleiss");
        }
    }

}
