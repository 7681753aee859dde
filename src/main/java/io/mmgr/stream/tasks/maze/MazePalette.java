package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.ColorLut;
import io.mmgr.stream.vision.Hsv;

/**
 * Colours of MMGR's mazes and the rules that read them back. Drawing colours are maze-dataset's
 * {@code PixelColors} (understanding-search/maze-dataset, maze_dataset/maze/lattice_maze.py): black
 * walls, white passages, green start, red end, blue path.
 *
 * <p>Reading is deliberately loose, because generated images are not clean: dark pixels are walls
 * whatever their tint; saturated pixels are sorted by hue in wide bands (about +-45 degrees around
 * pure green, red and blue) so shifted hues, JPEG chroma noise and anti-aliased edges half-blended
 * with white still land in the right class; pale and grey pixels are passage.
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
    public static final int LABELS = 5;

    /** Darker than this (max channel) is wall whatever the hue. */
    static final int WALL_MAX_VALUE = 80;
    /** Dull dark greys up to this value are wall too. */
    static final int WALL_GREY_VALUE = 130;
    static final int WALL_GREY_SATURATION = 80;
    /** Colour classes need at least this saturation (of 255), i.e. roughly a 35 % tint over white. */
    static final int MIN_SATURATION = 90;

    private static final ColorLut LUT = ColorLut.of(MazePalette::classify);

    private MazePalette() {
    }

    public static ColorLut lut() {
        return LUT;
    }

    static int classify(int r, int g, int b) {
        int v = Hsv.value(r, g, b);
        int s = Hsv.saturation(r, g, b);
        if (v < WALL_MAX_VALUE || (v < WALL_GREY_VALUE && s < WALL_GREY_SATURATION)) {
            return WALL;
        }
        if (s < MIN_SATURATION) {
            return OTHER;
        }
        int h = Hsv.hue(r, g, b);
        if (h >= 75 && h <= 165) {
            return START;
        }
        if (h >= 335 || h <= 25) {
            return TARGET;
        }
        if (h >= 185 && h <= 275) {
            return PATH;
        }
        return OTHER;
    }
}
