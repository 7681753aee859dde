package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each branch and odd case of VisualWebBench's parse_multi_choice_response (utils/eval_utils.py @ ec8feda),
 * with the answer the Python function returns for it read off the code, and the index the choice tasks
 * derive from it (ord(answer) - ord('A') for A-Z, else -1).
 */
@Tag("unit")
class MultiChoiceParserTest {

    static void parses(String response, String answer, int index) {
        MultiChoiceParser.Parsed p = MultiChoiceParser.parse(response);
        assertThat(p.answer()).as("answer of %s", response).isEqualTo(answer);
        assertThat(p.index()).as("index of %s", response).isEqualTo(index);
    }

    @Test
    void oneCharacterIsUpperCasedAndTakenAsIs() {
        parses("b", "B", 1);
        parses("H", "H", 7);
        parses("a", "A", 0);
        // letters past H keep their place in the alphabet: never a valid option
        parses("I", "I", 8);
        parses("z", "Z", 25);
        parses("1", "1", -1);
        parses(" ", " ", -1);
        // 'ß'.upper() is "SS": ord() of two characters raises, the bare except gives -1
        parses("ß", "SS", -1);
        // one code point, two UTF-16 units: still a one-character response in Python
        parses("\uD83D\uDE00", "\uD83D\uDE00", -1);
    }

    @Test
    void anEmptyResponseIsLowerCaseANotOptionA() {
        parses("", "a", -1);
    }

    @Test
    void aLeadingCapitalAndFullStopWinsWhateverFollows() {
        parses("A.", "A", 0);
        parses("C.D", "C", 2);
        parses("I. think (B)", "I", 8);
        parses("E. The second option is (B)", "E", 4);
        // a lower-case letter does not take this branch
        parses("b. c", "z", -1);
    }

    @Test
    void bracketedLettersComeFirstAndTheLastOneMentionedWins() {
        parses("(A) or (B)", "B", 1);
        parses("(B) is better than (A)", "A", 0);
        // a bracketed candidate hides letters standing alone
        parses("(A) B", "A", 0);
        parses("The answer is (C).", "C", 2);
        // choices stop at H, and lower case never counts here
        parses("The answer is (I)", "z", -1);
        parses("(b)", "z", -1);
    }

    @Test
    void aLetterStandingAloneNeedsPlainSpacesAroundIt() {
        parses("The answer is B", "B", 1);
        parses("Option E", "E", 4);
        parses("Answer: B", "B", 1);
        // the quotes and ! are removed before the search
        parses("'B'", "B", 1);
        parses("B!", "B", 1);
        // the article "A" is a candidate too; the later letter wins
        parses("A button labelled C", "C", 2);
        parses("C is a button", "C", 2);
        // a newline or tab next to the letter is not a space: nothing is found
        parses("Answer:\nB", "z", -1);
        parses("B\n", "z", -1);
        parses("\tB", "z", -1);
        // nor is a bracket on one side only
        parses("B)", "z", -1);
    }

    @Test
    void nothingRecognisableIsNoAnswer() {
        parses("I cannot tell", "z", -1);
        parses("AB", "z", -1);
    }
}
