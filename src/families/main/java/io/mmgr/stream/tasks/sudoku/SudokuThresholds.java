package io.mmgr.stream.tasks.sudoku;

/**
 * Every cut of the Sudoku OCR pipeline's scoring in one place, on the model of the maze's: the seed
 * (../shared/seeds/mmgr-benchmark-metrics.txt, D.4.2) fixes Action Reflection's; the reader's and the
 * OCR's are our measurements, each with its reason. The gate has none: its fractions enter at their
 * strict endpoints ({@link SudokuGate}). Locating the grid and segmenting glyphs keep their tuning with
 * their algorithms ({@link GridLocator}, {@link GlyphExtractor}, {@link GlyphMemory}), as the maze's
 * board locator does.
 */
public final class SudokuThresholds {

    /** Seed, video Action Reflection: "average ≤3 cell updates per frame for 4×4". */
    public static final double MAX_MEAN_UPDATES_4 = 3;
    /** Seed, video Action Reflection: "(≤5 for 9×9)". */
    public static final double MAX_MEAN_UPDATES_9 = 5;
    /** Seed, video Action Reflection: "no more than 25% of cells changing in any single frame". */
    public static final double MAX_FRAME_CHANGE = 0.25;
    /** Seed, video Action Reflection: "at least 20% of frames exhibiting non-zero updates". */
    public static final double MIN_ACTIVE_FRAMES = 0.2;

    /**
     * A reading this confident (Tesseract's 0-100 scale) is taken without further attempts. On the
     * fixture fonts (DejaVu and the JDK's logical fonts, 16-48 px, plain/bold/italic) correct unanimous
     * readings scored 70-96, mostly over 90, and the few misreads seen (a bold serif 5 read as 3) 35-41;
     * the threshold sits between, so a doubtful reading falls through to the next attempt.
     */
    public static final int ACCEPT_CONFIDENCE = 75;

    /**
     * Readings at least this confident (same scale; the OCR accepts a unanimous reading from
     * {@link #ACCEPT_CONFIDENCE}) are remembered for reuse; doubtful ones are not, so they are never copied.
     */
    public static final int REMEMBER_CONFIDENCE = 75;

    /** Cells are fingerprinted as this many x this many block means, to notice a changed cell cheaply. */
    public static final int FINGERPRINT_SIDE = 8;

    /**
     * A cell is read again when a fingerprint block moved by more than this (of 255) since its last
     * reading. On an H.264 test video (9x9 at 480 px) unchanged cells moved at most 12 between frames
     * and a digit appearing at least 119; 40 sits well between, with room for a pixel of grid jitter.
     */
    public static final int CELL_CHANGE = 40;

    /**
     * Cells are read inside their lines, a further 6% of the cell pitch in from each line's edge, to
     * stay clear of anti-aliasing and blur around the lines; printed digits keep a wider margin.
     */
    public static final double CELL_INSET = 0.06;

    private SudokuThresholds() {
    }
}
