package io.mmgr.stream.tasks.magma;

import java.util.ArrayList;
import java.util.List;

/**
 * VisualWebBench's multiple-choice answer parser, {@code parse_multi_choice_response} with choices
 * A-H, and the index mapping its three choice tasks apply to the result, as in
 * VisualWebBench/VisualWebBench {@code utils/eval_utils.py} (commit ec8feda582c091cff0cc33f39411c092e8f95492;
 * {@code eval_action_prediction}, {@code eval_element_ground}, {@code eval_action_ground}). In order:
 *
 * <ol>
 *   <li>a response of exactly one character (code point) is upper-cased and taken as the answer:
 *       {@code "b"} is B, but {@code "I"} or {@code "z"} is a letter past H, and {@code "ß"} upper-cases
 *       to two characters, which the index mapping cannot read (no answer);</li>
 *   <li>an empty response gives {@code 'a'}, which is not an upper-case letter: no answer (never option A);</li>
 *   <li>a response that <em>starts</em> with an upper-case ASCII letter and a full stop gives that letter,
 *       whatever follows ({@code "I. think (B)"} is I, not B);</li>
 *   <li>otherwise the characters {@code , . ! ? ; : ' "} are removed, a space is added at both ends, and the
 *       candidates are the choices written as {@code (X)}; only when there is none, the choices standing
 *       alone between two plain spaces ({@code " X "}: a letter next to a newline, tab or bracket does not
 *       count, the article "A" does). Several candidates: the one whose last occurrence is latest.
 *       None: {@code 'z'}, i.e. no answer. Lower-case letters never count here.</li>
 * </ol>
 *
 * The answer's index is {@code ord(letter) - ord('A')} for A-Z (so I..Z give 8..25, never a valid
 * option) and -1 otherwise; a sample is correct when the index equals the gold index.
 */
final class MultiChoiceParser {

    /** VisualWebBench offers up to eight options, A-H. */
    static final int CHOICES = 8;
    private static final String STRIPPED = ",.!?;:'\"";

    private MultiChoiceParser() {
    }

    /** The parser's answer (a letter, or {@code a} / {@code z} / several characters when it found none) and its index. */
    record Parsed(String answer, int index) {
    }

    static Parsed parse(String response) {
        String answer = answer(response);
        return new Parsed(answer, index(answer));
    }

    /** {@code parse_multi_choice_response(response, ['A', ..., 'H'])}. */
    static String answer(String response) {
        if (PyText.length(response) == 1) {
            return PyText.upper(response);
        }
        if (response.isEmpty()) {
            return "a";
        }
        if (response.length() >= 2 && response.charAt(0) >= 'A' && response.charAt(0) <= 'Z' && response.charAt(1) == '.') {
            return response.substring(0, 1);
        }
        StringBuilder cleaned = new StringBuilder(response.length() + 2).append(' ');
        for (int i = 0; i < response.length(); i++) {
            char c = response.charAt(i);
            if (STRIPPED.indexOf(c) < 0) {
                cleaned.append(c);
            }
        }
        String text = cleaned.append(' ').toString();

        List<String> candidates = new ArrayList<>();
        boolean bracketed = false;
        for (int c = 0; c < CHOICES; c++) {
            String choice = String.valueOf((char) ('A' + c));
            if (text.contains("(" + choice + ")")) {
                candidates.add(choice);
                bracketed = true;
            }
        }
        if (candidates.isEmpty()) {
            for (int c = 0; c < CHOICES; c++) {
                String choice = String.valueOf((char) ('A' + c));
                if (text.contains(" " + choice + " ")) {
                    candidates.add(choice);
                }
            }
        }
        if (candidates.isEmpty()) {
            return "z";
        }
        // np.argmax over the last positions: the first candidate wins a tie (none can occur: distinct letters)
        String best = candidates.get(0);
        int bestAt = Integer.MIN_VALUE;
        for (String choice : candidates) {
            int at = text.lastIndexOf(bracketed ? "(" + choice + ")" : " " + choice + " ");
            if (at > bestAt) {
                best = choice;
                bestAt = at;
            }
        }
        return best;
    }

    /** {@code ord(cur_pred) - ord('A')} when {@code 'A' <= cur_pred <= 'Z'}, else -1 (also when ord() fails on several characters). */
    static int index(String answer) {
        if (answer.length() != 1) {
            return -1;
        }
        char c = answer.charAt(0);
        return c >= 'A' && c <= 'Z' ? c - 'A' : -1;
    }
}
