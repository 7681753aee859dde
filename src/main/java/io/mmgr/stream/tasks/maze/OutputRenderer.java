package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;

/**
 * Draws simulated model outputs for a {@link Scenario} in an {@link OutputStyle}: anti-aliased Java2D
 * at fractional block sizes, optional colour shift, box blur and JPEG, and videos in which the green
 * square walks the route.
 */
final class OutputRenderer {

    private OutputRenderer() {
    }

    record Geometry(double x0, double y0, double block) {
        double cx(Cell c) {
            return x0 + (c.latticeCol() + 0.5) * block;
        }

        double cy(Cell c) {
            return y0 + (c.latticeRow() + 0.5) * block;
        }
    }

    static Geometry geometry(OutputStyle s, int rows, int cols) {
        double aw = s.width() * (1 - 2 * s.margin());
        double ah = s.height() * (1 - 2 * s.margin());
        double block = Math.min(aw / (2 * cols + 1), ah / (2 * rows + 1));
        double x0 = (s.width() - block * (2 * cols + 1)) / 2;
        double y0 = (s.height() - block * (2 * rows + 1)) / 2;
        return new Geometry(x0, y0, block);
    }

    /** The still answer: maze, route in blue, start and (possibly moved) target squares. */
    static RgbImage image(Scenario sc, OutputStyle s) {
        Geometry g = geometry(s, sc.problem().rows(), sc.problem().cols());
        BufferedImage img = new BufferedImage(s.width(), s.height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D gr = base(img, sc, s, g);
        if (sc.route().size() > 1) {
            Path2D.Double line = new Path2D.Double();
            line.moveTo(g.cx(sc.route().get(0)), g.cy(sc.route().get(0)));
            for (Cell c : sc.route().subList(1, sc.route().size())) {
                line.lineTo(g.cx(c), g.cy(c));
            }
            gr.setColor(new Color(s.pathRgb()));
            gr.setStroke(new BasicStroke((float) (s.strokeBlocks() * g.block()), BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND));
            gr.draw(line);
        }
        marker(gr, g, sc.problem().start(), s.markerBlocks(), s.startRgb());
        marker(gr, g, sc.drawnTarget(), s.markerBlocks(), s.targetRgb());
        gr.dispose();
        return finish(RgbImage.of(img), s);
    }

    /** A frame of the video answer: the agent at a point along the route. */
    static RgbImage frame(Scenario sc, OutputStyle s, double progress) {
        Geometry g = geometry(s, sc.problem().rows(), sc.problem().cols());
        BufferedImage img = new BufferedImage(s.width(), s.height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D gr = base(img, sc, s, g);
        marker(gr, g, sc.drawnTarget(), s.markerBlocks(), s.targetRgb());
        double[] at = along(sc.route(), g, progress);
        double side = s.markerBlocks() * g.block();
        gr.setColor(new Color(s.startRgb()));
        gr.fill(new Rectangle2D.Double(at[0] - side / 2, at[1] - side / 2, side, side));
        gr.dispose();
        RgbImage out = RgbImage.of(img);
        return s.blurRadius() > 0 ? blur(out, s.blurRadius()) : out;
    }

    /** Writes the walking agent as a video; the last 15 % of frames hold the final position. */
    static String video(Scenario sc, OutputStyle s, int frames, VideoEncoder.Container container, Path out)
            throws MediaException {
        int w = s.width() & ~1;
        int h = s.height() & ~1;
        OutputStyle even = new OutputStyle(s.name(), w, h, s.margin(), s.strokeBlocks(), s.markerBlocks(),
                s.shiftedHues(), s.blurRadius(), 0);
        try (VideoEncoder enc = VideoEncoder.open(out, w, h, 24, container)) {
            for (int f = 0; f < frames; f++) {
                double t = Math.min(1.0, f / (0.85 * (frames - 1)));
                enc.write(frame(sc, even, t));
            }
            return enc.codec();
        }
    }

    private static Graphics2D base(BufferedImage img, Scenario sc, OutputStyle s, Geometry g) {
        Graphics2D gr = img.createGraphics();
        gr.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        gr.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        gr.setColor(Color.WHITE);
        gr.fillRect(0, 0, img.getWidth(), img.getHeight());
        gr.setColor(new Color(s.wallRgb()));
        MazeLattice m = sc.drawnLattice();
        for (int r = 0; r < m.latticeRows(); r++) {
            for (int c = 0; c < m.latticeCols(); c++) {
                if (!m.isOpen(r, c)) {
                    // slightly oversized so neighbouring blocks do not leave anti-aliased seams
                    gr.fill(new Rectangle2D.Double(g.x0() + c * g.block() - 0.25, g.y0() + r * g.block() - 0.25,
                            g.block() + 0.5, g.block() + 0.5));
                }
            }
        }
        return gr;
    }

    private static void marker(Graphics2D gr, Geometry g, Cell c, double sizeBlocks, int rgb) {
        double side = sizeBlocks * g.block();
        gr.setColor(new Color(rgb));
        gr.fill(new Rectangle2D.Double(g.cx(c) - side / 2, g.cy(c) - side / 2, side, side));
    }

    static double[] along(List<Cell> route, Geometry g, double t) {
        if (route.size() == 1) {
            return new double[] {g.cx(route.get(0)), g.cy(route.get(0))};
        }
        double pos = t * (route.size() - 1);
        int i = Math.min(route.size() - 2, (int) Math.floor(pos));
        double f = pos - i;
        Cell a = route.get(i);
        Cell b = route.get(i + 1);
        return new double[] {g.cx(a) + f * (g.cx(b) - g.cx(a)), g.cy(a) + f * (g.cy(b) - g.cy(a))};
    }

    private static RgbImage finish(RgbImage img, OutputStyle s) {
        return s.blurRadius() > 0 ? blur(img, s.blurRadius()) : img;
    }

    /** Encodes as PNG, or JPEG at the style's quality. */
    static byte[] encode(RgbImage img, OutputStyle s) {
        return s.jpegQuality() > 0 ? ImageEncoder.jpeg(img, s.jpegQuality()) : ImageEncoder.png(img);
    }

    /** Separable box blur of the given radius (edges clamped). */
    static RgbImage blur(RgbImage img, int radius) {
        int w = img.width();
        int h = img.height();
        int[] src = img.pixels();
        int[] tmp = new int[src.length];
        int[] out = new int[src.length];
        int n = 2 * radius + 1;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int r = 0;
                int gsum = 0;
                int b = 0;
                for (int k = -radius; k <= radius; k++) {
                    int p = src[y * w + Math.max(0, Math.min(w - 1, x + k))];
                    r += (p >> 16) & 0xFF;
                    gsum += (p >> 8) & 0xFF;
                    b += p & 0xFF;
                }
                tmp[y * w + x] = ((r / n) << 16) | ((gsum / n) << 8) | (b / n);
            }
        }
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int r = 0;
                int gsum = 0;
                int b = 0;
                for (int k = -radius; k <= radius; k++) {
                    int p = tmp[Math.max(0, Math.min(h - 1, y + k)) * w + x];
                    r += (p >> 16) & 0xFF;
                    gsum += (p >> 8) & 0xFF;
                    b += p & 0xFF;
                }
                out[y * w + x] = ((r / n) << 16) | ((gsum / n) << 8) | (b / n);
            }
        }
        return new RgbImage(w, h, out);
    }
}
