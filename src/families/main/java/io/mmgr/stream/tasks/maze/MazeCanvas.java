package io.mmgr.stream.tasks.maze;

import static io.mmgr.stream.tasks.maze.MazeThresholds.BLOCK;

import io.mmgr.stream.vision.LabelImage;
import io.mmgr.stream.vision.Mask;
import io.mmgr.stream.vision.RgbImage;

/**
 * One image (or video frame) of a maze seen on the canonical grid: every pixel gets a colour class,
 * the board is located from the walls ({@link BoardLocator}), each wall line and cell is resampled
 * onto one {@link MazeThresholds#BLOCK}-pixel block ({@link MazeGeometry}), and each class becomes a
 * mask. This absorbs any image size, margin, frame or axes and thick or thin walls; the metrics then
 * compare masks.
 */
public final class MazeCanvas {

    private final int rows;
    private final int cols;
    private final MazeGeometry geometry;
    private final Mask walls;
    private final Mask start;
    private final Mask target;
    private final Mask path;
    /** Masks of the other marker colours (yellow, orange, purple), as the marker fraction reads them. */
    private final Mask[] others;
    /** The black marker read last, and the structure it was read against (see {@link #marker}). */
    private Mask black;
    private MazeLattice blackFor;

    private MazeCanvas(int rows, int cols, MazeGeometry geometry, Mask walls, Mask start, Mask target, Mask path,
                       Mask[] others) {
        this.rows = rows;
        this.cols = cols;
        this.geometry = geometry;
        this.walls = walls;
        this.start = start;
        this.target = target;
        this.path = path;
        this.others = others;
    }

    public static int canonicalWidth(int cols) {
        return (2 * cols + 1) * BLOCK;
    }

    public static int canonicalHeight(int rows) {
        return (2 * rows + 1) * BLOCK;
    }

    public static MazeCanvas of(RgbImage image, int rows, int cols) {
        return of(image.pixels(), null, image.width(), image.height(), rows, cols, null, true, null);
    }

    /**
     * An image already decoded to raw colour codes ({@link MazePalette#lut()}, no class table, e.g.
     * {@code ImageDecoder.decodeCodes(bytes, limits, MazePalette.lut(), MazeCanvas::codeBuffer)}); reads
     * the same as the RGB image they come from.
     */
    public static MazeCanvas of(LabelImage codes, int rows, int cols) {
        return of(null, rawCodes(codes), codes.width(), codes.height(), rows, cols, null, true, null);
    }

    /** A reference solution image: its path and markers are read, its walls are not (they come from the problem). */
    static MazeCanvas ofSolution(RgbImage image, int rows, int cols) {
        return of(image.pixels(), null, image.width(), image.height(), rows, cols, null, false, null);
    }

    /** As {@link #ofSolution(RgbImage, int, int)}, from raw colour codes. */
    static MazeCanvas ofSolution(LabelImage codes, int rows, int cols) {
        return of(null, rawCodes(codes), codes.width(), codes.height(), rows, cols, null, false, null);
    }

    static MazeCanvas of(RgbImage image, int rows, int cols, MazeGeometry hint) {
        return of(image.pixels(), null, image.width(), image.height(), rows, cols, hint, true, null);
    }

    /**
     * As {@link #of(RgbImage, int, int, MazeGeometry)}, from raw colour codes (a video frame's); {@code previous}
     * (the video's own, may be null) lends this frame the previous frame's walls when none of its wall
     * pixels changed, and keeps this frame's for the next.
     */
    static MazeCanvas of(LabelImage codes, int rows, int cols, MazeGeometry hint, PreviousFrame previous) {
        return of(null, rawCodes(codes), codes.width(), codes.height(), rows, cols, hint, true, previous);
    }

    /**
     * A video's previous frame, for the next one: its codes, where its board lay, its paper and its walls.
     * Most frames of a maze video change only the path and the markers, and the wall mask is a function of
     * the wall-class pixels, the board position and the paper alone, so a frame that keeps all three reads
     * the same walls: reusing them spares a scan of the whole frame (about a fifth of a video's CPU).
     */
    static final class PreviousFrame {
        private byte[] codes = new byte[0];
        private int size = -1;
        private MazeGeometry geometry;
        private int paper = -1;
        private Mask walls;
        /** The kept frame's code histogram and coloured pixels (ascending), as {@link #count} gives them. */
        private final int[] histogram = new int[MazePalette.CODES];
        private final Positions colour = new Positions();
        /** The pixels in which this frame differs from the kept one, once {@link #diff} found them. */
        private final Positions changed = new Positions();

