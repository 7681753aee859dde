package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoEncoder;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Draws maze videos in the look of maze-dataset's {@code MazePlot} as MiniVeo3-Reasoner animates it
 * ({@code plot_continuous}: 832 x 480, 81 frames, 15 fps), our own drawing of what its public code
 * describes: the lattice image of {@code unit_length} 14 (walls one unit pixel, connections 0.93 grey,
 * a black post at every corner) shown with row 0 at the bottom, spines two points wide, ticks labelled
 * per row and column and the axis names "row" and "col"; a green disc on the start that stays put, a
 * star that walks the route (interpolated between cells so the route fills the frames), and a red flag
 * on the target that turns into a trophy (and the star leaves the picture) once the star arrives.
 * Icons are 0.8 of a unit across.
 */
final class MazePlotLook {

    static final int WIDTH = 832;
    static final int HEIGHT = 480;
    static final int FRAMES = 81;
    static final int FPS = 15;
    private static final int UNIT = 14;
    private static final Color CONNECTION = new Color(246, 246, 246);
    static final Color DISC = new Color(34, 177, 76);
    static final Color STAR = new Color(0, 162, 232);
    static final Color FLAG = new Color(237, 28, 36);
    private static final Color POLE = new Color(185, 122, 87);
    static final Color TROPHY = new Color(255, 201, 14);

    private MazePlotLook() {
    }

    /** The icons' colours: the start disc, the walking star, the target's flag and the trophy it turns into. */
    record Icons(Color disc, Color star, Color flag, Color trophy) {
        static final Icons MINIVEO3 = new Icons(DISC, STAR, FLAG, TROPHY);
    }

    /** Where the board lies: matplotlib's default axes box, a square board of equal aspect centred in it. */
    record Board(double x0, double y0, double side, int rows, int cols) {
        static Board of(int rows, int cols) {
            double left = 0.125 * WIDTH;
            double right = 0.9 * WIDTH;
            double top = (1 - 0.88) * HEIGHT;
            double bottom = (1 - 0.11) * HEIGHT;
            double px = Math.min((right - left) / (cols * UNIT + 1), (bottom - top) / (rows * UNIT + 1));
            double w = px * (cols * UNIT + 1);
            double h = px * (rows * UNIT + 1);
            return new Board((left + right - w) / 2, (top + bottom - h) / 2, px, rows, cols);
        }

        /** Picture x of a (fractional) column's cell centre. */
        double x(double col) {
            return x0 + side * (UNIT * (col + 0.5) + 0.5);
        }

        /** Picture y of a (fractional) row's cell centre, row 0 at the bottom. */
        double y(double row) {
            return y0 + side * ((rows * UNIT + 1) - (UNIT * (row + 0.5) + 0.5));
        }
    }

