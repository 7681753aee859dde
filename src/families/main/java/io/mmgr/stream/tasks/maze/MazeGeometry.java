package io.mmgr.stream.tasks.maze;

import static io.mmgr.stream.tasks.maze.MazeThresholds.BLOCK;

import io.mmgr.stream.vision.LabelImage.Footprints;

/**
 * Where a maze board lies in an image, per axis: the first wall line's position, the pitch from
 * one wall line to the next and the lines' thickness. One model covers both ways mazes are drawn:
 * maze-dataset's block lattice ({@code as_pixels}: walls as thick as cells, thickness = pitch / 2)
 * and its {@code MazePlot} (understanding-search/maze-dataset, maze_dataset/plotting/plot_maze.py,
 * {@code _lattice_maze_to_img}: cells of {@code unit_length - 1} pixels between one-pixel wall lines).
 *
 * <p>The canonical grid maps every wall line and every cell to one {@link MazeThresholds#BLOCK}-pixel
 * block, piecewise along each axis, so a thin-wall board becomes the same block lattice as a
 * thick-wall one and everything downstream compares blocks.
 */
record MazeGeometry(Axis x, Axis y) {

    /** Source pixels per canonical pixel (mean of both axes; a cell pitch is two blocks). */
    double pixelsPerCanonical() {
        return (x.pitch() + y.pitch()) / (4.0 * BLOCK);
    }

    /**
     * One axis: wall line {@code j} covers {@code [origin + j pitch, origin + j pitch + thickness)},
     * cell {@code j} the rest up to the next line.
     */
    record Axis(double origin, double pitch, double thickness, int cells) {

        int blocks() {
            return 2 * cells + 1;
        }

        int canonicalSize() {
            return blocks() * BLOCK;
        }

        double blockStart(int k) {
            int j = k / 2;
            return k % 2 == 0 ? origin + j * pitch : origin + j * pitch + thickness;
        }

        double blockLength(int k) {
            return k % 2 == 0 ? thickness : pitch - thickness;
        }

        /** Source end of the board (exclusive). */
        double end() {
            return origin + cells * pitch + thickness;
        }

        /** Each canonical pixel's share of its block, at least one source pixel. */
        Footprints colour() {
            int n = canonicalSize();
            int[] s = new int[n];
            int[] e = new int[n];
            for (int i = 0; i < n; i++) {
                int k = i / BLOCK;
                int sub = i % BLOCK;
                double a = blockStart(k);
                double len = blockLength(k);
                s[i] = floor(a + sub * len / BLOCK);
                e[i] = Math.max(s[i] + 1, floor(a + (sub + 1) * len / BLOCK));
            }
            return new Footprints(s, e);
        }

        /**
         * For walls, every canonical pixel of a wall line's block sees the whole line plus a margin
         * either side, so a one-pixel line found a pixel off, or smeared over two, is still whole.
         */
        Footprints walls() {
            Footprints c = colour();
            double margin = Math.max(1.0, MazeThresholds.WALL_BAND_MARGIN * thickness);
            for (int i = 0; i < c.size(); i++) {
                int k = i / BLOCK;
                if (k % 2 == 0) {
                    c.start()[i] = floor(blockStart(k) - margin);
                    c.end()[i] = -floor(-(blockStart(k) + thickness + margin));
                }
            }
            return c;
        }

        /** Floor that takes a value a rounding error below an integer as that integer. */
        private static int floor(double v) {
            return (int) Math.floor(v + 1e-9);
        }

        /** Per canonical pixel, how many source pixels across a wall would fill: the line's thickness or the footprint. */
        double[] wallExtent(Footprints walls) {
            double[] out = new double[walls.size()];
            for (int i = 0; i < out.length; i++) {
                int len = walls.end()[i] - walls.start()[i];
                out[i] = (i / BLOCK) % 2 == 0 ? Math.min(len, Math.max(1.0, thickness)) : len;
            }
            return out;
        }
    }
}
