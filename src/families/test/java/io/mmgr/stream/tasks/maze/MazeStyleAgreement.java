package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.tasks.FrameBudget;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.VideoDecoder;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Scores one corpus case the way {@code eval maze} does (the reference read from its problem and
 * solution images only) and compares the pixel gate's verdict with the known one. JPEG styles go
 * through the encoder and decoder; PNGs are lossless, so their pixels are used as drawn (the decoder
 * has its own tests) and the corpus stays quick to run.
 */
final class MazeStyleAgreement {

    private MazeStyleAgreement() {
    }

    /** What one case came to: whether the reference read back as drawn, and the gate's verdict. */
    record Outcome(MazeAnswerCorpus.Case c, boolean referenceRead, String referenceProblem, Boolean passed,
                   List<String> failed) {

        boolean agrees() {
            return referenceRead && passed != null && passed == c.passes();
        }

        @Override
        public String toString() {
            return c.id() + " (" + c.problem().rows() + "x" + c.problem().cols() + ", reference "
                    + (c.referenceStyle() == null ? "benchmark" : "styled") + "): "
                    + (referenceRead ? "gate " + passed + " failing " + failed + ", expected " + c.passes()
                    : "reference not read: " + referenceProblem);
        }
    }

    static Outcome score(MazeAnswerCorpus.Case c, Path videoDir) {
        MazeProblem p = c.problem();
        MazeReference ref;
        try {
            MazeCanvas problem = MazeCanvas.of(c.reference(false), p.rows(), p.cols());
            MazeCanvas solution = MazeCanvas.ofSolution(c.reference(true), p.rows(), p.cols());
            ref = MazeReference.build(null, null, problem, solution, p.rows(), p.cols());
        } catch (MazeReferenceException | MediaException e) {
            return new Outcome(c, false, e.getMessage(), null, List.of());
        }
        if (!ref.lattice().equals(p.lattice()) || !ref.solution().equals(p.solution())) {
            return new Outcome(c, false, "read " + (ref.lattice().equals(p.lattice()) ? "the lattice right" : "another lattice")
                    + " and " + (ref.solution().equals(p.solution()) ? "the solution right" : "another solution " + ref.solution()), null, List.of());
        }
        MazeMetrics m;
        try {
            m = c.video() ? video(c, ref, videoDir) : MazeImageScorer.score(ref, MazeCanvas.of(c.image(), p.rows(), p.cols()));
        } catch (MediaException | MazeReferenceException e) {
            throw new IllegalStateException(c.id() + ": " + e.getMessage(), e);
        }
        var gate = MazeEvaluatorItems.gate(c.video() ? "video" : "image", m.asMap());
        return new Outcome(c, true, null, gate.primary() != null && gate.primary() == 1.0, gate.failedChecks());
    }

    private static MazeMetrics video(MazeAnswerCorpus.Case c, MazeReference ref, Path dir)
            throws MediaException, MazeReferenceException {
        Path file = dir.resolve(c.id() + ".mp4");
        c.writeVideo(file, VideoEncoder.Container.MP4);
        MazeVideoScorer scorer = new MazeVideoScorer(ref, c.markers().roles());
        VideoDecoder.sample(file, FrameBudget.WAN, VideoDecoder.Limits.DEFAULT, (i, f) -> scorer.accept(f));
        try {
            Files.deleteIfExists(file);
        } catch (java.io.IOException ignored) {
            // a temp directory, cleaned up by JUnit anyway
        }
        return scorer.finish();
    }

