package io.mmgr.stream.tasks.sudoku;

/** What is wrong with a rendered answer, and so what its metrics must be (see {@link Scenario}). */
enum Fault {
    /** The solution, clues untouched. */
    CORRECT,
    /** One blank filled with a wrong digit: its row, column and box repeat that digit. */
    ONE_WRONG,
    /** Two blanks of one row, in different boxes, swapped: two columns and two boxes repeat a digit. */
    TWO_SWAPPED,
    /** One clue shows another digit; the blanks are right. */
    CLUE_CHANGED,
    /** Three blanks left empty, the rest right. */
    CELLS_EMPTY,
    /** Nothing filled in: the puzzle as posed. */
    NOTHING_FILLED
}
