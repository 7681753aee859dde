package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.RgbImage;

/**
 * The colour edges of a grid image, computed once per image. Two kinds: a central difference (pixel
 * {@code x-1} against {@code x+1}) thresholded per pixel, which {@link GridLines} checks seams with, and
 * the step between neighbouring pixels ({@code x-1} against {@code x}), which the lattice profiles are
 * built from. The step resolves what the central difference cannot: with 3 px cells between 1 px
 * lines the central difference fires on both sides of every line, every second pixel, and its profile
 * has period 2 whatever the pitch; steps sit on the line's own two sides, one pixel apart.
 */
final class EdgeMaps {

    /** A step under this (L1 RGB) is noise (JPEG, dithering); from {@link #STEP_FULL} on it counts fully. */
    static final int STEP_FLOOR = 16;
    static final int STEP_FULL = 64;
    private static final float[] WEIGHT = new float[STEP_FULL + 1];

    static {
        for (int d = 0; d <= STEP_FULL; d++) {
            WEIGHT[d] = d <= STEP_FLOOR ? 0f : (d - STEP_FLOOR) / (float) (STEP_FULL - STEP_FLOOR);
        }
    }

    final int width;
    final int height;
    /** Central-difference edges across x (a vertical edge) and across y. */
    final boolean[] edgeX;
    final boolean[] edgeY;
    /** Step from pixel x-1 to x (from row y-1 to y), capped at {@link #STEP_FULL}; its place is x - 0.5. */
    private final byte[] stepX;
    private final byte[] stepY;

    EdgeMaps(RgbImage img) {
        width = img.width();
        height = img.height();
        int w = width;
        int h = height;
        int[] px = img.pixels();
        edgeX = new boolean[w * h];
        edgeY = new boolean[w * h];
        stepX = new byte[w * h];
        stepY = new byte[w * h];
        // equal pixels (most of a drawn grid) have no step and no edge, which the arrays already hold:
        // only differing pairs are measured (building these maps was a fifth of the ARC style corpus)
        for (int y = 0; y < h; y++) {
            int o = y * w;
            for (int x = 1; x < w; x++) {
                int a = px[o + x - 1];
                int b = px[o + x];
                if (a != b) {
                    stepX[o + x] = (byte) Math.min(STEP_FULL, ArcGridDecoder.l1(a, b));
                }
                if (x < w - 1 && a != px[o + x + 1]) {
                    edgeX[o + x] = ArcGridDecoder.l1(a, px[o + x + 1]) > ArcGridDecoder.EDGE_THRESHOLD;
                }
            }
        }
        for (int y = 1; y < h; y++) {
            int o = y * w;
            for (int x = 0; x < w; x++) {
                int a = px[o - w + x];
                int b = px[o + x];
                if (a != b) {
                    stepY[o + x] = (byte) Math.min(STEP_FULL, ArcGridDecoder.l1(a, b));
                }
                if (y < h - 1 && a != px[o + w + x]) {
                    edgeY[o + x] = ArcGridDecoder.l1(a, px[o + w + x]) > ArcGridDecoder.EDGE_THRESHOLD;
                }
            }
        }
    }

    /**
     * Step mass per position along x, summed over rows [y0, y1) and columns [x0, x1); index x holds the
     * step at x - 0.5. A blurred edge spreads its mass over a few positions, a sharp one puts it on one.
     */
    double[] profileX(int x0, int x1, int y0, int y1) {
        double[] prof = new double[width];
        for (int y = y0; y < y1; y++) {
            int o = y * width;
            for (int x = Math.max(1, x0); x < x1; x++) {
                prof[x] += WEIGHT[stepX[o + x]];
            }
        }
        return prof;
    }

    /** As {@link #profileX}, along y: index y holds the step at y - 0.5. */
    double[] profileY(int x0, int x1, int y0, int y1) {
        double[] prof = new double[height];
        for (int y = Math.max(1, y0); y < y1; y++) {
            int o = y * width;
            for (int x = x0; x < x1; x++) {
                prof[y] += WEIGHT[stepY[o + x]];
            }
        }
        return prof;
    }
}
