package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/**
 * Any reasonable render style reads correctly: for every style in {@link MazeStyles}, a corpus of
 * answers with known verdicts (right answers and every fault: walls crossed, dead ends, detours,
 * altered mazes, moved targets and starts, incomplete and missing paths) over 3x3 to 13x13 mazes, each
 * scored against a reference read from its images alone (half drawn as the benchmark draws them, half
 * in the answer's style). Every reference must read back as drawn (never a hard failure) and the
 * pixel gate must agree with the known verdict on at least 99 % of each style's cases. The
 * per-style table is printed.
 */
@Tag("unit")
class MazeStyleAgreementTest {

    /** Cases per image style: enough that one disagreement in a hundred shows. */
    static final int IMAGE_CASES = 108;
    /** Large canvases cost more to draw and read; their corpus is smaller (one disagreement fails it). */
    static final int LARGE_IMAGE_CASES = 24;
    static final int VIDEO_CASES = 24;
    static final double MIN_AGREEMENT = 0.99;

    @TempDir
    Path dir;

    @Test
    void everyStyleAgreesWithTheKnownVerdicts() {
        List<List<MazeStyleAgreement.Outcome>> images = run(MazeStyles.IMAGE, s -> MazeAnswerCorpus.images(s,
                Math.max(s.width(), s.height()) > 1024 ? LARGE_IMAGE_CASES : IMAGE_CASES, 13));
        List<List<MazeStyleAgreement.Outcome>> videos = run(MazeStyles.VIDEO, s -> MazeAnswerCorpus.videos(s, VIDEO_CASES, 17));
        System.out.println("Maze pixel gate vs known verdicts, per render style (images):\n" + MazeStyleAgreement.table(images));
        System.out.println("Maze pixel gate vs known verdicts, per render style (videos):\n" + MazeStyleAgreement.table(videos));
        List<MazeStyleAgreement.Outcome> wrong = MazeStyleAgreement.disagreements(images);
        wrong.addAll(MazeStyleAgreement.disagreements(videos));
        wrong.forEach(o -> System.out.println("disagrees: " + o));
        // every case's verdict, so a change to the pipeline can be diffed case by case against the last run
        MazeStyleAgreement.writeVerdicts(concat(images, videos), Path.of("target/maze-style-verdicts.txt"));

        for (List<MazeStyleAgreement.Outcome> style : concat(images, videos)) {
            String name = style.get(0).c().style().name();
            assertThat(style).as("%s: every reference reads back as drawn", name)
                    .allMatch(MazeStyleAgreement.Outcome::referenceRead);
            long agree = style.stream().filter(MazeStyleAgreement.Outcome::agrees).count();
            assertThat(agree / (double) style.size()).as("%s: agreement with the known verdicts", name)
                    .isGreaterThanOrEqualTo(MIN_AGREEMENT);
            // the corpus holds both verdicts, so agreement cannot come from always saying the same
            assertThat(style).anyMatch(o -> o.c().passes()).anyMatch(o -> !o.c().passes());
        }
    }

    /** Cases in maze-dataset's look: five of each kind, sizes 3x3 to 8x8, roles named in half of them. */
    static final int PLOT_CASES = 30;

