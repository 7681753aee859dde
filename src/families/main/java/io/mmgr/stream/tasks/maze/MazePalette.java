package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.ColorLut;
import io.mmgr.stream.vision.Hsv;

/**
 * Colours of MMGR's mazes and the rules that read them back. Drawing colours are maze-dataset's
 * {@code PixelColors} (understanding-search/maze-dataset, maze_dataset/maze/lattice_maze.py): black
 * walls, white passages, green start, red end, blue path.
 *
 * <p>Reading is deliberately loose, because generated images are not clean. Saturated pixels are
 * sorted by hue in wide bands (about +-45 degrees around pure green, red and blue), so shifted hues,
 * JPEG chroma noise and anti-aliased edges half-blended with white still land in the right class;
 * the hues between them are orange, yellow and purple, for benchmarks whose markers use those.
 * Unsaturated pixels keep their brightness ({@link #greyCode}) and are split into wall and passage
 * per image, relative to the image's paper ({@link #classes}): a 1 px wall line that anti-aliasing or
 * a slight blur has turned mid-grey is still a wall on white paper, while maze-dataset's light-grey
 * connections (0.93 of white) are passage.
 */
public final class MazePalette {

    public static final int WALL_RGB = 0x000000;
    public static final int OPEN_RGB = 0xFFFFFF;
    public static final int START_RGB = 0x00FF00;
    public static final int TARGET_RGB = 0xFF0000;
    public static final int PATH_RGB = 0x0000FF;

    public static final int OTHER = 0;
    public static final int WALL = 1;
    public static final int START = 2;
    public static final int TARGET = 3;
    public static final int PATH = 4;
    /** Marker colours beyond MMGR's three, for benchmarks that draw their markers otherwise ({@link MarkerRoles}). */
    public static final int YELLOW = 5;
    public static final int ORANGE = 6;
    public static final int PURPLE = 7;
    public static final int LABELS = 8;
    /**
     * A black marker: not a pixel class (black pixels are wall class), read from the wall-class pixels
     * that lie where the maze's structure has no wall ({@link BlackMarker}).
     */
    public static final int BLACK = LABELS;
    /** MMGR's classes by their colour: its green start/agent, red target, blue path. */
    public static final int GREEN = START;
    public static final int RED = TARGET;
    public static final int BLUE = PATH;

    /** Raw codes 0..31 are unsaturated pixels by brightness (value / 8); then the colour classes. */
    static final int GREY_CODES = 32;
    static final int CODE_START = 32;
    static final int CODE_TARGET = 33;
    static final int CODE_PATH = 34;
    static final int CODE_YELLOW = 35;
    static final int CODE_ORANGE = 36;
    static final int CODE_PURPLE = 37;
    /** The last colour class's code: codes from {@link #CODE_START} to here are the coloured ones. */
    static final int CODE_LAST_COLOUR = CODE_PURPLE;
    static final int CODE_OTHER = 38;
    static final int CODES = 39;

    /** Darker than this (max channel) counts as unsaturated, whatever the hue (near-black tints are walls). */
    static final int DARK_VALUE = 80;
    /** Colour classes need at least this saturation (of 255), i.e. roughly a 35 % tint over white. */
    static final int MIN_SATURATION = 90;
    /** Unsaturated pixels darker than this share of the paper's brightness are wall. */
    static final double WALL_OF_PAPER = 0.72;
    /** Paper is looked for among grey codes at least this bright (value 96 and up). */
    static final int MIN_PAPER_CODE = 12;

    private static final ColorLut LUT = ColorLut.of(MazePalette::code);
    private static final byte[][] CLASSES = new byte[GREY_CODES][];
    private static final int[][] DARKNESS = new int[GREY_CODES][];

    static {
        for (int paper = 0; paper < GREY_CODES; paper++) {
            byte[] t = new byte[CODES];
            int limit = (int) Math.round(WALL_OF_PAPER * (paper * 8 + 4));
            for (int c = 0; c < GREY_CODES; c++) {
                t[c] = (byte) (c * 8 + 4 < limit ? WALL : OTHER);
            }
            t[CODE_START] = START;
            t[CODE_TARGET] = TARGET;
            t[CODE_PATH] = PATH;
            t[CODE_YELLOW] = YELLOW;
            t[CODE_ORANGE] = ORANGE;
            t[CODE_PURPLE] = PURPLE;
            t[CODE_OTHER] = OTHER;
            CLASSES[paper] = t;
            double paperValue = paper * 8 + 4;
            int[] d = new int[CODES];
            for (int c = 0; c < GREY_CODES; c++) {
                d[c] = (int) Math.round(255 * Math.max(0, Math.min(1, (paperValue - (c * 8 + 4)) / paperValue)));
            }
            DARKNESS[paper] = d;
        }
    }

    private MazePalette() {
    }

    /** The table from RGB to raw code. */
    static ColorLut lut() {
        return LUT;
    }

    /** Raw code of a colour: its grey level when unsaturated or dark, else its colour class. */
    static int code(int r, int g, int b) {
        int v = Hsv.value(r, g, b);
        int s = Hsv.saturation(r, g, b);
        if (v < DARK_VALUE || s < MIN_SATURATION) {
            return greyCode(v);
        }
        int h = Hsv.hue(r, g, b);
        if (h >= 75 && h <= 165) {
            return CODE_START;
        }
        if (h >= 335 || h <= 25) {
            return CODE_TARGET;
        }
        if (h >= 185 && h <= 275) {
            return CODE_PATH;
        }
        // the bands between MMGR's three (once all "other"), for markers drawn in other colours
        if (h > 25 && h < 45) {
            return CODE_ORANGE;
        }
        if (h >= 45 && h < 75) {
            return CODE_YELLOW;
        }
        if (h > 275 && h < 335) {
            return CODE_PURPLE;
        }
        return CODE_OTHER;
    }

    static int greyCode(int value) {
        return value >> 3;
    }

    /** The paper of an image from its histogram of raw codes: the most common bright grey. */
    static int paper(int[] codeHistogram) {
        int paper = GREY_CODES - 1;
        int best = 0;
        for (int c = MIN_PAPER_CODE; c < GREY_CODES; c++) {
            if (codeHistogram[c] > best) {
                best = codeHistogram[c];
                paper = c;
            }
        }
        return paper;
    }

    /** Raw code to class on a paper: greys darker than {@link #WALL_OF_PAPER} of it are wall. */
    static byte[] classes(int paper) {
        return CLASSES[paper];
    }

    /**
     * How dark each raw code is against a paper (0 paper or colour, 255 black), to locate wall lines by
     * their darkness rather than by a hard cut.
     */
    static int[] darkness(int paper) {
        return DARKNESS[paper];
    }

    /** The class of one colour on white paper (for tests and diagnostics). */
    static int classify(int r, int g, int b) {
        return CLASSES[GREY_CODES - 1][code(r, g, b)];
    }
}