        /**
         * This frame's histogram and coloured pixels from the kept frame's and the pixels that changed (the
         * same as {@link #count}, which reads every pixel; here the unchanged runs are skipped by a
         * vectorised compare); false when there is no kept frame of this size.
         */
        private boolean countFrom(byte[] now, int n, int[] hist, Positions out) {
            if (n != size) {
                return false;
            }
            diff(now, n);
            System.arraycopy(histogram, 0, hist, 0, hist.length);
            for (int k = 0; k < changed.size; k++) {
                int i = changed.at[k];
                hist[codes[i]]--;
                hist[now[i]]++;
            }
            // the kept coloured pixels still coloured, merged in order with the changed ones newly coloured
            int a = 0;
            int b = 0;
            while (a < colour.size || b < changed.size) {
                int pa = a < colour.size ? colour.at[a] : Integer.MAX_VALUE;
                int pb = b < changed.size ? changed.at[b] : Integer.MAX_VALUE;
                if (pa <= pb) {
                    if (coloured(now[pa])) {
                        out.add(pa);
                    }
                    a++;
                    if (pa == pb) {
                        b++;
                    }
                } else {
                    if (coloured(now[pb]) && !coloured(codes[pb])) {
                        out.add(pb);
                    }
                    b++;
                }
            }
            return true;
        }

        /** Notes the pixels in which {@code now} differs from the kept frame (of the same size). */
        private void diff(byte[] now, int n) {
            changed.size = 0;
            for (int i = 0; i < n; i++) {
                int m = java.util.Arrays.mismatch(codes, i, n, now, i, n);
                if (m < 0) {
                    break;
                }
                i += m;
                changed.add(i);
            }
        }

        /**
         * The previous frame's walls, if this frame has its board position, paper and wall pixels;
         * {@code diffed}: {@link #countFrom} already found this frame's changed pixels.
         */
        private Mask wallsIfUnchanged(byte[] now, int n, MazeGeometry g, int paperNow, byte[] classes, boolean diffed) {
            if (walls == null || n != size || g != geometry || paperNow != paper) {
                return null;
            }
            if (!diffed) {
                diff(now, n); // this frame was counted in full, not against the kept one
            }
            // a pixel that changed matters only when it is or was a wall (the paper decides the classes)
            for (int k = 0; k < changed.size; k++) {
                int i = changed.at[k];
                if (classes[codes[i]] == MazePalette.WALL || classes[now[i]] == MazePalette.WALL) {
                    return null;
                }
            }
            return walls;
        }

        /** Keeps this frame for the next (the codes are copied: their buffer is the next frame's). */
        private void keep(byte[] now, int n, MazeGeometry g, int paperNow, Mask wallsNow, int[] hist, Positions col) {
            if (codes.length < n) {
                codes = new byte[n];
            }
            System.arraycopy(now, 0, codes, 0, n);
            size = n;
            geometry = g;
            paper = paperNow;
            walls = wallsNow;
            System.arraycopy(hist, 0, histogram, 0, histogram.length);
            if (colour.at.length < col.size) {
                colour.at = new int[col.at.length];
            }
            System.arraycopy(col.at, 0, colour.at, 0, col.size);
            colour.size = col.size;
        }

        private static boolean coloured(int code) {
            return code >= MazePalette.CODE_START && code <= MazePalette.CODE_LAST_COLOUR;
        }
    }

    /**
     * This thread's code buffer, at least {@code n} bytes: decoding into it ({@code ImageDecoder.decodeCodes},
     * {@code VideoDecoder.sampleCodes}) and reading the codes back here share one buffer per thread.
     * Its contents last until the next image is decoded on this thread.
     */
    static byte[] codeBuffer(int n) {
        Scratch s = SCRATCH.get();
        if (s.codes.length < n) {
            s.codes = new byte[n];
        }
        return s.codes;
    }

    private static byte[] rawCodes(LabelImage codes) {
        if (!codes.raw()) {
            throw new IllegalArgumentException("a maze canvas reads raw colour codes, not classes");
        }
        return codes.codes();
    }

    /** Pixel indices, growing as needed (where an image's coloured pixels are). */
    static final class Positions {
        int[] at = new int[1024];
        int size;

        void add(int i) {
            if (size == at.length) {
                at = java.util.Arrays.copyOf(at, 2 * size);
            }
            at[size++] = i;
        }
    }

    /** Per-thread buffers, reused image after image (a 2,048 px image needs 4 MB of codes). */
    private static final class Scratch {
        byte[] codes = new byte[0];
        final Positions colour = new Positions();
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private static Scratch scratch(int n) {
        Scratch s = SCRATCH.get();
        if (s.codes.length < n) {
            s.codes = new byte[n];
        }
        s.colour.size = 0;
        return s;
    }

