package io.mmgr.stream.tasks.magma;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * ROUGE-1, ROUGE-2 and ROUGE-L of one hypothesis against one reference exactly as the {@code rouge}
 * package 1.0.1 (pltrdy/rouge, tag 1.0.1, commit 657d4d2f61892fb6c5aaf8796e93ebd3ed88e857,
 * {@code rouge/rouge.py} and {@code rouge/rouge_score.py}) computes them with its defaults
 * ({@code Rouge(metrics=...)}: {@code exclusive=True}); VisualWebBench pins that version
 * (VisualWebBench/VisualWebBench {@code requirements.txt}: {@code rouge==1.0.1}). Reimplemented
 * from reading that code; its behaviour, including the unusual parts, is kept:
 *
 * <ul>
 *   <li><b>Sentences:</b> the text is split on every {@code '.'}; pieces of length 0 are dropped
 *       <em>before</em> whitespace is normalised, so a piece of only spaces survives as an empty
 *       sentence {@code ""}. Each kept piece becomes {@code " ".join(piece.split())} (Python whitespace).</li>
 *   <li><b>Tokens:</b> each sentence is split on a single space, so the empty sentence yields one empty
 *       token {@code ""}, which counts (and can match an empty token of the other side). Nothing is
 *       lower-cased, stemmed or stripped of punctuation other than {@code '.'}.</li>
 *   <li><b>Empty input raises:</b> no sentence left (e.g. {@code ""}, {@code "."}, {@code "..."}) is a
 *       {@code ValueError}: "Hypothesis is empty." / "Reference is empty." from ROUGE-N, which runs
 *       first. This is why VisualWebBench replaces empty predictions by {@code " "}.</li>
 *   <li><b>ROUGE-N</b> counts <em>distinct</em> n-grams (sets, {@code exclusive=True}) over all sentences'
 *       tokens concatenated, so n-grams span sentence boundaries. P = overlap / hyp n-grams (0 when none),
 *       R = overlap / ref n-grams (0 when none).</li>
 *   <li><b>ROUGE-L</b> is the summary-level union LCS, also with sets: for every reference sentence and
 *       every hypothesis sentence the package reconstructs one particular LCS (its own traceback order,
 *       which matters because only distinct tokens count), and the distinct tokens of all of them form
 *       one union; P = |union| / distinct hypothesis tokens, R = |union| / distinct reference tokens.</li>
 *   <li><b>F</b> = 2 P R / (P + R + 1e-8) for all three, so a perfect match scores 0.999999995.</li>
 * </ul>
 *
 * <p>Not reproduced: the package's traceback is recursive, so a sentence pair whose LCS traceback takes
 * more than about a thousand steps raises Python's {@code RecursionError} (the exact point depends on the
 * caller's stack depth and the Python version). Here any length is scored, up to {@link #MAX_LCS_CELLS}
 * cells of the LCS table per sentence pair, a memory bound far beyond that point.
 */
final class PltrdyRouge {

    /** Largest LCS table (reference tokens x hypothesis tokens of one sentence pair) we build. */
    static final long MAX_LCS_CELLS = 16_000_000L;

    private PltrdyRouge() {
    }

    /** P, R and F of one ROUGE variant. */
    record Prf(double p, double r, double f) {
    }

    /** The three variants VisualWebBench asks for. */
    record Scores(Prf rouge1, Prf rouge2, Prf rougeL) {
    }

    /** What the package raises; the message is the package's own where it has one. */
    static final class RougeException extends IllegalArgumentException {
        RougeException(String message) {
            super(message);
        }
    }

    /** {@code Rouge(metrics=['rouge-1', 'rouge-2', 'rouge-l']).get_scores([hyp], [ref])[0]}. */
    static Scores scores(String hypothesis, String reference) {
        List<String> hyp = sentences(hypothesis);
        List<String> ref = sentences(reference);
        return new Scores(rougeN(hyp, ref, 1), rougeN(hyp, ref, 2), rougeL(hyp, ref));
    }

    /** {@code Rouge(metrics=['rouge-1']).get_scores([hyp], [ref])[0]['rouge-1']}. */
    static Prf rouge1(String hypothesis, String reference) {
        return rougeN(sentences(hypothesis), sentences(reference), 1);
    }

