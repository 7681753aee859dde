package io.mmgr.stream.tasks.sudoku;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One Tesseract engine per test class (opening one loads the model: about a second). */
abstract class WithDigitOcr {

    static DigitOcr ocr;

    @BeforeAll
    static void openOcr() {
        ocr = DigitOcr.open();
    }

    @AfterAll
    static void closeOcr() {
        ocr.close();
    }
}