    /**
     * Reads an image; {@code hint} (a previous frame's geometry, may be null) is reused when its
     * outer walls are still in place, which spares locating the board again in every video frame.
     */
    private static MazeCanvas of(int[] pixels, byte[] given, int w, int h, int rows, int cols, MazeGeometry hint,
                                 boolean withWalls, PreviousFrame previous) {
        int[] histogram = new int[MazePalette.CODES];
        Scratch scratch = scratch(pixels != null ? w * h : 0);
        // RGB pixels are classified into this thread's buffer on the way; given codes are read as they are
        byte[] codes = pixels != null ? scratch.codes : given;
        int paper;
        MazeGeometry g = null;
        boolean diffed = false;
        if (hint == null) {
            // classify and profile in one pass against the paper a sparse sample suggests; profile
            // again in the rare case the whole image says otherwise
            int guess = MazePalette.paper(pixels != null ? sample(pixels) : sample(codes, w * h));
            BoardLocator.Profiles prof = BoardLocator.Profiles.scan(pixels, codes, histogram, scratch.colour,
                    w, h, MazePalette.classes(guess), MazePalette.darkness(guess));
            paper = MazePalette.paper(histogram);
            if (paper != guess) {
                prof = BoardLocator.Profiles.scan(null, codes, null, null, w, h, MazePalette.classes(paper),
                        MazePalette.darkness(paper));
            }
            g = BoardLocator.locate(prof, codes, MazePalette.classes(paper), w, h, rows, cols);
        } else {
            if (pixels != null) {
                codes(pixels, codes, histogram, scratch.colour);
            } else {
                diffed = previous != null && previous.countFrom(codes, w * h, histogram, scratch.colour);
                if (!diffed) {
                    count(codes, w * h, histogram, scratch.colour);
                }
            }
            paper = MazePalette.paper(histogram);
            byte[] classes = MazePalette.classes(paper);
            if (BoardLocator.bordersPresent(codes, classes, w, h, hint)) {
                g = hint;
            } else {
                BoardLocator.Profiles prof = BoardLocator.Profiles.scan(null, codes, null, null, w, h, classes,
                        MazePalette.darkness(paper));
                g = BoardLocator.locate(prof, codes, classes, w, h, rows, cols);
            }
        }
        byte[] classes = MazePalette.classes(paper);
        if (g == null) {
            // no maze drawn (blank, or no wall structure of this size): nothing matches
            Mask empty = new Mask(canonicalWidth(cols), canonicalHeight(rows));
            return new MazeCanvas(rows, cols, null, empty, empty, empty, empty, new Mask[] {empty, empty, empty});
        }
        LabelImage li = new LabelImage(w, h, codes, classes);
        // the codes buffer is reused by the next image on this thread: everything kept below is a copy
        LabelImage.Footprints cx = g.x().colour();
        LabelImage.Footprints cy = g.y().colour();
        // only the coloured pixels noted while classifying are visited
        LabelImage.LabelGrid grid = li.resample(cx, cy, MazePalette.START, MazePalette.LABELS,
                scratch.colour.at, scratch.colour.size);
        Mask start = grid.mask(MazePalette.START, MazeThresholds.MARKER_FRACTION);
        Mask target = grid.mask(MazePalette.TARGET, MazeThresholds.MARKER_FRACTION);
        // a one-pixel stroke crossing a w x h footprint leaves at least min(w, h) pixels in it, not a
        // fraction of w*h (footprints over a thin wall line are one pixel across and a cell long)
        Mask path = grid.mask(MazePalette.PATH, (x, y, area) -> Math.max(1.0,
                        Math.ceil(0.5 * Math.min(cx.end()[x] - cx.start()[x], cy.end()[y] - cy.start()[y]))))
                .withoutSmallComponents(3);
        Mask[] others = new Mask[MazePalette.LABELS - MazePalette.YELLOW];
        for (int k = 0; k < others.length; k++) {
            others[k] = grid.mask(MazePalette.YELLOW + k, MazeThresholds.MARKER_FRACTION);
        }
        if (!withWalls) {
            return new MazeCanvas(rows, cols, g, new Mask(canonicalWidth(cols), canonicalHeight(rows)), start, target, path,
                    others);
        }
        LabelImage.Footprints wx = g.x().walls();
        LabelImage.Footprints wy = g.y().walls();
        Mask walls = previous == null ? null : previous.wallsIfUnchanged(codes, w * h, g, paper, classes, diffed);
        if (walls == null) {
            double[] ex = g.x().wallExtent(wx);
            double[] ey = g.y().wallExtent(wy);
            // a wall fills its line's thickness (not the margin around it) along the footprint
            walls = li.resample(wx, wy, MazePalette.WALL, MazePalette.WALL + 1)
                    .mask(MazePalette.WALL, (x, y, area) -> MazeThresholds.WALL_FRACTION * ex[x] * ey[y]);
        }
        if (previous != null) {
            previous.keep(codes, w * h, g, paper, walls, histogram, scratch.colour);
        }
        return new MazeCanvas(rows, cols, g, walls, start, target, path, others);
    }

