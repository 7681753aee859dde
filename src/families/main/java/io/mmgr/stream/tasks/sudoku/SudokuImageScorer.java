package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.GridException;
import io.mmgr.stream.vision.RgbImage;
import java.util.LinkedHashMap;
import java.util.Map;

/** Scores an image output: every metric on the one grid read from it; Action Reflection is N/A. */
public final class SudokuImageScorer {

    private SudokuImageScorer() {
    }

    public static SudokuScore score(SudokuPuzzle puzzle, RgbImage image, DigitOcr ocr) throws GridException {
        SudokuGridReader reader = new SudokuGridReader(puzzle.size(), ocr);
        int[] read = reader.read(image);
        int[] digits = SudokuGridReader.digits(read);
        Map<String, String> diagnostics = new LinkedHashMap<>();
        diagnostics.put("cells_ocr", Integer.toString(reader.glyphsRead()));
        diagnostics.put("ocr_calls", Integer.toString(reader.ocrCalls()));
        diagnostics.put("unreadable_cells", Integer.toString(count(read, SudokuGridReader.INVALID)));
        return new SudokuScore(
                SudokuRules.cluesChanged(puzzle, digits),
                SudokuRules.constraintViolation(digits, puzzle.size()),
                SudokuRules.completionAccuracy(puzzle, digits),
                null,
                SudokuGridReader.format(read),
                diagnostics);
    }

    static int count(int[] values, int v) {
        int n = 0;
        for (int x : values) {
            if (x == v) {
                n++;
            }
        }
        return n;
    }
}
