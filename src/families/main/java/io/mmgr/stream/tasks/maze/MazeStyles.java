package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.tasks.maze.OutputStyle.Surround;
import java.util.List;
import java.util.Optional;

/**
 * The render styles the maze pipeline is held to, each a reasonable way to draw a maze answer or a
 * reference: 128 to 2,048 px; block lattices and thin wall lines (maze-dataset's {@code MazePlot},
 * walls 1/14 of the pitch, light-grey passages, plot axes); paths from one pixel to the full
 * corridor; anti-aliased or not; JPEG down to quality 60, slight blur, small hue, saturation and
 * brightness shifts; margins, frames and axes; square and round markers.
 */
public final class MazeStyles {

    private MazeStyles() {
    }

    public static final List<OutputStyle> IMAGE = List.of(
            OutputStyle.blocks("blocks-512", 512, 512, 0.02, 0.6, 0.9),
            OutputStyle.blocks("blocks-128", 128, 128, 0.02, 0.5, 0.8),
            OutputStyle.blocks("blocks-256-2px", 256, 256, 0.02, 0, 0.7).stroke(0, 2),
            OutputStyle.blocks("blocks-256-1px-aliased", 256, 256, 0.02, 0, 0.7).stroke(0, 1).aliased(),
            OutputStyle.blocks("blocks-2048-1px", 2048, 2048, 0.03, 0, 0.8).stroke(0, 1),
            OutputStyle.blocks("blocks-full-cell-aliased", 320, 320, 0, 1.0, 1.0).aliased(),
            OutputStyle.blocks("blocks-jpeg60-blur", 640, 640, 0.05, 0.4, 0.8).blurred(0.8).jpeg(60),
            OutputStyle.blocks("blocks-colour-shift", 512, 384, 0.04, 0.5, 0.7).shifted(15, 0.8, 0.85),
            OutputStyle.blocks("blocks-round-frame", 600, 600, 0.03, 0.3, 0.8).markers(0.8, true)
                    .surround(Surround.FRAME, 0.04),
            OutputStyle.blocks("blocks-axes", 640, 480, 0.02, 0.5, 0.8).surround(Surround.AXES, 0.02),
            OutputStyle.blocks("mazeplot-axes", 640, 480, 0.02, 0, 0.55).thinWalls(1 / 14.0, true)
                    .stroke(0, 3.5).markers(0.55, true).surround(Surround.AXES, 0.02),
            OutputStyle.blocks("thin-256-1px", 256, 256, 0.02, 0, 0.7).thinWalls(1 / 8.0, false).stroke(0, 1.5),
            OutputStyle.blocks("thin-128-1px", 128, 128, 0.01, 0, 0.7).thinWalls(1 / 6.0, false).stroke(0, 1),
            OutputStyle.blocks("thin-2048-full-cell", 2048, 2048, 0.02, 1.0, 0.9).thinWalls(1 / 14.0, true).jpeg(80),
            OutputStyle.blocks("thin-jpeg60-blur-shift", 512, 512, 0.03, 0.3, 0.7).thinWalls(0.1, false)
                    .blurred(0.7).jpeg(60).shifted(-12, 0.85, 0.9),
            OutputStyle.blocks("thin-round-frame", 768, 576, 0.03, 0.5, 0.7).thinWalls(0.2, false)
                    .markers(0.7, true).surround(Surround.FRAME, 0.04),
            OutputStyle.blocks("walls-quarter-aliased", 400, 400, 0.04, 0.6, 0.8).thinWalls(0.25, false).aliased());

    public static final List<OutputStyle> VIDEO = List.of(
            OutputStyle.blocks("video-blocks-320", 320, 320, 0.03, 0.3, 0.8),
            OutputStyle.blocks("video-thin-round-384", 384, 384, 0.03, 0.3, 0.6).thinWalls(1 / 10.0, false)
                    .markers(0.6, true),
            OutputStyle.blocks("video-mazeplot-axes-shift", 480, 360, 0.02, 0.3, 0.6).thinWalls(1 / 14.0, true)
                    .surround(Surround.AXES, 0.02).shifted(10, 0.9, 0.92).blurred(0.6));

    public static Optional<OutputStyle> find(String name) {
        return java.util.stream.Stream.concat(IMAGE.stream(), VIDEO.stream()).filter(s -> s.name().equals(name)).findFirst();
    }
}
