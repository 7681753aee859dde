package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.RgbImage;
import java.util.List;

/**
 * A way a model might draw its answer: a grid style, then resampling, blur, colour drift and the
 * file format. Rendering goes through encode + {@link ImageDecoder}, as the evaluator reads files.
 */
record OutputStyle(String name, ArcStyle grid, double scaleX, double scaleY, double blur, double hueDeg,
                   double brightness, int jpegQuality) {

    static final int WHITE = 0xFFFFFF;
    static final int SLATE = 0x1E2630;
    static final int LIGHT = 0xEEEEEE;

    static final List<OutputStyle> ALL = List.of(
            new OutputStyle("clean-lines", new ArcStyle(20, 1, 0x555555, true, 24, WHITE, ArcPalette.CLASSIC),
                    1, 1, 0, 0, 1, 0),
            new OutputStyle("no-lines-prize", new ArcStyle(18, 0, 0, false, 30, LIGHT, ArcPalette.ARC_PRIZE),
                    1, 1, 0, 0, 1, 0),
            new OutputStyle("thick-white-lines-jpeg", new ArcStyle(26, 3, WHITE, false, 40, WHITE, ArcPalette.CLASSIC),
                    1, 1, 0, 0, 1, 80),
            new OutputStyle("dark-canvas-border-blur", new ArcStyle(22, 2, 0x888888, true, 18, SLATE, ArcPalette.ARC_PRIZE),
                    1, 1, 1.2, 0, 1, 0),
            new OutputStyle("scaled-1.37-jpeg", new ArcStyle(14, 1, 0x555555, true, 10, WHITE, ArcPalette.CLASSIC),
                    1.37, 1.37, 0, 0, 1, 85),
            new OutputStyle("anisotropic-no-lines-blur", new ArcStyle(16, 0, 0, false, 20, WHITE, ArcPalette.CLASSIC),
                    1.61, 1.22, 0.8, 0, 1, 90),
            new OutputStyle("hue-drift-lines", new ArcStyle(24, 1, 0x333333, true, 32, LIGHT, ArcPalette.CLASSIC),
                    1, 1, 0.6, 6, 0.93, 88),
            new OutputStyle("black-canvas-grey-border", new ArcStyle(20, 1, 0x555555, true, 28, 0x000000, ArcPalette.CLASSIC),
                    0.83, 0.83, 0.7, 0, 1, 85),
            new OutputStyle("no-margin-lines", new ArcStyle(19, 1, 0x444444, true, 0, WHITE, ArcPalette.ARC_PRIZE),
                    1, 1, 0, 0, 1, 0),
            new OutputStyle("small-cells-downscaled", new ArcStyle(12, 1, 0x555555, true, 12, WHITE, ArcPalette.CLASSIC),
                    0.71, 0.71, 0, 0, 1, 92));

    RgbImage raster(int[][] cells) {
        RgbImage img = ArcRenderer.grid(cells, grid);
        if (scaleX != 1 || scaleY != 1) {
            img = Distort.scale(img, scaleX, scaleY);
        }
        img = io.mmgr.stream.vision.Degradation.blur(img, blur);
        if (hueDeg != 0 || brightness != 1) {
            img = io.mmgr.stream.vision.Degradation.shift(img, hueDeg, 1, brightness);
        }
        return img;
    }

    byte[] encode(RgbImage img) {
        return jpegQuality > 0 ? ImageEncoder.jpeg(img, jpegQuality) : ImageEncoder.png(img);
    }

    /** The image as the evaluator would see it after reading the file. */
    RgbImage render(int[][] cells) {
        try {
            return ImageDecoder.decode(encode(raster(cells)), ImageDecoder.Limits.DEFAULT);
        } catch (MediaException e) {
            throw new IllegalStateException(e);
        }
    }

    String mediaType() {
        return jpegQuality > 0 ? "image/jpeg" : "image/png";
    }

    @Override
    public String toString() {
        return name;
    }
}
