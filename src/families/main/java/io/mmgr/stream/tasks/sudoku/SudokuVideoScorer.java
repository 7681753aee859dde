package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.GridException;
import io.mmgr.stream.vision.RgbImage;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Scores a video output frame by frame (seed D.4.2): Clues Changed if any clue differs in any frame;
 * Constraint Violation and Completion Accuracy on the final frame; Action Reflection by the seed's
 * gradual-filling rule. Frames in which no grid is found (a fade, a cut) are skipped and counted.
 *
 * <p>Action Reflection: a frame's updates are the cells whose digit (or emptiness) differs from the
 * previous analysed frame, the first frame being compared with the posed puzzle; the "average ... per
 * frame" is their mean over all analysed frames, and a frame is "active" when it has any update. The
 * seed gives the three thresholds ({@link SudokuThresholds}) but not these counting details.
 */
public final class SudokuVideoScorer {

    private final SudokuPuzzle puzzle;
    private final SudokuGridReader reader;
    private int[] previous;
    private int[] lastRead;
    private boolean clueChanged;
    private int frames;
    private int framesWithoutGrid;
    private GridException lastProblem;
    private long totalUpdates;
    private int maxUpdates;
    private int activeFrames;
    private int firstClueChangeFrame = -1;

    public SudokuVideoScorer(SudokuPuzzle puzzle, DigitOcr ocr) {
        this.puzzle = puzzle;
        this.reader = new SudokuGridReader(puzzle.size(), ocr);
        // updates are counted from the posed puzzle, so a video that opens on a filled grid changed
        // every blank in its first frame
        this.previous = puzzle.givens();
    }

    /** One sampled frame, in stream order. */
    public void accept(int index, RgbImage frame) {
        int[] read;
        try {
            read = reader.read(frame);
        } catch (GridException e) {
            framesWithoutGrid++;
            lastProblem = e;
            return;
        }
        int[] digits = SudokuGridReader.digits(read);
        frames++;
        if (!clueChanged && SudokuRules.cluesChanged(puzzle, digits) == 1.0) {
            clueChanged = true;
            firstClueChangeFrame = index;
        }
        int updates = 0;
        for (int i = 0; i < digits.length; i++) {
            if (digits[i] != previous[i]) {
                updates++;
            }
        }
        totalUpdates += updates;
        maxUpdates = Math.max(maxUpdates, updates);
        if (updates > 0) {
            activeFrames++;
        }
        previous = digits;
        lastRead = read;
    }

    /** The scores; throws when no frame showed the grid. */
    public SudokuScore finish() throws GridException {
        if (frames == 0) {
            if (lastProblem != null) {
                throw new GridException(lastProblem.kind(), "in no frame of the video: " + lastProblem.getMessage());
            }
            throw new GridException(GridException.Kind.NOT_FOUND, "the video has no frames");
        }
        int n = puzzle.size();
        int cells = puzzle.cells();
        double mean = totalUpdates / (double) frames;
        double active = activeFrames / (double) frames;
        double maxMean = n == 4 ? SudokuThresholds.MAX_MEAN_UPDATES_4 : SudokuThresholds.MAX_MEAN_UPDATES_9;
        boolean gradual = mean <= maxMean
                && maxUpdates <= SudokuThresholds.MAX_FRAME_CHANGE * cells
                && active >= SudokuThresholds.MIN_ACTIVE_FRAMES;
        Map<String, String> d = new LinkedHashMap<>();
        d.put("frames_analyzed", Integer.toString(frames));
        d.put("frames_without_grid", Integer.toString(framesWithoutGrid));
        d.put("cells_ocr", Integer.toString(reader.glyphsRead()));
        d.put("ocr_calls", Integer.toString(reader.ocrCalls()));
        d.put("cell_reads", Integer.toString(reader.cellReads()));
        d.put("grid_searches", Integer.toString(reader.gridSearches()));
        d.put("unreadable_cells", Integer.toString(SudokuImageScorer.count(lastRead, SudokuGridReader.INVALID)));
        d.put("mean_updates_per_frame", String.format(Locale.ROOT, "%.3f", mean));
        d.put("max_updates_in_a_frame", Integer.toString(maxUpdates));
        d.put("active_frame_fraction", String.format(Locale.ROOT, "%.3f", active));
        if (firstClueChangeFrame >= 0) {
            d.put("first_clue_change_frame", Integer.toString(firstClueChangeFrame));
        }
        return new SudokuScore(
                clueChanged ? 1.0 : 0.0,
                SudokuRules.constraintViolation(previous, n),
                SudokuRules.completionAccuracy(puzzle, previous),
                gradual ? 1.0 : 0.0,
                SudokuGridReader.format(lastRead),
                d);
    }
}