    /**
     * Scores one case of maze-dataset's look the way {@code eval maze --maze} does: the reference is the
     * maze's structure alone, placed as the video shows it, with the case's marker roles (or none).
     *
     * @return {verdict agrees with the known one, gate passed}, and the failed checks for messages
     */
    static PlotOutcome scorePlot(MazePlotCorpus.Case c, Path dir) {
        MazeProblem p = c.problem();
        Path file = dir.resolve(c.id() + ".mp4");
        try {
            MazeReference ref = MazeReference.build(p.lattice(), p.solution(), null, null, p.rows(), p.cols());
            c.writeVideo(file);
            MazeVideoScorer scorer = new MazeVideoScorer(ref, c.roles());
            VideoDecoder.sampleCodes(file, FrameBudget.WAN, VideoDecoder.Limits.DEFAULT, MazePalette.lut(),
                    MazeCanvas::codeBuffer, (i, f) -> scorer.accept(f));
            MazeMetrics m = scorer.finish();
            var gate = MazeEvaluatorItems.gate("video", m.asMap());
            return new PlotOutcome(c, true, null, gate.primary() != null && gate.primary() == 1.0, gate.failedChecks(),
                    scorer.orientation(), scorer.agentColour());
        } catch (MazeReferenceException e) {
            return new PlotOutcome(c, false, e.getMessage(), null, List.of(), null, null);
        } catch (MediaException e) {
            throw new IllegalStateException(c.id() + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (java.io.IOException ignored) {
                // a temp directory, cleaned up by JUnit anyway
            }
        }
    }

    /** What one case of maze-dataset's look came to, with the orientation and agent the scorer found. */
    record PlotOutcome(MazePlotCorpus.Case c, boolean referenceRead, String referenceProblem, Boolean passed,
                       List<String> failed, MazeOrientation orientation, String agent) {

        boolean agrees() {
            return referenceRead && passed != null && passed == c.passes();
        }

        @Override
        public String toString() {
            return c.id() + " (" + c.problem().rows() + "x" + c.problem().cols() + ", roles " + (c.rolesGiven() ? "named" : "found")
                    + "): " + (referenceRead ? "gate " + passed + " failing " + failed + ", expected " + c.passes()
                    + ", placed " + orientation + ", agent " + agent : "reference refused: " + referenceProblem);
        }
    }

    /** The table's row for maze-dataset's look. */
    static String plotRow(List<PlotOutcome> outcomes) {
        long right = outcomes.stream().filter(o -> o.c().passes()).count();
        long read = outcomes.stream().filter(PlotOutcome::referenceRead).count();
        long agree = outcomes.stream().filter(PlotOutcome::agrees).count();
        return String.format(Locale.ROOT, "| %-36s | %5d | %5d | %6d | %4d / %3d | %8.1f%% |%n", outcomes.get(0).c().markers().style(),
                outcomes.size(), right, outcomes.size() - right, read, outcomes.size(), 100.0 * agree / outcomes.size());
    }

    /** Per style: cases, right and faulty answers, references misread, verdicts agreeing. */
    static String table(List<List<Outcome>> byStyle) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "| %-36s | %5s | %5s | %6s | %10s | %9s |%n", "style", "cases", "right", "faulty",
                "refs read", "agreement"));
        sb.append("|").append("-".repeat(38)).append("|-------|-------|--------|------------|-----------|\n");
        for (List<Outcome> outcomes : byStyle) {
            long right = outcomes.stream().filter(o -> o.c().passes()).count();
            long read = outcomes.stream().filter(Outcome::referenceRead).count();
            long agree = outcomes.stream().filter(Outcome::agrees).count();
            sb.append(String.format(Locale.ROOT, "| %-36s | %5d | %5d | %6d | %4d / %3d | %8.1f%% |%n",
                    outcomes.get(0).c().styleName(), outcomes.size(), right, outcomes.size() - right, read,
                    outcomes.size(), 100.0 * agree / outcomes.size()));
        }
        return sb.toString();
    }

    /** One line per case: its id, whether the reference read, the gate's verdict and the checks it failed. */
    static void writeVerdicts(List<List<Outcome>> byStyle, Path file) {
        List<String> lines = new ArrayList<>();
        byStyle.forEach(l -> l.forEach(o -> lines.add(o.c().styleName() + " " + o.c().id() + " read=" + o.referenceRead()
                + " passed=" + o.passed() + " failed=" + o.failed())));
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, lines);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** As {@link #writeVerdicts}, for maze-dataset's look: id, reference placed, verdict, failed checks, agent. */
    static void writePlotVerdicts(List<PlotOutcome> outcomes, Path file) {
        List<String> lines = new ArrayList<>();
        outcomes.forEach(o -> lines.add(o.c().markers().style() + " " + o.c().id() + " read=" + o.referenceRead()
                + " passed=" + o.passed() + " failed=" + o.failed() + " agent=" + o.agent()));
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, lines);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static List<Outcome> disagreements(List<List<Outcome>> byStyle) {
        List<Outcome> out = new ArrayList<>();
        byStyle.forEach(l -> l.stream().filter(o -> !o.agrees()).forEach(out::add));
        return out;
    }
}
