package io.mmgr.stream.tasks.sudoku;

import java.util.Random;

/** Fixture puzzles, fixed by seed so every run tests the same grids. */
final class Puzzles {

    private Puzzles() {
    }

    static SudokuPuzzle of(int size, SudokuBand band, long seed) {
        return SudokuGenerator.generate(size, band, new Random(seed));
    }
}