    /**
     * maze-dataset's look as MiniVeo3-Reasoner animates it (row 0 at the bottom, axes, thin walls, a
     * green start disc that stays put, a blue star that walks, a red flag turning into a trophy), each
     * case scored against its maze's structure alone: every structure is placed (row 0 at the bottom),
     * the star is the agent whether the roles are named or found, and the gate agrees with the known
     * verdict on at least 99 % of the cases.
     */
    @Test
    void mazeDatasetsLookAgreesWithTheKnownVerdicts() {
        List<MazeStyleAgreement.PlotOutcome> outcomes = MazePlotCorpus.cases(PLOT_CASES, 29).parallelStream()
                .map(c -> MazeStyleAgreement.scorePlot(c, dir)).toList();
        System.out.println("Maze pixel gate vs known verdicts, maze-dataset's look (videos, structure references):\n"
                + MazeStyleAgreement.table(List.of()) + MazeStyleAgreement.plotRow(outcomes));
        outcomes.stream().filter(o -> !o.agrees()).forEach(o -> System.out.println("disagrees: " + o));
        MazeStyleAgreement.writePlotVerdicts(outcomes, Path.of("target/maze-plot-verdicts.txt"));

        assertThat(outcomes).allMatch(MazeStyleAgreement.PlotOutcome::referenceRead);
        assertThat(outcomes).allMatch(o -> o.orientation() == MazeOrientation.ROW_ZERO_AT_BOTTOM);
        // the star walks in every case but the one where it never moves (then the disc and star both stay)
        assertThat(outcomes).filteredOn(o -> o.c().kind() != MazePlotCorpus.Kind.NEVER_MOVES)
                .allMatch(o -> o.agent().equals("blue"));
        long agree = outcomes.stream().filter(MazeStyleAgreement.PlotOutcome::agrees).count();
        assertThat(agree / (double) outcomes.size()).isGreaterThanOrEqualTo(MIN_AGREEMENT);
        assertThat(outcomes).anyMatch(o -> o.c().passes()).anyMatch(o -> !o.c().passes());
        for (MazePlotCorpus.Kind kind : MazePlotCorpus.Kind.values()) {
            assertThat(outcomes).as("%s cases with roles named and found", kind)
                    .anyMatch(o -> o.c().kind() == kind && o.c().rolesGiven())
                    .anyMatch(o -> o.c().kind() == kind && !o.c().rolesGiven());
        }
    }

    /**
     * Black markers, told apart from the black walls by the maze's structure: in MMGR's own look (every
     * video style, a black agent that is its own start, or a black target) and in maze-dataset's (a black
     * star, or a black flag turning into a black trophy), right answers and every fault, each style at
     * 99 % or more. Slow (204 videos encoded and scored: 300-340 s at load 11-15 on the 2-core machine), as
     * the other video corpora: a style's 24 cases are the fewest in which one disagreement shows.
     */
    @Test
    void blackMarkersAgreeWithTheKnownVerdicts() {
        List<List<MazeStyleAgreement.Outcome>> own = new java.util.ArrayList<>();
        List<List<MazeStyleAgreement.PlotOutcome>> plot = new java.util.ArrayList<>();
        for (MazeAnswerCorpus.Markers m : List.of(MazeAnswerCorpus.Markers.BLACK_AGENT, MazeAnswerCorpus.Markers.BLACK_TARGET)) {
            own.addAll(run(MazeStyles.VIDEO, s -> MazeAnswerCorpus.videos(s, m, VIDEO_CASES, 19)));
        }
        for (MazePlotCorpus.Markers m : List.of(MazePlotCorpus.Markers.BLACK_AGENT, MazePlotCorpus.Markers.BLACK_TARGET)) {
            plot.add(MazePlotCorpus.cases(PLOT_CASES, 31, m).parallelStream()
                    .map(c -> MazeStyleAgreement.scorePlot(c, dir)).toList());
        }
        StringBuilder plotRows = new StringBuilder();
        plot.forEach(p -> plotRows.append(MazeStyleAgreement.plotRow(p)));
        System.out.println("Maze pixel gate vs known verdicts, black markers (videos):\n" + MazeStyleAgreement.table(own)
                + plotRows);
        MazeStyleAgreement.disagreements(own).forEach(o -> System.out.println("disagrees: " + o));
        plot.forEach(p -> p.stream().filter(o -> !o.agrees()).forEach(o -> System.out.println("disagrees: " + o)));
        MazeStyleAgreement.writeVerdicts(own, Path.of("target/maze-black-verdicts.txt"));
        MazeStyleAgreement.writePlotVerdicts(plot.stream().flatMap(List::stream).toList(),
                Path.of("target/maze-black-plot-verdicts.txt"));

        for (List<MazeStyleAgreement.Outcome> style : own) {
            String name = style.get(0).c().styleName();
            assertThat(style).as("%s: every reference reads back as drawn", name)
                    .allMatch(MazeStyleAgreement.Outcome::referenceRead);
            long agree = style.stream().filter(MazeStyleAgreement.Outcome::agrees).count();
            assertThat(agree / (double) style.size()).as("%s: agreement with the known verdicts", name)
                    .isGreaterThanOrEqualTo(MIN_AGREEMENT);
            assertThat(style).anyMatch(o -> o.c().passes()).anyMatch(o -> !o.c().passes());
        }
        for (List<MazeStyleAgreement.PlotOutcome> style : plot) {
            MazePlotCorpus.Markers m = style.get(0).c().markers();
            assertThat(style).allMatch(MazeStyleAgreement.PlotOutcome::referenceRead);
            assertThat(style).allMatch(o -> o.orientation() == MazeOrientation.ROW_ZERO_AT_BOTTOM);
            assertThat(style).as("%s: the agent tracked", m.style()).filteredOn(o -> o.c().kind() != MazePlotCorpus.Kind.NEVER_MOVES)
                    .allMatch(o -> o.agent().equals(m == MazePlotCorpus.Markers.BLACK_AGENT ? "black" : "blue"));
            long agree = style.stream().filter(MazeStyleAgreement.PlotOutcome::agrees).count();
            assertThat(agree / (double) style.size()).as("%s: agreement with the known verdicts", m.style())
                    .isGreaterThanOrEqualTo(MIN_AGREEMENT);
            assertThat(style).anyMatch(o -> o.c().passes()).anyMatch(o -> !o.c().passes());
        }
    }

