package io.mmgr.stream.tasks.nav;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.SingularValueDecomposition_F64;

/**
 * A similarity (or rigid) transform {@code y = s R x + t} fitted by least squares to point pairs with
 * Umeyama's method (S. Umeyama, "Least-squares estimation of transformation parameters between two
 * point patterns", IEEE TPAMI 13(4), 1991), as trajectory evaluations do before the absolute trajectory
 * error (e.g. the TUM RGB-D benchmark's evaluate_ate, and evo's align with correct_scale for monocular
 * estimates such as VGGT's, whose scale is arbitrary).
 */
public record Similarity(DMatrixRMaj rotation, double scale, double[] translation, int dims) {

    /**
     * @param dims            2 (x, y) or 3
     * @param withScale       fit the scale (Sim(3)); otherwise rigid (SE(3))
     * @param allowReflection let the orthogonal part be a reflection (a map drawn mirrored); otherwise a rotation
     */
    public static Similarity fit(List<Vec> source, List<Vec> target, int dims, boolean withScale, boolean allowReflection) {
        int n = source.size();
        if (n != target.size() || n == 0) {
            throw new IllegalArgumentException("alignment needs equally many source and target points, at least one");
        }
        double[] ms = mean(source, dims);
        double[] mt = mean(target, dims);
        DMatrixRMaj cov = new DMatrixRMaj(dims, dims);
        double varS = 0;
        for (int i = 0; i < n; i++) {
            double[] s = coords(source.get(i), dims);
            double[] t = coords(target.get(i), dims);
            for (int a = 0; a < dims; a++) {
                varS += (s[a] - ms[a]) * (s[a] - ms[a]) / n;
                for (int b = 0; b < dims; b++) {
                    cov.add(a, b, (t[a] - mt[a]) * (s[b] - ms[b]) / n);
                }
            }
        }
        SingularValueDecomposition_F64<DMatrixRMaj> svd = DecompositionFactory_DDRM.svd(dims, dims, true, true, false);
        if (!svd.decompose(cov.copy())) {
            throw new IllegalStateException("SVD did not converge");
        }
        DMatrixRMaj u = svd.getU(null, false);
        DMatrixRMaj v = svd.getV(null, false);
        double[] d = svd.getSingularValues();
        DMatrixRMaj sign = CommonOps_DDRM.identity(dims);
        if (!allowReflection && CommonOps_DDRM.det(u) * CommonOps_DDRM.det(v) < 0) {
            // flip the axis of the smallest singular value
            int smallest = 0;
            for (int i = 1; i < dims; i++) {
                if (d[i] < d[smallest]) {
                    smallest = i;
                }
            }
            sign.set(smallest, smallest, -1);
        }
        DMatrixRMaj us = new DMatrixRMaj(dims, dims);
        CommonOps_DDRM.mult(u, sign, us);
        DMatrixRMaj r = new DMatrixRMaj(dims, dims);
        CommonOps_DDRM.multTransB(us, v, r);
        double scale = 1;
        if (withScale) {
            double trace = 0;
            for (int i = 0; i < dims; i++) {
                trace += d[i] * sign.get(i, i);
            }
            scale = varS == 0 ? 1 : trace / varS;
        }
        double[] t = new double[dims];
        for (int a = 0; a < dims; a++) {
            double rs = 0;
            for (int b = 0; b < dims; b++) {
                rs += r.get(a, b) * ms[b];
            }
            t[a] = mt[a] - scale * rs;
        }
        return new Similarity(r, scale, t, dims);
    }

    public Vec apply(Vec p) {
        double[] c = coords(p, dims);
        double[] out = new double[3];
        for (int a = 0; a < dims; a++) {
            double v = translation[a];
            for (int b = 0; b < dims; b++) {
                v += scale * rotation.get(a, b) * c[b];
            }
            out[a] = v;
        }
        return new Vec(out[0], out[1], dims == 3 ? out[2] : 0);
    }

    /** Rotates and scales a displacement (no translation). */
    public Vec applyToVector(Vec p) {
        Vec zero = apply(new Vec(0, 0, 0));
        return apply(p).minus(zero);
    }

    private static double[] mean(List<Vec> pts, int dims) {
        double[] m = new double[dims];
        for (Vec p : pts) {
            double[] c = coords(p, dims);
            for (int a = 0; a < dims; a++) {
                m[a] += c[a] / pts.size();
            }
        }
        return m;
    }

    static double[] coords(Vec p, int dims) {
        return dims == 2 ? new double[] {p.x(), p.y()} : new double[] {p.x(), p.y(), p.z()};
    }
}
