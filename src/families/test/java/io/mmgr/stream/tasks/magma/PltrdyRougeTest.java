package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ROUGE as the rouge package 1.0.1 computes it, on strings whose counts are worked out by hand from
 * reading rouge/rouge.py and rouge/rouge_score.py (pltrdy/rouge @ 657d4d2). Every expected F is written
 * with the package's formula 2 * ((p * r) / (p + r + 1e-8)) from those counts, so the comparisons are exact.
 */
@Tag("unit")
class PltrdyRougeTest {

    static double f(double p, double r) {
        return 2.0 * ((p * r) / (p + r + 1e-8));
    }

    @Test
    void countsDistinctNgramsAndDistinctWords() {
        // hyp unigrams {the, cat, sat}; ref {the, cat, sat, on, mat}: "the" twice counts once
        PltrdyRouge.Scores s = PltrdyRouge.scores("the cat sat", "the cat sat on the mat");
        assertThat(s.rouge1()).isEqualTo(new PltrdyRouge.Prf(1.0, 3 / 5.0, f(1.0, 3 / 5.0)));
        // bigrams {the cat, cat sat} against {the cat, cat sat, sat on, on the, the mat}
        assertThat(s.rouge2()).isEqualTo(new PltrdyRouge.Prf(1.0, 2 / 5.0, f(1.0, 2 / 5.0)));
        // the LCS "the cat sat": 3 distinct words over 5 distinct reference words, 3 hypothesis words
        assertThat(s.rougeL()).isEqualTo(new PltrdyRouge.Prf(1.0, 3 / 5.0, f(1.0, 3 / 5.0)));
        // which is 74.99999953125 on the 0-100 scale
        assertThat(s.rouge1().f() * 100).isEqualTo(74.99999953125);
    }

    @Test
    void aPerfectMatchStopsJustBelowOne() {
        PltrdyRouge.Scores s = PltrdyRouge.scores("a b", "a b");
        assertThat(s.rouge1().f()).isEqualTo(2.0 / (2.0 + 1e-8)).isEqualTo(0.999999995).isLessThan(1.0);
        assertThat(s.rouge2().f()).isEqualTo(0.999999995);
        assertThat(s.rougeL().f()).isEqualTo(0.999999995);
    }

    @Test
    void repeatedWordsDoNotCountTwice() {
        // exclusive=True: "a a a" is the set {a}, so precision is 1, not 1/3
        PltrdyRouge.Scores s = PltrdyRouge.scores("a a a", "a");
        assertThat(s.rouge1()).isEqualTo(new PltrdyRouge.Prf(1.0, 1.0, f(1.0, 1.0)));
        // the hypothesis has the bigram {a a}, the reference none: p = 0/1, r = 0 (no reference bigram)
        assertThat(s.rouge2()).isEqualTo(new PltrdyRouge.Prf(0.0, 0.0, 0.0));
    }

    @Test
    void fullStopsSplitSentencesButBigramsRunAcrossThem() {
        // "a. b" is the sentences [a, b], whose words are concatenated: the bigram (a, b) exists
        PltrdyRouge.Scores s = PltrdyRouge.scores("a. b", "a b");
        assertThat(s.rouge2()).isEqualTo(new PltrdyRouge.Prf(1.0, 1.0, f(1.0, 1.0)));
        // ROUGE-L: LCS(a b | a) = {a}, LCS(a b | b) = {b}, union of 2 over 2 and 2
        assertThat(s.rougeL()).isEqualTo(new PltrdyRouge.Prf(1.0, 1.0, f(1.0, 1.0)));
        assertThat(PltrdyRouge.sentences("a..b. ")).containsExactly("a", "b", "");
    }

    @Test
    void caseAndPunctuationOtherThanTheFullStopAreKept() {
        // [Hello,, world] against [hello, world]: only "world" is shared
        PltrdyRouge.Scores s = PltrdyRouge.scores("Hello, world", "hello world");
        assertThat(s.rouge1()).isEqualTo(new PltrdyRouge.Prf(0.5, 0.5, f(0.5, 0.5)));
        assertThat(s.rougeL()).isEqualTo(new PltrdyRouge.Prf(0.5, 0.5, f(0.5, 0.5)));
    }

