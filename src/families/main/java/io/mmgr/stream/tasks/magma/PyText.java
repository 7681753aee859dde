package io.mmgr.stream.tasks.magma;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The few Python 3 {@code str} operations VisualWebBench's scoring depends on, with Python's
 * semantics rather than Java's: lengths count code points, not UTF-16 units, and {@code str.split()}
 * splits on Python's whitespace ({@code str.isspace}), which differs from {@link Character#isWhitespace}
 * (Python includes U+00A0, U+2007 and U+202F and U+0085; neither includes U+200B).
 */
final class PyText {

    private PyText() {
    }

    /** {@code len(s)}: code points; a lone surrogate counts as one, as in Python. */
    static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    /** Python 3's {@code str.isspace()} for one code point (CPython's {@code _PyUnicode_IsWhitespace}). */
    static boolean isSpace(int cp) {
        return switch (cp) {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680,
                    0x2028, 0x2029, 0x202F, 0x205F, 0x3000 -> true;
            default -> cp >= 0x2000 && cp <= 0x200A;
        };
    }

    /** {@code s.split()}: runs of whitespace separate, leading and trailing whitespace gives no empty piece. */
    static List<String> splitWhitespace(String s) {
        List<String> out = new ArrayList<>();
        int start = -1;
        int i = 0;
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            if (isSpace(cp)) {
                if (start >= 0) {
                    out.add(s.substring(start, i));
                    start = -1;
                }
            } else if (start < 0) {
                start = i;
            }
            i += Character.charCount(cp);
        }
        if (start >= 0) {
            out.add(s.substring(start));
        }
        return out;
    }

    /** {@code s.split(sep)} for a one-character separator: every occurrence splits, empty pieces kept. */
    static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == sep) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    /** {@code s.upper()} (full case mapping: one character may become several, e.g. 'ß' to "SS"). */
    static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }
}
