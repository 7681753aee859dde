package io.mmgr.stream.tasks.nav;

import java.util.List;
import java.util.function.ToDoubleBiFunction;

/**
 * Dynamic Time Warping path metrics of Ilharco et al. 2019, "General Evaluation for Instruction
 * Conditioned Navigation using Dynamic Time Warping" (reference code: google-research/google-research, r4r/dtw.py):
 * DTW(R, Q) is the minimum total distance of a monotone alignment of the query Q (the agent's path)
 * to the reference R; nDTW = exp(-DTW / (|R| d_th)); sDTW = SR * nDTW. The distance between points is
 * the environment's (shortest-path distance on a navigation graph in the paper; Euclidean in
 * continuous environments, as in habitat-lab's VLN-CE measures).
 */
public final class Dtw {

    private Dtw() {
    }

    public static double dtw(List<Vec> query, List<Vec> reference, ToDoubleBiFunction<Vec, Vec> distance) {
        int n = query.size();
        int m = reference.size();
        if (n == 0 || m == 0) {
            throw new IllegalArgumentException("DTW needs two non-empty paths");
        }
        double[] prev = new double[m + 1];
        double[] cur = new double[m + 1];
        java.util.Arrays.fill(prev, Double.POSITIVE_INFINITY);
        prev[0] = 0;
        for (int i = 1; i <= n; i++) {
            cur[0] = Double.POSITIVE_INFINITY;
            for (int j = 1; j <= m; j++) {
                double best = Math.min(prev[j], Math.min(cur[j - 1], prev[j - 1]));
                cur[j] = distance.applyAsDouble(query.get(i - 1), reference.get(j - 1)) + best;
            }
            double[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[m];
    }

    public static double dtw(List<Vec> query, List<Vec> reference) {
        return dtw(query, reference, Vec::distanceTo);
    }

    /** nDTW = exp(-DTW / (|R| * d_th)). */
    public static double ndtw(double dtw, int referenceLength, double threshold) {
        if (threshold <= 0) {
            throw new IllegalArgumentException("the success threshold d_th must be positive");
        }
        return Math.exp(-dtw / (referenceLength * threshold));
    }

    /** sDTW = SR * nDTW, with SR decided by {@link GeoAlign#succeeded} (strictly within d_th). */
    public static double sdtw(boolean success, double ndtw) {
        return success ? ndtw : 0.0;
    }
}
