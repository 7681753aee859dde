package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.nio.file.Path;
import java.util.List;

/**
 * Draws mazes in an {@link OutputStyle}: simulated model outputs for a {@link Scenario} (the still
 * answer, or a video in which the green square walks the route) and reference problem and solution
 * images. Java2D at fractional sizes, then the style's colour shift, blur and JPEG.
 */
final class OutputRenderer {

    /** MazePlot's connection value 0.93 on its grey scale from -1 (black) to 1 (white). */
    private static final int LIGHT_PASSAGE_RGB = 0xF6F6F6;

    private OutputRenderer() {
    }

    /** Where the board lands on the canvas: wall line {@code j} starts at {@code x0 + j pitch} and is {@code wall} thick. */
    record Geometry(double x0, double y0, double pitch, double wall) {

        double blockStart(double origin, int k) {
            return k % 2 == 0 ? origin + (k / 2) * pitch : origin + (k / 2) * pitch + wall;
        }

        double blockLength(int k) {
            return k % 2 == 0 ? wall : pitch - wall;
        }

        double cx(Cell c) {
            return x0 + c.col() * pitch + wall + (pitch - wall) / 2;
        }

        double cy(Cell c) {
            return y0 + c.row() * pitch + wall + (pitch - wall) / 2;
        }

        /** The corridor: the inside of a cell. */
        double corridor() {
            return pitch - wall;
        }

        /** Block size for the block lattice (one block = half a pitch). */
        double block() {
            return pitch / 2;
        }

        double boardWidth(int cols) {
            return cols * pitch + wall;
        }

        double boardHeight(int rows) {
            return rows * pitch + wall;
        }
    }

    static Geometry geometry(OutputStyle s, int rows, int cols) {
        double left = s.margin();
        double right = s.margin();
        double top = s.margin();
        double bottom = s.margin();
        if (s.surround() == OutputStyle.Surround.AXES) {
            left += 0.1;
            bottom += 0.1;
            top += 0.07;
            right += 0.02;
        } else if (s.surround() == OutputStyle.Surround.FRAME) {
            double f = frameGap(s) + frameWidth(s);
            left += f / s.width();
            right += f / s.width();
            top += f / s.height();
            bottom += f / s.height();
        }
        double aw = s.width() * (1 - left - right);
        double ah = s.height() * (1 - top - bottom);
        double w = s.wallOfPitch();
        double pitch = Math.min(aw / (cols + w), ah / (rows + w));
        double x0 = s.width() * left + (aw - pitch * (cols + w)) / 2;
        double y0 = s.height() * top + (ah - pitch * (rows + w)) / 2;
        return new Geometry(x0, y0, pitch, w * pitch);
    }

    private static double frameGap(OutputStyle s) {
        return Math.max(4, 0.03 * Math.min(s.width(), s.height()));
    }

    private static double frameWidth(OutputStyle s) {
        return Math.max(2, Math.min(s.width(), s.height()) / 200.0);
    }