    /** rouge.py {@code _get_scores}: {@code [" ".join(_.split()) for _ in text.split(".") if len(_) > 0]}. */
    static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (String piece : PyText.split(text, '.')) {
            if (!piece.isEmpty()) {
                out.add(String.join(" ", PyText.splitWhitespace(piece)));
            }
        }
        return out;
    }

    /** rouge_score.py {@code _split_into_words}: each sentence split on one space, flattened. */
    static List<String> words(List<String> sentences) {
        List<String> out = new ArrayList<>();
        for (String s : sentences) {
            out.addAll(PyText.split(s, ' '));
        }
        return out;
    }

    static Prf rougeN(List<String> hyp, List<String> ref, int n) {
        if (hyp.isEmpty()) {
            throw new RougeException("Hypothesis is empty.");
        }
        if (ref.isEmpty()) {
            throw new RougeException("Reference is empty.");
        }
        Set<List<String>> hypGrams = ngrams(words(hyp), n);
        Set<List<String>> refGrams = ngrams(words(ref), n);
        int overlap = 0;
        for (List<String> g : hypGrams) {
            if (refGrams.contains(g)) {
                overlap++;
            }
        }
        double p = hypGrams.isEmpty() ? 0.0 : overlap / (double) hypGrams.size();
        double r = refGrams.isEmpty() ? 0.0 : overlap / (double) refGrams.size();
        return new Prf(p, r, f(p, r));
    }

    private static Set<List<String>> ngrams(List<String> tokens, int n) {
        Set<List<String>> out = new HashSet<>();
        for (int i = 0; i + n <= tokens.size(); i++) {
            out.add(List.copyOf(tokens.subList(i, i + n)));
        }
        return out;
    }

    static Prf rougeL(List<String> hyp, List<String> ref) {
        if (hyp.isEmpty() || ref.isEmpty()) {
            throw new RougeException("Collections must contain at least 1 sentence.");
        }
        int m = new HashSet<>(words(ref)).size();
        int n = new HashSet<>(words(hyp)).size();
        Set<String> union = new HashSet<>();
        for (String refSentence : ref) {
            List<String> refWords = PyText.split(refSentence, ' ');
            for (String hypSentence : hyp) {
                union.addAll(lcsTokens(refWords, PyText.split(hypSentence, ' ')));
            }
        }
        double r = union.size() / (double) m;
        double p = union.size() / (double) n;
        return new Prf(p, r, f(p, r));
    }

    /**
     * The tokens of the LCS that rouge_score.py {@code _recon_lcs(x, y)} reconstructs: walking back from
     * the end, take a match; otherwise step up in x only when that keeps a strictly longer LCS, else step
     * back in y. (Iterative here; the package recurses.)
     */
    static List<String> lcsTokens(List<String> x, List<String> y) {
        int n = x.size();
        int m = y.size();
        if ((long) (n + 1) * (m + 1) > MAX_LCS_CELLS) {
            throw new RougeException("a sentence pair of " + n + " x " + m + " tokens is too long to score (at most "
                    + MAX_LCS_CELLS + " LCS cells; the official package's recursive LCS fails on far shorter ones)");
        }
        int[][] table = new int[n + 1][m + 1];
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= m; j++) {
                table[i][j] = x.get(i - 1).equals(y.get(j - 1)) ? table[i - 1][j - 1] + 1
                        : Math.max(table[i - 1][j], table[i][j - 1]);
            }
        }
        List<String> out = new ArrayList<>();
        int i = n;
        int j = m;
        while (i > 0 && j > 0) {
            if (x.get(i - 1).equals(y.get(j - 1))) {
                out.add(x.get(i - 1));
                i--;
                j--;
            } else if (table[i - 1][j] > table[i][j - 1]) {
                i--;
            } else {
                j--;
            }
        }
        return out;
    }

    /** {@code 2.0 * ((p * r) / (p + r + 1e-8))}, in the package's order of operations. */
    private static double f(double p, double r) {
        return 2.0 * ((p * r) / (p + r + 1e-8));
    }
}