    /** Histogram of the raw codes of every 61st pixel, enough to tell the paper. */
    private static int[] sample(int[] px) {
        int[] histogram = new int[MazePalette.CODES];
        var lut = MazePalette.lut();
        for (int i = 0; i < px.length; i += 61) {
            histogram[lut.classify(px[i])]++;
        }
        return histogram;
    }

    /** As {@link #sample(int[])}, from the first {@code n} raw codes. */
    private static int[] sample(byte[] codes, int n) {
        int[] histogram = new int[MazePalette.CODES];
        for (int i = 0; i < n; i += 61) {
            histogram[codes[i]]++;
        }
        return histogram;
    }

    /** The first {@code n} raw codes counted into {@code histogram}, coloured ones noted in {@code colour}. */
    private static void count(byte[] codes, int n, int[] histogram, Positions colour) {
        // runs of one code (the paper, mostly) are counted in a register, not one memory increment each
        int runCode = n == 0 ? 0 : codes[0];
        int runFrom = 0;
        for (int i = 0; i < n; i++) {
            int code = codes[i];
            if (code != runCode) {
                histogram[runCode] += i - runFrom;
                runCode = code;
                runFrom = i;
            }
            if (code >= MazePalette.CODE_START && code <= MazePalette.CODE_LAST_COLOUR) {
                colour.add(i);
            }
        }
        histogram[runCode] += n - runFrom;
    }

    /** Raw colour codes per pixel ({@link MazePalette#code}), counted into {@code histogram}, coloured ones noted in {@code colour}. */
    static void codes(int[] px, byte[] codes, int[] histogram, Positions colour) {
        var lut = MazePalette.lut();
        // runs of one colour are classified and counted once
        int runRgb = px.length == 0 ? 0 : ~px[0];
        int runCode = 0;
        int run = 0;
        for (int i = 0; i < px.length; i++) {
            int rgb = px[i];
            if (rgb != runRgb) {
                histogram[runCode] += run;
                run = 0;
                runRgb = rgb;
                runCode = lut.classify(rgb);
            }
            run++;
            codes[i] = (byte) runCode;
            if (runCode >= MazePalette.CODE_START && runCode <= MazePalette.CODE_LAST_COLOUR) {
                colour.add(i);
            }
        }
        histogram[runCode] += run;
    }

    /** Whether a maze-shaped wall structure was found at all. */
    public boolean found() {
        return geometry != null;
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

    /** Where the board lies in the source image, or null when not found. */
    MazeGeometry geometry() {
        return geometry;
    }

    /** Source pixels per canonical pixel (mean of both axes), to report offsets in image pixels. */
    public double pixelsPerCanonical() {
        return geometry == null ? 1.0 : geometry.pixelsPerCanonical();
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

    /**
     * The mask of one marker colour class ({@link MazePalette#GREEN} ... {@link MazePalette#PURPLE}); black
     * is no pixel class, see {@link #marker(int, MazeLattice)}.
     */
    public Mask colour(int label) {
        return switch (label) {
            case MazePalette.GREEN -> start;
            case MazePalette.RED -> target;
            case MazePalette.BLUE -> path;
            case MazePalette.BLACK -> throw new IllegalArgumentException("a black marker is read against the maze's"
                    + " structure: marker(BLACK, structure)");
            default -> others[label - MazePalette.YELLOW];
        };
    }

    /**
     * The mask of one marker colour class, {@link MazePalette#BLACK} included: a black marker is read
     * from the wall-class pixels where {@code structure} (the maze as this picture shows it; null: not
     * yet placed, cells only) has no wall ({@link BlackMarker}).
     */
    public Mask marker(int label, MazeLattice structure) {
        if (label != MazePalette.BLACK) {
            return colour(label);
        }
        // a frame asks for its black marker up to four times (roles, layout, track): read it once per structure
        if (black == null || blackFor != structure) {
            black = BlackMarker.in(walls, structure);
            blackFor = structure;
        }
        return black;
    }

    /** As {@link #marker(int, MazeLattice)}, against a reference's structure once it is placed. */
    Mask marker(int label, MazeReference ref) {
        return marker(label, ref.unplaced() ? null : ref.lattice());
    }

    /** Fraction of a lattice block covered by a mask. */
    static double blockCoverage(Mask mask, int latticeRow, int latticeCol) {
        int x0 = latticeCol * BLOCK;
        int y0 = latticeRow * BLOCK;
        return mask.countIn(x0, y0, x0 + BLOCK, y0 + BLOCK) / (double) (BLOCK * BLOCK);
    }
}