    /** The still answer: maze, route in blue, start and (possibly moved) target markers. */
    static RgbImage image(Scenario sc, OutputStyle s) {
        Geometry g = geometry(s, sc.problem().rows(), sc.problem().cols());
        BufferedImage img = new BufferedImage(s.width(), s.height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D gr = base(img, sc.drawnLattice(), s, g);
        if (sc.route().size() > 1) {
            gr.setColor(new Color(MazePalette.PATH_RGB));
            gr.setStroke(new BasicStroke((float) strokeWidth(s, g), BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND));
            gr.draw(polyline(sc.route(), g));
        }
        gr.setColor(new Color(MazePalette.START_RGB));
        gr.fill(marker(s, g, g.cx(sc.drawnStart()), g.cy(sc.drawnStart())));
        gr.setColor(new Color(MazePalette.TARGET_RGB));
        gr.fill(marker(s, g, g.cx(sc.drawnTarget()), g.cy(sc.drawnTarget())));
        gr.dispose();
        return finish(RgbImage.of(img), s);
    }

    /** A reference problem image in this style: the maze with its start and target markers. */
    static RgbImage problem(MazeProblem p, OutputStyle s) {
        return image(Scenario.of(Fault.NO_PATH, p, new java.util.Random(0)).orElseThrow(), s);
    }

    /** A reference solution image in this style: the maze with the solution drawn. */
    static RgbImage solution(MazeProblem p, OutputStyle s) {
        return image(Scenario.of(Fault.CORRECT, p, new java.util.Random(0)).orElseThrow(), s);
    }

    static double strokeWidth(OutputStyle s, Geometry g) {
        return s.strokePx() > 0 ? s.strokePx() : s.strokeOfCell() * g.corridor();
    }

    private static Path2D polyline(List<Cell> route, Geometry g) {
        Path2D.Double line = new Path2D.Double();
        line.moveTo(g.cx(route.get(0)), g.cy(route.get(0)));
        for (Cell c : route.subList(1, route.size())) {
            line.lineTo(g.cx(c), g.cy(c));
        }
        return line;
    }

    /** A frame of the video answer: the agent at a point along the route. */
    static RgbImage frame(Scenario sc, OutputStyle s, double progress) {
        return frame(sc, s, progress, MazePalette.START_RGB, MazePalette.TARGET_RGB);
    }

    /** As {@link #frame(Scenario, OutputStyle, double)} with the agent (its own start) and the target in other colours. */
    static RgbImage frame(Scenario sc, OutputStyle s, double progress, int agentRgb, int targetRgb) {
        Geometry g = geometry(s, sc.problem().rows(), sc.problem().cols());
        BufferedImage img = new BufferedImage(s.width(), s.height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D gr = base(img, sc.drawnLattice(), s, g);
        return markers(img, gr, sc, s, g, progress, agentRgb, targetRgb);
    }

    /** The frame's markers drawn over its maze (in {@code img}, through {@code gr}), then the style's finish. */
    private static RgbImage markers(BufferedImage img, Graphics2D gr, Scenario sc, OutputStyle s, Geometry g,
                                    double progress, int agentRgb, int targetRgb) {
        drawMarkers(gr, sc, s, g, progress, agentRgb, targetRgb);
        return finish(RgbImage.of(img), s);
    }

    private static void drawMarkers(Graphics2D gr, Scenario sc, OutputStyle s, Geometry g, double progress,
                                    int agentRgb, int targetRgb) {
        gr.setColor(new Color(targetRgb));
        gr.fill(marker(s, g, g.cx(sc.drawnTarget()), g.cy(sc.drawnTarget())));
        double[] at = along(sc.route(), g, progress);
        gr.setColor(new Color(agentRgb));
        gr.fill(marker(s, g, at[0], at[1]));
        gr.dispose();
    }

    /** Writes the walking agent as a video; the last 15 % of frames hold the final position. */
    static String video(Scenario sc, OutputStyle s, int frames, VideoEncoder.Container container, Path out)
            throws MediaException {
        return video(sc, s, frames, container, out, MazePalette.START_RGB, MazePalette.TARGET_RGB);
    }

    /** As {@link #video(Scenario, OutputStyle, int, VideoEncoder.Container, Path)} with the markers in other colours. */
    static String video(Scenario sc, OutputStyle s, int frames, VideoEncoder.Container container, Path out,
                        int agentRgb, int targetRgb) throws MediaException {
        OutputStyle even = evenSized(s);
        FrameFinisher finisher = new FrameFinisher(even);
        try (VideoEncoder enc = VideoEncoder.open(out, even.width(), even.height(), 24, container)) {
            for (RgbImage raw : rawFrames(sc, even, frames, agentRgb, targetRgb)) {
                enc.write(finisher.next(raw));
            }
            return enc.codec();
        }
    }

    /** The style at even dimensions, as video encoders want them, and lossless. */
    static OutputStyle evenSized(OutputStyle s) {
        return s.sized(s.width() & ~1, s.height() & ~1).jpeg(0);
    }

    /** A video's frames before {@link #finish}: the maze, the target and the agent at its place on the route. */
    static Iterable<RgbImage> rawFrames(Scenario sc, OutputStyle even, int frames, int agentRgb, int targetRgb) {
        // the maze is the same in every frame: drawn once, copied under each frame's markers (the same
        // pixels as drawing it anew, without a Java2D pass over every wall and label per frame)
        Geometry g = geometry(even, sc.problem().rows(), sc.problem().cols());
        BufferedImage maze = new BufferedImage(even.width(), even.height(), BufferedImage.TYPE_INT_RGB);
        base(maze, sc.drawnLattice(), even, g).dispose();
        int[] mazePixels = ((DataBufferInt) maze.getRaster().getDataBuffer()).getData();
        return () -> java.util.stream.IntStream.range(0, frames).mapToObj(f -> {
            BufferedImage img = new BufferedImage(even.width(), even.height(), BufferedImage.TYPE_INT_RGB);
            System.arraycopy(mazePixels, 0, ((DataBufferInt) img.getRaster().getDataBuffer()).getData(), 0,
                    mazePixels.length);
            drawMarkers(graphics(img, even), sc, even, g, progress(f, frames), agentRgb, targetRgb);
            return RgbImage.of(img);
        }).iterator();
    }

    /**
     * {@link #finish} over a video's frames, redone only where a frame differs from the one before. Colour
     * shift is per pixel and the blur reads at most its radius away, so outside the changed box widened by
     * the radius a frame's finished pixels are the last frame's, bit for bit; inside it they are computed
     * by the same code on a crop with the radius again as margin (clamped where the crop meets the image's
     * edge, as the whole image is). A blurred, shifted style's videos cost a third of the CPU so (JFR had put a
     * fifth of the maze style corpus's samples in finishing every frame whole).
     */
    static final class FrameFinisher {
        private final OutputStyle style;
        private final int margin;
        private int[] lastRaw;
        private RgbImage lastDone;

        FrameFinisher(OutputStyle style) {
            this.style = style;
            this.margin = style.blurSigma() > 0 ? blurRadius(style.blurSigma()) : 0;
        }

        RgbImage next(RgbImage raw) {
            if (!style.colourShifted() && style.blurSigma() <= 0) {
                return raw;
            }
            int w = raw.width();
            int h = raw.height();
            int[] px = raw.pixels();
            if (lastRaw == null) {
                lastRaw = px;
                lastDone = finish(raw, style);
                return lastDone;
            }
            int x0 = w;
            int y0 = h;
            int x1 = -1;
            int y1 = -1;
            for (int y = 0; y < h; y++) {
                for (int x = 0, i = y * w; x < w; x++, i++) {
                    if (px[i] != lastRaw[i]) {
                        x0 = Math.min(x0, x);
                        x1 = Math.max(x1, x);
                        y0 = Math.min(y0, y);
                        y1 = Math.max(y1, y);
                    }
                }
            }
            lastRaw = px;
            if (x1 < 0) {
                return lastDone;
            }
            // the pixels whose finish can change, and the crop they are computed from
            int ox0 = Math.max(0, x0 - margin);
            int oy0 = Math.max(0, y0 - margin);
            int ox1 = Math.min(w - 1, x1 + margin);
            int oy1 = Math.min(h - 1, y1 + margin);
            int cx0 = Math.max(0, ox0 - margin);
            int cy0 = Math.max(0, oy0 - margin);
            int cw = Math.min(w - 1, ox1 + margin) - cx0 + 1;
            int ch = Math.min(h - 1, oy1 + margin) - cy0 + 1;
            int[] crop = new int[cw * ch];
            for (int y = 0; y < ch; y++) {
                System.arraycopy(px, (cy0 + y) * w + cx0, crop, y * cw, cw);
            }
            int[] part = finish(new RgbImage(cw, ch, crop), style).pixels();
            int[] done = lastDone.pixels().clone();
            for (int y = oy0; y <= oy1; y++) {
                System.arraycopy(part, (y - cy0) * cw + (ox0 - cx0), done, y * w + ox0, ox1 - ox0 + 1);
            }
            lastDone = new RgbImage(w, h, done);
            return lastDone;
        }
    }

    /** Route progress at frame {@code f} of {@code frames}: walking for 85 % of the video, then still. */
    static double progress(int f, int frames) {
        return Math.min(1.0, f / (0.85 * (frames - 1)));
    }

    /** A graphics on {@code img} with the style's rendering hints. */
    private static Graphics2D graphics(BufferedImage img, OutputStyle s) {
        Graphics2D gr = img.createGraphics();
        gr.setRenderingHint(RenderingHints.KEY_ANTIALIASING,
                s.antialias() ? RenderingHints.VALUE_ANTIALIAS_ON : RenderingHints.VALUE_ANTIALIAS_OFF);
        gr.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
                s.antialias() ? RenderingHints.VALUE_TEXT_ANTIALIAS_ON : RenderingHints.VALUE_TEXT_ANTIALIAS_OFF);
        gr.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        return gr;
    }

    private static Graphics2D base(BufferedImage img, MazeLattice m, OutputStyle s, Geometry g) {
        Graphics2D gr = graphics(img, s);
        gr.setColor(Color.WHITE);
        gr.fillRect(0, 0, img.getWidth(), img.getHeight());
        if (s.lightPassages()) {
            gr.setColor(new Color(LIGHT_PASSAGE_RGB));
            for (int r = 0; r < m.latticeRows(); r++) {
                for (int c = 0; c < m.latticeCols(); c++) {
                    if (m.isOpen(r, c) && r % 2 != c % 2) {
                        gr.fill(block(g, r, c, 0));
                    }
                }
            }
        }
        gr.setColor(new Color(MazePalette.WALL_RGB));
        // walls as runs along each wall line: overlapping at the posts, so anti-aliasing leaves no seams
        for (int r = 0; r < m.latticeRows(); r += 2) {
            for (int c = 0; c < m.latticeCols(); c++) {
                int end = c;
                while (end < m.latticeCols() && !m.isOpen(r, end)) {
                    end++;
                }
                if (end > c) {
                    gr.fill(run(g, r, c, r, end - 1));
                    c = end;
                }
            }
        }
        for (int c = 0; c < m.latticeCols(); c += 2) {
            for (int r = 0; r < m.latticeRows(); r++) {
                int end = r;
                while (end < m.latticeRows() && !m.isOpen(end, c)) {
                    end++;
                }
                if (end > r) {
                    gr.fill(run(g, r, c, end - 1, c));
                    r = end;
                }
            }
        }
        // blocks off the wall lines (a cell painted over by an altered maze has none; kept for completeness)
        for (int r = 1; r < m.latticeRows(); r += 2) {
            for (int c = 1; c < m.latticeCols(); c += 2) {
                if (!m.isOpen(r, c)) {
                    gr.fill(block(g, r, c, 0));
                }
            }
        }
        surround(gr, s, g, m.rows(), m.cols());
        return gr;
    }

    private static Rectangle2D block(Geometry g, int r, int c, double grow) {
        return new Rectangle2D.Double(g.blockStart(g.x0(), c) - grow, g.blockStart(g.y0(), r) - grow,
                g.blockLength(c) + 2 * grow, g.blockLength(r) + 2 * grow);
    }

    private static Rectangle2D run(Geometry g, int r0, int c0, int r1, int c1) {
        double x = g.blockStart(g.x0(), c0);
        double y = g.blockStart(g.y0(), r0);
        return new Rectangle2D.Double(x, y, g.blockStart(g.x0(), c1) + g.blockLength(c1) - x,
                g.blockStart(g.y0(), r1) + g.blockLength(r1) - y);
    }

    private static void surround(Graphics2D gr, OutputStyle s, Geometry g, int rows, int cols) {
        double bw = g.boardWidth(cols);
        double bh = g.boardHeight(rows);
        if (s.surround() == OutputStyle.Surround.FRAME) {
            double gap = frameGap(s);
            double fw = frameWidth(s);
            gr.setStroke(new BasicStroke((float) fw));
            gr.draw(new Rectangle2D.Double(g.x0() - gap - fw / 2, g.y0() - gap - fw / 2, bw + 2 * gap + fw, bh + 2 * gap + fw));
        } else if (s.surround() == OutputStyle.Surround.AXES) {
            int side = Math.min(s.width(), s.height());
            // spines centred on the board's edge, thicker than one-pixel walls (MazePlot sets linewidth 2)
            gr.setStroke(new BasicStroke((float) Math.max(2, side / 220.0)));
            gr.draw(new Rectangle2D.Double(g.x0(), g.y0(), bw, bh));
            float tick = (float) Math.max(3, side / 110.0);
            Font font = new Font(Font.SANS_SERIF, Font.PLAIN, Math.max(7, side / 40));
            gr.setFont(font);
            FontMetrics fm = gr.getFontMetrics();
            gr.setStroke(new BasicStroke(1f));
            double bottom = g.y0() + bh;
            for (int c = 0; c < cols; c++) {
                double x = g.cx(new Cell(0, c));
                gr.draw(new java.awt.geom.Line2D.Double(x, bottom, x, bottom + tick));
                String label = Integer.toString(c);
                gr.drawString(label, (float) (x - fm.stringWidth(label) / 2.0), (float) (bottom + tick + fm.getAscent()));
            }
            for (int r = 0; r < rows; r++) {
                double y = g.cy(new Cell(r, 0));
                gr.draw(new java.awt.geom.Line2D.Double(g.x0() - tick, y, g.x0(), y));
                String label = Integer.toString(r);
                gr.drawString(label, (float) (g.x0() - tick - 2 - fm.stringWidth(label)), (float) (y + fm.getAscent() / 2.5));
            }
            gr.drawString("col", (float) (g.x0() + bw / 2 - fm.stringWidth("col") / 2.0),
                    (float) Math.min(s.height() - 2, bottom + tick + 2.2 * fm.getAscent()));
            gr.drawString("row", (float) Math.max(1, g.x0() - tick - 4 - 3.5 * fm.stringWidth("0")), (float) (g.y0() + bh / 2));
            gr.drawString("maze", (float) (g.x0() + bw / 2 - fm.stringWidth("maze") / 2.0), (float) Math.max(fm.getAscent(), g.y0() - fm.getAscent()));
        }
    }

    private static Shape marker(OutputStyle s, Geometry g, double cx, double cy) {
        double side = s.markerOfCell() * g.corridor();
        return s.roundMarkers()
                ? new Ellipse2D.Double(cx - side / 2, cy - side / 2, side, side)
                : new Rectangle2D.Double(cx - side / 2, cy - side / 2, side, side);
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

    static RgbImage finish(RgbImage img, OutputStyle s) {
        RgbImage out = s.colourShifted() ? img.colourShifted(s.hueShift(), s.saturation(), s.brightness()) : img;
        return s.blurSigma() > 0 ? blur(out, s.blurSigma()) : out;
    }

    /** Encodes as PNG, or JPEG at the style's quality. */
    static byte[] encode(RgbImage img, OutputStyle s) {
        return s.jpegQuality() > 0 ? ImageEncoder.jpeg(img, s.jpegQuality()) : ImageEncoder.png(img);
    }

    /** Separable Gaussian blur (edges clamped). */
    static RgbImage blur(RgbImage img, double sigma) {
        int radius = blurRadius(sigma);
        double[] k = new double[2 * radius + 1];
        double sum = 0;
        for (int i = -radius; i <= radius; i++) {
            k[i + radius] = Math.exp(-i * i / (2 * sigma * sigma));
            sum += k[i + radius];
        }
        for (int i = 0; i < k.length; i++) {
            k[i] /= sum;
        }
        int w = img.width();
        int h = img.height();
        int[] tmp = pass(img.pixels(), w, h, k, radius, true);
        return new RgbImage(w, h, pass(tmp, w, h, k, radius, false));
    }

    /** How far the blur reads from a pixel, in each direction. */
    static int blurRadius(double sigma) {
        return Math.max(1, (int) Math.ceil(2.5 * sigma));
    }

    /**
     * One direction of the blur. Where the whole window holds one colour the sum is that of any other
     * window of that colour, so it is kept per colour (a small table) and reused: most of a drawing is
     * paper or wall, and the kernel loop over them was a quarter of the maze style corpus's time
     * (bit-identical: the kept sum is the same sum in the same order).
     */
    private static int[] pass(int[] src, int w, int h, double[] k, int radius, boolean horizontal) {
        int[] out = new int[src.length];
        int[] same = sameUntil(src, w, h, horizontal);
        int n = horizontal ? w : h;
        // flat windows' sums by colour, direct-mapped: a vertical pass meets paper and wall columns in turn
        int[] flatRgb = new int[FLAT_SLOTS];
        int[] flatOut = new int[FLAT_SLOTS];
        java.util.Arrays.fill(flatOut, -1);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = horizontal ? x : y;
                int first = Math.max(0, i - radius);
                int from = horizontal ? y * w + first : first * w + x;
                boolean flat = same[from] >= Math.min(n - 1, i + radius);
                int slot = (src[from] * 0x9E3779B1) >>> (32 - FLAT_BITS);
                if (flat && flatOut[slot] >= 0 && flatRgb[slot] == src[from]) {
                    out[y * w + x] = flatOut[slot];
                    continue;
                }
                double r = 0;
                double gsum = 0;
                double b = 0;
                for (int d = -radius; d <= radius; d++) {
                    int p = horizontal ? src[y * w + Math.max(0, Math.min(w - 1, x + d))]
                            : src[Math.max(0, Math.min(h - 1, y + d)) * w + x];
                    double kk = k[d + radius];
                    r += kk * ((p >> 16) & 0xFF);
                    gsum += kk * ((p >> 8) & 0xFF);
                    b += kk * (p & 0xFF);
                }
                out[y * w + x] = ((int) Math.round(r) << 16) | ((int) Math.round(gsum) << 8) | (int) Math.round(b);
                if (flat) {
                    flatRgb[slot] = src[from];
                    flatOut[slot] = out[y * w + x];
                }
            }
        }
        return out;
    }

    private static final int FLAT_BITS = 6;
    private static final int FLAT_SLOTS = 1 << FLAT_BITS;

    /** Per pixel, the last row (or column) index up to which the pixels along the pass's direction equal it. */
    private static int[] sameUntil(int[] src, int w, int h, boolean horizontal) {
        int[] same = new int[src.length];
        if (horizontal) {
            for (int y = 0; y < h; y++) {
                int row = y * w;
                same[row + w - 1] = w - 1;
                for (int x = w - 2; x >= 0; x--) {
                    same[row + x] = src[row + x] == src[row + x + 1] ? same[row + x + 1] : x;
                }
            }
        } else {
            for (int x = 0; x < w; x++) {
                same[(h - 1) * w + x] = h - 1;
            }
            for (int y = h - 2; y >= 0; y--) {
                for (int x = 0; x < w; x++) {
                    int i = y * w + x;
                    same[i] = src[i] == src[i + w] ? same[i + w] : y;
                }
            }
        }
        return same;
    }
}
