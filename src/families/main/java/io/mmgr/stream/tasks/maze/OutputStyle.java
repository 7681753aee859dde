package io.mmgr.stream.tasks.maze;

/**
 * How a maze is drawn, by a simulated model or as a reference: canvas and margin; walls as blocks as
 * wide as the cells (maze-dataset's {@code as_pixels}) or as lines a fraction of the pitch
 * ({@code MazePlot}: {@code 1 / unit_length}); path width as a share of the corridor or in pixels;
 * marker size and shape; what surrounds the board; and what happens to the picture afterwards
 * (colour shift, blur, JPEG). Real outputs vary in all of these.
 *
 * @param wallOfPitch   wall thickness over the wall-to-wall pitch: 0.5 draws the block lattice
 * @param strokeOfCell  path width over the corridor (the cell's inside), used when {@code strokePx} is 0
 * @param strokePx      path width in pixels (0: use {@code strokeOfCell})
 * @param markerOfCell  start/target/agent marker side (or diameter) over the corridor
 * @param lightPassages connections drawn light grey, as MazePlot's default (0.93 of white)
 * @param hueShift      degrees added to every pixel's hue afterwards
 * @param saturation    factor on every pixel's saturation afterwards
 * @param brightness    factor on every pixel's brightness afterwards
 * @param blurSigma     Gaussian blur afterwards (pixels; 0: none)
 * @param jpegQuality   JPEG quality (0: PNG)
 */
public record OutputStyle(String name, int width, int height, double margin, double wallOfPitch,
                          double strokeOfCell, double strokePx, double markerOfCell, boolean roundMarkers,
                          boolean antialias, Surround surround, boolean lightPassages,
                          double hueShift, double saturation, double brightness, double blurSigma, int jpegQuality) {

    /** What is drawn around the board. */
    public enum Surround {
        NONE,
        /** A rectangle around the board with a gap, as a page border. */
        FRAME,
        /** Plot axes: spines on the board's edge, ticks and numbers per cell, axis labels and a title (MazePlot's default). */
        AXES
    }

    /** The block lattice in MMGR's colours, anti-aliased, nothing around it. */
    public static OutputStyle blocks(String name, int width, int height, double margin, double strokeOfCell,
                                     double markerOfCell) {
        return new OutputStyle(name, width, height, margin, 0.5, strokeOfCell, 0, markerOfCell, false, true,
                Surround.NONE, false, 0, 1, 1, 0, 0);
    }

    public static final OutputStyle CLEAN = blocks("clean", 512, 512, 0.02, 1.0, 1.0);
    public static final OutputStyle THIN = blocks("thin-stroke", 640, 480, 0.06, 0.2, 0.7);
    public static final OutputStyle THICK_SMALL = blocks("thick-small", 300, 300, 0.0, 0.9, 1.0);
    public static final OutputStyle BLUR_JPEG = blocks("blur-jpeg", 768, 768, 0.08, 0.5, 0.8)
            .shifted(8, 0.9, 0.92).blurred(1.0).jpeg(70);
    public static final OutputStyle LARGE_JPEG = blocks("large-jpeg", 1200, 900, 0.1, 0.35, 0.6)
            .shifted(-6, 0.85, 0.95).blurred(0.6).jpeg(85);

    public static final OutputStyle[] ALL = {CLEAN, THIN, THICK_SMALL, BLUR_JPEG, LARGE_JPEG};

    public OutputStyle named(String n) {
        return new OutputStyle(n, width, height, margin, wallOfPitch, strokeOfCell, strokePx, markerOfCell,
                roundMarkers, antialias, surround, lightPassages, hueShift, saturation, brightness, blurSigma, jpegQuality);
    }

    public OutputStyle sized(int w, int h) {
        return new OutputStyle(name, w, h, margin, wallOfPitch, strokeOfCell, strokePx, markerOfCell,
                roundMarkers, antialias, surround, lightPassages, hueShift, saturation, brightness, blurSigma, jpegQuality);
    }

    /** Walls as lines of {@code ofPitch} of the pitch (maze-dataset's MazePlot: 1/14), optionally with light-grey passages. */
    public OutputStyle thinWalls(double ofPitch, boolean lightGreyPassages) {
        return new OutputStyle(name, width, height, margin, ofPitch, strokeOfCell, strokePx, markerOfCell,
                roundMarkers, antialias, surround, lightGreyPassages, hueShift, saturation, brightness, blurSigma, jpegQuality);
    }

    public OutputStyle stroke(double ofCell, double px) {
        return new OutputStyle(name, width, height, margin, wallOfPitch, ofCell, px, markerOfCell,
                roundMarkers, antialias, surround, lightPassages, hueShift, saturation, brightness, blurSigma, jpegQuality);
    }

    public OutputStyle markers(double ofCell, boolean round) {
        return new OutputStyle(name, width, height, margin, wallOfPitch, strokeOfCell, strokePx, ofCell,
                round, antialias, surround, lightPassages, hueShift, saturation, brightness, blurSigma, jpegQuality);
    }

    public OutputStyle aliased() {
        return new OutputStyle(name, width, height, margin, wallOfPitch, strokeOfCell, strokePx, markerOfCell,
                roundMarkers, false, surround, lightPassages, hueShift, saturation, brightness, blurSigma, jpegQuality);
    }

    public OutputStyle surround(Surround s, double newMargin) {
        return new OutputStyle(name, width, height, newMargin, wallOfPitch, strokeOfCell, strokePx, markerOfCell,
                roundMarkers, antialias, s, lightPassages, hueShift, saturation, brightness, blurSigma, jpegQuality);
    }

    public OutputStyle shifted(double hue, double sat, double bright) {
        return new OutputStyle(name, width, height, margin, wallOfPitch, strokeOfCell, strokePx, markerOfCell,
                roundMarkers, antialias, surround, lightPassages, hue, sat, bright, blurSigma, jpegQuality);
    }

    public OutputStyle blurred(double sigma) {
        return new OutputStyle(name, width, height, margin, wallOfPitch, strokeOfCell, strokePx, markerOfCell,
                roundMarkers, antialias, surround, lightPassages, hueShift, saturation, brightness, sigma, jpegQuality);
    }

    public OutputStyle jpeg(int quality) {
        return new OutputStyle(name, width, height, margin, wallOfPitch, strokeOfCell, strokePx, markerOfCell,
                roundMarkers, antialias, surround, lightPassages, hueShift, saturation, brightness, blurSigma, quality);
    }

    public boolean colourShifted() {
        return hueShift != 0 || saturation != 1 || brightness != 1;
    }

    @Override
    public String toString() {
        return name;
    }
}