    @Test
    void whitespaceIsPythonsNotJavas() {
        // str.split() splits at NO-BREAK SPACE (Java's isWhitespace does not) but not at ZERO WIDTH SPACE
        assertThat(PltrdyRouge.scores("a\u00a0b", "a b").rouge2().f()).isEqualTo(f(1.0, 1.0));
        assertThat(PltrdyRouge.scores("a\u2007b\u202fc", "a b c").rouge1().f()).isEqualTo(f(1.0, 1.0));
        assertThat(PltrdyRouge.scores("a\u200bb", "a b").rouge1().f()).isEqualTo(0.0);
        assertThat(PyText.splitWhitespace("\u3000 x\t\u0085y\u001c")).containsExactly("x", "y");
    }

    @Test
    void aSentenceOfOnlySpacesIsAnEmptyTokenThatCanMatch() {
        // " " is the one sentence "" (pieces are dropped only when empty before normalising), i.e. the token "";
        // "x. ." is the sentences [x, ""], words {x, ""}: the empty tokens match
        PltrdyRouge.Scores s = PltrdyRouge.scores(" ", "x. .");
        assertThat(s.rouge1()).isEqualTo(new PltrdyRouge.Prf(1.0, 0.5, f(1.0, 0.5)));
        assertThat(s.rouge1().f()).isEqualTo(0.6666666622222223);
        // one hypothesis token has no bigram: p = 0; the reference bigram (x, "") is not matched: r = 0
        assertThat(s.rouge2()).isEqualTo(new PltrdyRouge.Prf(0.0, 0.0, 0.0));
        assertThat(s.rougeL()).isEqualTo(new PltrdyRouge.Prf(1.0, 0.5, f(1.0, 0.5)));
        // against a reference without an empty sentence the space scores nothing
        assertThat(PltrdyRouge.scores(" ", "Home page").rougeL().f()).isEqualTo(0.0);
    }

    @Test
    void theLcsTheTracebackPicksDecidesTheUnion() {
        // reference sentence [a, b]; hypothesis sentences [b, a] and [a]. LCS([a, b], [b, a]) has length 1 and the
        // package's traceback (no match at the end, table[i-1][j] > table[i][j-1] is 1 > 1, false: step back in the
        // hypothesis) takes "b"; the second sentence adds "a": union {a, b}, 2 of 2 and 2 of 2.
        assertThat(PltrdyRouge.lcsTokens(List.of("a", "b"), List.of("b", "a"))).containsExactly("b");
        assertThat(PltrdyRouge.scores("b a. a", "a b").rougeL()).isEqualTo(new PltrdyRouge.Prf(1.0, 1.0, f(1.0, 1.0)));
        // had it taken "a" (a tie-break the other way), the union would be {a}: recall and precision 1/2
        assertThat(PltrdyRouge.lcsTokens(List.of("b", "a"), List.of("a", "b"))).containsExactly("a");
    }

    @Test
    void nothingLeftAfterTheSplitRaisesAsThePackageDoes() {
        for (String empty : List.of("", ".", "...")) {
            assertThatThrownBy(() -> PltrdyRouge.scores(empty, "a b"))
                    .isInstanceOf(PltrdyRouge.RougeException.class).hasMessage("Hypothesis is empty.");
        }
        assertThatThrownBy(() -> PltrdyRouge.scores("a b", ".."))
                .isInstanceOf(PltrdyRouge.RougeException.class).hasMessage("Reference is empty.");
        // " " survives the split (one empty sentence), which is why VisualWebBench substitutes it for ""
        assertThat(PltrdyRouge.sentences(" ")).containsExactly("");
    }

    @Test
    void anAbsurdlyLongSentencePairIsRefusedInsteadOfExhaustingMemory() {
        String longText = "w ".repeat(5000);
        assertThatThrownBy(() -> PltrdyRouge.scores(longText, longText))
                .isInstanceOf(PltrdyRouge.RougeException.class).hasMessageContaining("too long");
        // long but within the bound: scored
        assertThat(PltrdyRouge.scores("w ".repeat(2000), "w").rouge1().f()).isEqualTo(f(1.0, 1.0));
    }
}
