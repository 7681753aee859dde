package io.mmgr.stream.tasks.maze;

import static io.mmgr.stream.tasks.maze.MazeThresholds.BLOCK;

import io.mmgr.stream.vision.Mask;

/**
 * Reads a black marker, whose pixels are wall class like the walls', from where it stands: the maze's
 * structure says which blocks of the canonical grid are walls, so wall-class pixels in a passage (a
 * cell, or a connection the structure leaves open) are a marker. Cells are never walls in any maze, so
 * before a structure given alone is placed, the cells alone are read. Markers may be any shape.
 *
 * <p>Two cases are completed from the structure: a marker straddling a wall line (sliding through a
 * thin wall, or a disc wider than its cell) covers the line where it shows on both sides of it, as a
 * coloured marker drawn over the line would; and a connection block filled edge to edge with nothing
 * spilling into the cells either side is a wall drawn there, not a marker (a marker exactly as large
 * as a cell, standing on the connection of a block lattice, reads as that wall for the frame).
 */
final class BlackMarker {

    /** A connection block at least this full, with nothing dark beside it in the cells, is a drawn wall. */
    static final double DRAWN_WALL_FILL = 0.9;

    /** How far from every wall (canonical px) a black blob must reach to be a marker. */
    static final int MARKER_DEPTH = 2;

    private BlackMarker() {
    }

    /**
     * The black marker pixels of a picture's wall mask (canonical grid).
     *
     * @param walls     the picture's wall-class pixels ({@link MazeCanvas#walls()})
     * @param structure the maze as the picture shows it, or null (then only the cells are read)
     */
    static Mask in(Mask walls, MazeLattice structure) {
        int latticeRows = walls.height() / BLOCK;
        int latticeCols = walls.width() / BLOCK;
        Mask passages = new Mask(walls.width(), walls.height());
        for (int r = 1; r < latticeRows - 1; r++) {
            for (int c = 1; c < latticeCols - 1; c++) {
                boolean cell = r % 2 == 1 && c % 2 == 1;
                if (cell || (structure != null && structure.isOpen(r, c))) {
                    passages.fillRect(c * BLOCK, r * BLOCK, (c + 1) * BLOCK, (r + 1) * BLOCK, true);
                }
            }
        }
        Mask out = walls.and(passages);
        Mask bridged = new Mask(walls.width(), walls.height());
        if (structure != null) {
            clearDrawnWalls(out, structure);
            bridged = bridge(walls, out, structure);
            out.orInPlace(bridged);
        }
        // the strips an anti-aliased or blurred wall edge leaves along a passage are no marker: only blobs
        // reaching two pixels away from every wall, or across one, are kept (small cells blur into long strips)
        // (a strip touching the marker is cut off as far from its core as the marker's own rim). Strips run
        // along a wall line across the walls that meet it, so a crossing counts only where it is thicker
        // than a strip ({@link #thick})
        Mask core = out.and(passages.erode(MARKER_DEPTH)).or(thick(bridged));
        return out.and(core.dilate(MARKER_DEPTH));
    }

    /**
     * The bridged pixels with another beside them along their wall (above or below on a wall between
     * columns, left or right on one between rows, either at a post): a marker straddling a wall covers
     * several pixels of its line, the one-pixel strips blur and a pixel's misfit leave along a wall line,
     * crossing the walls that meet it, cover one.
     */
    private static Mask thick(Mask bridged) {
        Mask out = new Mask(bridged.width(), bridged.height());
        for (int y = 1; y < bridged.height() - 1; y++) {
            for (int x = 1; x < bridged.width() - 1; x++) {
                if (!bridged.get(x, y)) {
                    continue;
                }
                boolean betweenCols = (x / BLOCK) % 2 == 0;
                boolean betweenRows = (y / BLOCK) % 2 == 0;
                if ((betweenCols && (bridged.get(x, y - 1) || bridged.get(x, y + 1)))
                        || (betweenRows && (bridged.get(x - 1, y) || bridged.get(x + 1, y)))) {
                    out.set(x, y, true);
                }
            }
        }
        return out;
    }

    /** Open connections filled with black and nothing of it in the cells beside them: walls drawn there. */
    private static void clearDrawnWalls(Mask out, MazeLattice structure) {
        for (int r = 1; r < structure.latticeRows() - 1; r++) {
            for (int c = 1; c < structure.latticeCols() - 1; c++) {
                if (r % 2 == c % 2 || !structure.isOpen(r, c)) {
                    continue;
                }
                int x0 = c * BLOCK;
                int y0 = r * BLOCK;
                if (out.countIn(x0, y0, x0 + BLOCK, y0 + BLOCK) < DRAWN_WALL_FILL * BLOCK * BLOCK) {
                    continue;
                }
                // the cells either side: above and below a connection between rows, left and right otherwise
                boolean betweenRows = r % 2 == 0;
                int spill = betweenRows
                        ? out.countIn(x0, y0 - 1, x0 + BLOCK, y0) + out.countIn(x0, y0 + BLOCK, x0 + BLOCK, y0 + BLOCK + 1)
                        : out.countIn(x0 - 1, y0, x0, y0 + BLOCK) + out.countIn(x0 + BLOCK, y0, x0 + BLOCK + 1, y0 + BLOCK);
                if (spill == 0) {
                    out.fillRect(x0, y0, x0 + BLOCK, y0 + BLOCK, false);
                }
            }
        }
    }

    /**
     * Wall pixels of inner walls with marker pixels right across them on both sides, two deep (above and
     * below a wall between rows, left and right of one between columns, either at a post) are the marker's
     * too, as {@link PathMeasures#crossingPixels} counts a coloured marker's (two deep, so the edge strips
     * blur leaves along a line do not bridge it).
     */
    private static Mask bridge(Mask walls, Mask out, MazeLattice structure) {
        Mask added = new Mask(out.width(), out.height());
        PathMeasures.bridging(walls, null, out, structure, 2, added);
        return added;
    }
}