    /**
     * A wall crossed by a black agent is seen as a crossing, not only as a wrong route: the black agents'
     * wall-crossing cases of the corpora above, in every video style and maze-dataset's look.
     */
    @Test
    @org.junit.jupiter.api.Disabled("not yet: a black agent sliding through thin walls shows 1.7-4.7 % of its pixels"
            + " crossing, under the seed's 5 %, in 2 of 3 MMGR video styles' first crossing case and 4 of 6 of"
            + " maze-dataset's (the verdict is still a fail, on target achievement); see the marker branch's report (#28)")
    void aBlackAgentCrossingWallsIsCaughtCrossingThem() {
        for (OutputStyle s : MazeStyles.VIDEO) {
            List<MazeStyleAgreement.Outcome> crossing = MazeAnswerCorpus.videos(s, MazeAnswerCorpus.Markers.BLACK_AGENT,
                            VIDEO_CASES, 19).stream().filter(c -> c.scenario().fault() == Fault.WALL_CROSSING)
                    .map(c -> MazeStyleAgreement.score(c, dir)).toList();
            assertThat(crossing).as("%s: a black agent crossing walls is caught crossing them", s.name())
                    .isNotEmpty().allMatch(o -> o.failed().stream().anyMatch(f -> f.contains(MazeMetrics.CROSS_WALL)));
        }
        List<MazeStyleAgreement.PlotOutcome> sliding = MazePlotCorpus.cases(PLOT_CASES, 31, MazePlotCorpus.Markers.BLACK_AGENT)
                .stream().filter(c -> c.kind() == MazePlotCorpus.Kind.THROUGH_WALL).map(c -> MazeStyleAgreement.scorePlot(c, dir))
                .toList();
        assertThat(sliding).as("a black star sliding through walls is caught crossing them").isNotEmpty()
                .allMatch(o -> o.failed().stream().anyMatch(f -> f.contains(MazeMetrics.CROSS_WALL)));
    }

    private List<List<MazeStyleAgreement.Outcome>> run(List<OutputStyle> styles,
                                                       Function<OutputStyle, List<MazeAnswerCorpus.Case>> corpus) {
        return styles.stream()
                .map(s -> corpus.apply(s).parallelStream().map(c -> MazeStyleAgreement.score(c, dir)).toList())
                .toList();
    }

    private static List<List<MazeStyleAgreement.Outcome>> concat(List<List<MazeStyleAgreement.Outcome>> a,
                                                                 List<List<MazeStyleAgreement.Outcome>> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
