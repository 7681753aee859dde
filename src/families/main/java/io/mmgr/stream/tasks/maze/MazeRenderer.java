package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.RgbImage;

/**
 * Draws mazes as MMGR shows them: the block lattice scaled to the canvas (whole-pixel blocks,
 * centred, white margin), black walls, white passages, a green start block, a red target block and,
 * on the solution image, the path in blue (as maze-dataset's {@code as_pixels(show_solution=True)}).
 */
public final class MazeRenderer {

    /** Placement of the lattice on a canvas: block {@code (r, c)} covers {@code [x0 + c w, x0 + (c+1) w)}. */
    public record Geometry(int canvasWidth, int canvasHeight, double originX, double originY,
                           double blockWidth, double blockHeight) {

        /** Whole-pixel square blocks as large as fit, centred. */
        public static Geometry fit(int rows, int cols, int canvasWidth, int canvasHeight) {
            int block = Math.min(canvasWidth / (2 * cols + 1), canvasHeight / (2 * rows + 1));
            if (block < 1) {
                throw new IllegalArgumentException("canvas " + canvasWidth + "x" + canvasHeight
                        + " is too small for a " + rows + "x" + cols + " maze");
            }
            int w = block * (2 * cols + 1);
            int h = block * (2 * rows + 1);
            return new Geometry(canvasWidth, canvasHeight, (canvasWidth - w) / 2, (canvasHeight - h) / 2, block, block);
        }

        public int x(double latticeCol) {
            return (int) Math.round(originX + latticeCol * blockWidth);
        }

        public int y(double latticeRow) {
            return (int) Math.round(originY + latticeRow * blockHeight);
        }

        /** Centre of a cell in canvas pixels. */
        public double[] centre(Cell c) {
            return new double[] {originX + (c.latticeCol() + 0.5) * blockWidth, originY + (c.latticeRow() + 0.5) * blockHeight};
        }
    }

    private MazeRenderer() {
    }

    public static RgbImage problem(MazeProblem p, int canvasWidth, int canvasHeight) {
        Geometry g = Geometry.fit(p.rows(), p.cols(), canvasWidth, canvasHeight);
        RgbImage img = RgbImage.filled(canvasWidth, canvasHeight, MazePalette.OPEN_RGB);
        drawWalls(img, g, p.lattice());
        fillBlock(img, g, p.start().latticeRow(), p.start().latticeCol(), MazePalette.START_RGB);
        fillBlock(img, g, p.target().latticeRow(), p.target().latticeCol(), MazePalette.TARGET_RGB);
        return img;
    }

    public static RgbImage solution(MazeProblem p, int canvasWidth, int canvasHeight) {
        Geometry g = Geometry.fit(p.rows(), p.cols(), canvasWidth, canvasHeight);
        RgbImage img = problem(p, canvasWidth, canvasHeight);
        var path = p.solution();
        for (int i = 0; i < path.size(); i++) {
            Cell c = path.get(i);
            if (i > 0 && i < path.size() - 1) {
                fillBlock(img, g, c.latticeRow(), c.latticeCol(), MazePalette.PATH_RGB);
            }
            if (i > 0) {
                Cell prev = path.get(i - 1);
                fillBlock(img, g, prev.latticeRow() + c.row() - prev.row(), prev.latticeCol() + c.col() - prev.col(),
                        MazePalette.PATH_RGB);
            }
        }
        return img;
    }

    public static void drawWalls(RgbImage img, Geometry g, MazeLattice lattice) {
        for (int r = 0; r < lattice.latticeRows(); r++) {
            for (int c = 0; c < lattice.latticeCols(); c++) {
                if (!lattice.isOpen(r, c)) {
                    fillBlock(img, g, r, c, MazePalette.WALL_RGB);
                }
            }
        }
    }

    public static void fillBlock(RgbImage img, Geometry g, int latticeRow, int latticeCol, int rgb) {
        fillRect(img, g.x(latticeCol), g.y(latticeRow), g.x(latticeCol + 1), g.y(latticeRow + 1), rgb);
    }

    public static void fillRect(RgbImage img, int x0, int y0, int x1, int y1, int rgb) {
        x0 = Math.max(0, x0);
        y0 = Math.max(0, y0);
        x1 = Math.min(img.width(), x1);
        y1 = Math.min(img.height(), y1);
        int[] px = img.pixels();
        for (int y = y0; y < y1; y++) {
            java.util.Arrays.fill(px, y * img.width() + x0, y * img.width() + Math.max(x0, x1), rgb);
        }
    }
}