    /**
     * One frame: the maze (walls in {@code erased} not drawn), the star at {@code agent} (a fractional
     * cell, null: not shown), the target as a trophy when {@code reached}.
     */
    static RgbImage frame(MazeLattice maze, Set<Long> erased, Cell start, Cell target, double[] agent, boolean reached,
                          Icons icons) {
        int rows = maze.rows();
        int cols = maze.cols();
        Board b = Board.of(rows, cols);
        BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        // the lattice image is upsampled by nearest neighbour, as imshow shows it: no anti-aliasing (which
        // would leave seams between its pixels); the spines, text and icons are anti-aliased
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        // the lattice image, (rows * 14 + 1) pixels square, image row 0 drawn at the bottom
        int n = rows * UNIT + 1;
        int m = cols * UNIT + 1;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                Color c = pixel(maze, erased, i, j);
                if (c != Color.WHITE) {
                    g.setColor(c);
                    g.fill(new Rectangle2D.Double(b.x0() + j * b.side(), b.y0() + (n - 1 - i) * b.side(), b.side(), b.side()));
                }
            }
        }
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(2.8f));
        g.draw(new Rectangle2D.Double(b.x0(), b.y0(), m * b.side(), n * b.side()));
        axes(g, b);
        double icon = 0.8 * UNIT * b.side();
        g.setColor(icons.disc());
        g.fill(new Ellipse2D.Double(b.x(start.col()) - icon / 2, b.y(start.row()) - icon / 2, icon, icon));
        if (reached) {
            trophy(g, b.x(target.col()), b.y(target.row()), icon, icons.trophy());
        } else {
            flag(g, b.x(target.col()), b.y(target.row()), icon, icons.flag());
        }
        if (agent != null) {
            g.setColor(icons.star());
            g.fill(star(b.x(agent[1]), b.y(agent[0]), icon / 2));
        }
        g.dispose();
        return RgbImage.of(img);
    }

    /**
     * A pixel of maze-dataset's lattice image ({@code _lattice_maze_to_img}): node interiors white,
     * a connection's line 0.93 grey, a wall's black, every corner black.
     */
    private static Color pixel(MazeLattice maze, Set<Long> erased, int i, int j) {
        int r = i / UNIT;
        int c = j / UNIT;
        boolean lineI = i % UNIT == 0;
        boolean lineJ = j % UNIT == 0;
        if (lineI && lineJ) {
            boolean outer = r == 0 || c == 0 || r == maze.rows() || c == maze.cols();
            return !outer && erased.contains(key(2 * r, 2 * c)) ? Color.WHITE : Color.BLACK;
        }
        if (!lineI && !lineJ) {
            return Color.WHITE;
        }
        // a wall line between two cells: lattice block (2r, 2c + 1) under row r, (2r + 1, 2c) left of column c
        int lr = lineI ? 2 * r : 2 * r + 1;
        int lc = lineJ ? 2 * c : 2 * c + 1;
        if (lr >= maze.latticeRows() || lc >= maze.latticeCols()) {
            return Color.BLACK;
        }
        boolean border = lr == 0 || lc == 0 || lr == maze.latticeRows() - 1 || lc == maze.latticeCols() - 1;
        if (maze.isOpen(lr, lc)) {
            return CONNECTION;
        }
        return !border && erased.contains(key(lr, lc)) ? Color.WHITE : Color.BLACK;
    }

    static long key(int latticeRow, int latticeCol) {
        return ((long) latticeRow << 32) | latticeCol;
    }

    private static void axes(Graphics2D g, Board b) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        FontMetrics fm = g.getFontMetrics();
        g.setStroke(new BasicStroke(1f));
        double left = b.x0();
        double bottom = b.y0() + (b.rows() * UNIT + 1) * b.side();
        for (int c = 0; c < b.cols(); c++) {
            double x = b.x(c);
            g.draw(new java.awt.geom.Line2D.Double(x, bottom, x, bottom + 5));
            String s = Integer.toString(c);
            g.drawString(s, (float) (x - fm.stringWidth(s) / 2.0), (float) (bottom + 7 + fm.getAscent()));
        }
        for (int r = 0; r < b.rows(); r++) {
            double y = b.y(r);
            g.draw(new java.awt.geom.Line2D.Double(left - 5, y, left, y));
            String s = Integer.toString(r);
            g.drawString(s, (float) (left - 9 - fm.stringWidth(s)), (float) (y + fm.getAscent() / 2.0 - 1));
        }
        g.drawString("col", (float) (b.x((b.cols() - 1) / 2.0) - fm.stringWidth("col") / 2.0), (float) (bottom + 24 + fm.getAscent()));
        java.awt.geom.AffineTransform t = g.getTransform();
        g.rotate(-Math.PI / 2, left - 32, b.y((b.rows() - 1) / 2.0));
        g.drawString("row", (float) (left - 32 - fm.stringWidth("row") / 2.0), (float) (b.y((b.rows() - 1) / 2.0)));
        g.setTransform(t);
    }

    private static Path2D star(double cx, double cy, double r) {
        Path2D.Double p = new Path2D.Double();
        for (int k = 0; k < 10; k++) {
            double a = -Math.PI / 2 + k * Math.PI / 5;
            double rr = k % 2 == 0 ? r : 0.45 * r;
            double x = cx + rr * Math.cos(a);
            double y = cy + rr * Math.sin(a);
            if (k == 0) {
                p.moveTo(x, y);
            } else {
                p.lineTo(x, y);
            }
        }
        p.closePath();
        return p;
    }

    private static void flag(Graphics2D g, double cx, double cy, double s, Color colour) {
        g.setColor(POLE);
        g.setStroke(new BasicStroke((float) Math.max(1.5, s * 0.06)));
        g.draw(new java.awt.geom.Line2D.Double(cx - 0.05 * s, cy - 0.4 * s, cx - 0.05 * s, cy + 0.4 * s));
        g.draw(new java.awt.geom.Line2D.Double(cx - 0.4 * s, cy + 0.4 * s, cx + 0.3 * s, cy + 0.4 * s));
        g.setColor(colour);
        Path2D.Double t = new Path2D.Double();
        t.moveTo(cx - 0.05 * s, cy - 0.4 * s);
        t.lineTo(cx + 0.45 * s, cy - 0.2 * s);
        t.lineTo(cx - 0.05 * s, cy);
        t.closePath();
        g.fill(t);
    }

    private static void trophy(Graphics2D g, double cx, double cy, double s, Color colour) {
        g.setColor(colour);
        g.fill(new java.awt.geom.Arc2D.Double(cx - 0.3 * s, cy - 0.55 * s, 0.6 * s, 0.7 * s, 180, 180, java.awt.geom.Arc2D.CHORD));
        g.setStroke(new BasicStroke((float) Math.max(1.5, s * 0.06)));
        g.draw(new Ellipse2D.Double(cx - 0.42 * s, cy - 0.3 * s, 0.2 * s, 0.2 * s));
        g.draw(new Ellipse2D.Double(cx + 0.22 * s, cy - 0.3 * s, 0.2 * s, 0.2 * s));
        g.fill(new Rectangle2D.Double(cx - 0.05 * s, cy - 0.05 * s, 0.1 * s, 0.3 * s));
        g.fill(new Rectangle2D.Double(cx - 0.2 * s, cy + 0.25 * s, 0.4 * s, 0.1 * s));
    }

    /**
     * The star's position per frame along a route, as {@code plot_continuous} spreads it: the frames
     * beyond one per cell are shared evenly between the steps, the first steps taking one more each
     * until none is left; the last frame is the route's end.
     */
    static List<double[]> positions(List<Cell> route, int frames) {
        List<double[]> out = new ArrayList<>();
        int steps = route.size() - 1;
        if (steps == 0) {
            for (int f = 0; f < frames; f++) {
                out.add(new double[] {route.get(0).row(), route.get(0).col()});
            }
            return out;
        }
        int extra = Math.max(0, frames - route.size());
        for (int i = 0; i < steps; i++) {
            Cell a = route.get(i);
            Cell b = route.get(i + 1);
            int k = extra / steps + (i < extra % steps ? 1 : 0);
            out.add(new double[] {a.row(), a.col()});
            for (int j = 1; j <= k; j++) {
                double f = j / (double) (k + 1);
                out.add(new double[] {a.row() + f * (b.row() - a.row()), a.col() + f * (b.col() - a.col())});
            }
        }
        Cell last = route.get(route.size() - 1);
        out.add(new double[] {last.row(), last.col()});
        return out;
    }

    /**
     * Writes a video: the star walks {@code route}; from frame {@code dissolveFrom} on (never when
     * negative) the wall blocks in {@code dissolving} (lattice row and column) disappear, a few a frame. The star shows
     * from the second frame (at the start, the disc is drawn alone) and gives way to the trophy on the
     * target; a star that never leaves the start is drawn on the disc.
     */
    static void video(MazeLattice maze, Cell start, Cell target, List<Cell> route, List<long[]> dissolving, int dissolveFrom,
                      Icons icons, Path out) throws MediaException {
        List<double[]> at = positions(route, FRAMES);
        boolean moves = route.size() > 1;
        try (VideoEncoder enc = VideoEncoder.open(out, WIDTH, HEIGHT, FPS, VideoEncoder.Container.MP4)) {
            java.util.Set<Long> erased = new java.util.HashSet<>();
            int perFrame = Math.max(1, (dissolving.size() + 19) / 20);
            for (int f = 0; f < at.size(); f++) {
                for (int k = 0; dissolveFrom >= 0 && f >= dissolveFrom && k < perFrame; k++) {
                    int i = (f - dissolveFrom) * perFrame + k;
                    if (i < dissolving.size()) {
                        erased.add(key((int) dissolving.get(i)[0], (int) dissolving.get(i)[1]));
                    }
                }
                double[] p = at.get(f);
                boolean onStart = p[0] == start.row() && p[1] == start.col();
                boolean onTarget = p[0] == target.row() && p[1] == target.col();
                double[] agent = (onStart && moves) || onTarget ? null : p;
                enc.write(frame(maze, erased, start, target, agent, onTarget, icons));
            }
        }
    }
}
