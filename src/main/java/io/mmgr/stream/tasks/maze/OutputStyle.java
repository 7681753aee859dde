package io.mmgr.stream.tasks.maze;

/**
 * How a simulated model draws its answer: canvas size and margin, stroke width and marker size (in
 * blocks), colour shift, blur radius and JPEG quality (0: PNG). Real outputs vary in all of these.
 */
public record OutputStyle(String name, int width, int height, double margin, double strokeBlocks,
                          double markerBlocks, boolean shiftedHues, int blurRadius, int jpegQuality) {

    public static final OutputStyle CLEAN = new OutputStyle("clean", 512, 512, 0.02, 1.0, 1.0, false, 0, 0);
    public static final OutputStyle THIN = new OutputStyle("thin-stroke", 640, 480, 0.06, 0.2, 0.7, false, 0, 0);
    public static final OutputStyle THICK_SMALL = new OutputStyle("thick-small", 300, 300, 0.0, 0.9, 1.0, false, 0, 0);
    public static final OutputStyle BLUR_JPEG = new OutputStyle("blur-jpeg", 768, 768, 0.08, 0.5, 0.8, true, 2, 70);
    public static final OutputStyle LARGE_JPEG = new OutputStyle("large-jpeg", 1200, 900, 0.1, 0.35, 0.6, true, 1, 85);

    public static final OutputStyle[] ALL = {CLEAN, THIN, THICK_SMALL, BLUR_JPEG, LARGE_JPEG};

    public int pathRgb() {
        return shiftedHues ? 0x2850E6 : MazePalette.PATH_RGB;
    }

    public int startRgb() {
        return shiftedHues ? 0x3CC850 : MazePalette.START_RGB;
    }

    public int targetRgb() {
        return shiftedHues ? 0xE62832 : MazePalette.TARGET_RGB;
    }

    public int wallRgb() {
        return shiftedHues ? 0x1E1E28 : MazePalette.WALL_RGB;
    }

    @Override
    public String toString() {
        return name;
    }
}
