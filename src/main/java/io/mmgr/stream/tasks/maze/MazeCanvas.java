package io.mmgr.stream.tasks.maze;

import static io.mmgr.stream.tasks.maze.MazeThresholds.BLOCK;

import io.mmgr.stream.vision.LabelImage;
import io.mmgr.stream.vision.Mask;
import io.mmgr.stream.vision.Rect;
import io.mmgr.stream.vision.RgbImage;

/**
 * One image (or video frame) of a maze seen on the canonical grid: the maze's extent is found from
 * its walls (the outer wall makes the border rows and columns the darkest), the extent is resampled
 * so each lattice block is {@link MazeThresholds#BLOCK} pixels, and each colour class becomes a mask.
 * This absorbs any image size, margin and moderate misplacement; the metrics then compare masks.
 */
public final class MazeCanvas {

    private final int rows;
    private final int cols;
    private final Rect bounds;
    private final double pixelsPerCanonical;
    private final Mask walls;
    private final Mask start;
    private final Mask target;
    private final Mask path;

    private MazeCanvas(int rows, int cols, Rect bounds, double pixelsPerCanonical,
                       Mask walls, Mask start, Mask target, Mask path) {
        this.rows = rows;
        this.cols = cols;
        this.bounds = bounds;
        this.pixelsPerCanonical = pixelsPerCanonical;
        this.walls = walls;
        this.start = start;
        this.target = target;
        this.path = path;
    }

    public static int canonicalWidth(int cols) {
        return (2 * cols + 1) * BLOCK;
    }

    public static int canonicalHeight(int rows) {
        return (2 * rows + 1) * BLOCK;
    }

    public static MazeCanvas of(RgbImage image, int rows, int cols) {
        LabelImage labels = MazePalette.lut().label(image);
        int w = canonicalWidth(cols);
        int h = canonicalHeight(rows);
        Rect bounds = labels.bounds(MazePalette.WALL, MazeThresholds.BOUNDS_PEAK_FRACTION);
        if (bounds == null || bounds.width() < 2 * cols + 1 || bounds.height() < 2 * rows + 1) {
            // no maze drawn (blank, or walls too small to hold the lattice): nothing matches
            Mask empty = new Mask(w, h);
            return new MazeCanvas(rows, cols, null, 1.0, empty, empty, empty, empty);
        }
        LabelImage.LabelGrid grid = labels.resample(bounds, w, h, MazePalette.LABELS);
        double scale = 0.5 * (bounds.width() / (double) w + bounds.height() / (double) h);
        Mask walls = grid.mask(MazePalette.WALL, MazeThresholds.WALL_FRACTION);
        Mask start = grid.mask(MazePalette.START, MazeThresholds.MARKER_FRACTION);
        Mask target = grid.mask(MazePalette.TARGET, MazeThresholds.MARKER_FRACTION);
        // a thin stroke crossing a footprint of side s leaves about s pixels in it, not a fraction of s*s
        Mask path = grid.mask(MazePalette.PATH, area -> (int) Math.ceil(Math.max(1, 0.5 * Math.sqrt(area))))
                .withoutSmallComponents(3);
        return new MazeCanvas(rows, cols, bounds, scale, walls, start, target, path);
    }

    /** Whether a maze-shaped wall structure was found at all. */
    public boolean found() {
        return bounds != null;
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public int width() {
        return walls.width();
    }

    public int height() {
        return walls.height();
    }

    /** The maze's extent in source pixels, or null when not found. */
    public Rect bounds() {
        return bounds;
    }

    /** Source pixels per canonical pixel (mean of both axes), to report offsets in image pixels. */
    public double pixelsPerCanonical() {
        return pixelsPerCanonical;
    }

    public Mask walls() {
        return walls;
    }

    public Mask start() {
        return start;
    }

    public Mask target() {
        return target;
    }

    public Mask path() {
        return path;
    }

    /** Fraction of a lattice block covered by a mask. */
    static double blockCoverage(Mask mask, int latticeRow, int latticeCol) {
        int x0 = latticeCol * BLOCK;
        int y0 = latticeRow * BLOCK;
        return mask.countIn(x0, y0, x0 + BLOCK, y0 + BLOCK) / (double) (BLOCK * BLOCK);
    }

    /** The lattice block containing a canonical point. */
    static int[] blockAt(double x, double y) {
        return new int[] {(int) Math.floor(y / BLOCK), (int) Math.floor(x / BLOCK)};
    }
}
