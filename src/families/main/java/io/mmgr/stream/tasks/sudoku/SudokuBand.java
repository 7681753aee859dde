package io.mmgr.stream.tasks.sudoku;

import java.util.Locale;

/**
 * Difficulty bands by the number of givens (fewer givens, more to deduce). The seed names no bands;
 * these follow the usual printed-puzzle ranges for 9x9 (easy 36+, hard near the high 20s) and scale
 * down to Shidoku (4x4), whose unique puzzles need at least 4 givens.
 */
public enum SudokuBand {
    EASY(10, 11, 38, 45),
    MEDIUM(7, 9, 30, 37),
    HARD(4, 6, 24, 29);

    private final int minGivens4;
    private final int maxGivens4;
    private final int minGivens9;
    private final int maxGivens9;

    SudokuBand(int minGivens4, int maxGivens4, int minGivens9, int maxGivens9) {
        this.minGivens4 = minGivens4;
        this.maxGivens4 = maxGivens4;
        this.minGivens9 = minGivens9;
        this.maxGivens9 = maxGivens9;
    }

    public int minGivens(int size) {
        return size == 4 ? minGivens4 : minGivens9;
    }

    public int maxGivens(int size) {
        return size == 4 ? maxGivens4 : maxGivens9;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SudokuBand parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown band '" + s + "'; use easy, medium or hard");
        }
    }
}
