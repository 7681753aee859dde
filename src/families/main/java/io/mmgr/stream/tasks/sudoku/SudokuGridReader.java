package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.GridException;
import io.mmgr.stream.vision.GridGeometry;
import io.mmgr.stream.vision.InkImage;
import io.mmgr.stream.vision.Rect;
import io.mmgr.stream.vision.RgbImage;

/**
 * Reads the digits of an n x n Sudoku from images (seed D.4.2): locate the grid, segment the cells,
 * threshold each cell adaptively, decide empty or filled, OCR the filled ones and keep digits 1..n.
 *
 * <p>Across the frames of one video it remembers each cell's fingerprint at its last reading and
 * reads a cell again only when its pixels changed since then, so a 96-frame video costs about one
 * OCR per digit that appears, not one per digit per frame. A reader belongs to one image or video.
 * Its cuts are in {@link SudokuThresholds}.
 */
final class SudokuGridReader {

    /** Read value of a cell with ink but no digit 1..n (unreadable, or a digit outside the grid's range). */
    static final int INVALID = -1;

    private final int n;
    private final DigitOcr ocr;
    private final GlyphMemory memory = new GlyphMemory();
    private final byte[][] fingerprints;
    private final int[] values;
    private GridGeometry grid;
    private int ocrCalls;
    private int glyphsRead;
    private int cellReads;
    private int gridSearches;

    SudokuGridReader(int n, DigitOcr ocr) {
        this.n = n;
        this.ocr = ocr;
        this.fingerprints = new byte[n * n][];
        this.values = new int[n * n];
    }

    /**
     * The frame's cells, row-major: 0 empty, 1..n a digit, {@link #INVALID} ink without a valid digit.
     * Cells whose pixels match their last reading keep it.
     */
    int[] read(RgbImage frame) throws GridException {
        InkImage ink = InkImage.of(frame);
        if (grid == null || !GridLocator.stillFits(ink, grid)) {
            grid = null;
            gridSearches++;
            grid = GridLocator.locate(ink, n);
        }
        int inset = (int) Math.max(1, Math.round(SudokuThresholds.CELL_INSET * grid.pitch()));
        java.util.Map<Integer, Glyph> unread = new java.util.LinkedHashMap<>();
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                int i = r * n + c;
                Rect cell = inner(grid.cell(r, c), inset);
                byte[] print = GlyphExtractor.fingerprint(ink, cell, SudokuThresholds.FINGERPRINT_SIDE);
                if (fingerprints[i] != null && GlyphExtractor.difference(print, fingerprints[i]) <= SudokuThresholds.CELL_CHANGE) {
                    continue;
                }
                fingerprints[i] = print;
                cellReads++;
                values[i] = readCell(ink, cell, i, unread);
            }
        }
        // a glyph no attempt could read takes the digit of a clearly nearest glyph read on this board
        for (var e : unread.entrySet()) {
            int d = memory.nearest(e.getValue());
            values[e.getKey()] = d > 0 && d <= n ? d : INVALID;
        }
        return values.clone();
    }

    private int readCell(InkImage ink, Rect cell, int index, java.util.Map<Integer, Glyph> unread) {
        Glyph glyph = GlyphExtractor.extract(ink, cell);
        if (glyph == null) {
            return 0;
        }
        glyphsRead++;
        int known = memory.recall(glyph);
        if (known == 0) {
            ocrCalls++;
            DigitOcr.Reading reading = ocr.read(glyph);
            if (!reading.found()) {
                unread.put(index, glyph);
                return INVALID;
            }
            known = reading.digit();
            if (reading.confidence() >= SudokuThresholds.REMEMBER_CONFIDENCE) {
                memory.remember(glyph, known);
            }
        }
        // the seed keeps recognised symbols that are valid digits; anything else is no digit
        return known <= n ? known : INVALID;
    }

    private static Rect inner(Rect r, int inset) {
        int dx = Math.min(inset, (r.width() - 1) / 2);
        int dy = Math.min(inset, (r.height() - 1) / 2);
        return new Rect(r.x() + dx, r.y() + dy, r.width() - 2 * dx, r.height() - 2 * dy);
    }

    /** Glyphs sent to the OCR engine so far. */
    int ocrCalls() {
        return ocrCalls;
    }

    /** Glyphs read so far, by the OCR engine or from a matching glyph read before. */
    int glyphsRead() {
        return glyphsRead;
    }

    /** Frames in which the grid was searched for (the others kept the previous frame's grid). */
    int gridSearches() {
        return gridSearches;
    }

    /** Cells examined (new or changed) so far. */
    int cellReads() {
        return cellReads;
    }

    /** The metrics' view of a read grid: digits 1..n, 0 for empty or invalid. */
    static int[] digits(int[] read) {
        int[] out = new int[read.length];
        for (int i = 0; i < read.length; i++) {
            out[i] = Math.max(0, read[i]);
        }
        return out;
    }

    /** Row-major text of a read grid: digits, {@code .} empty, {@code ?} ink without a valid digit. */
    static String format(int[] read) {
        StringBuilder sb = new StringBuilder(read.length);
        for (int v : read) {
            sb.append(v == 0 ? '.' : v == INVALID ? '?' : (char) ('0' + v));
        }
        return sb.toString();
    }
}
