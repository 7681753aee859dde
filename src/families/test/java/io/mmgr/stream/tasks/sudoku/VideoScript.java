package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A video answer written frame by frame from known grid states, with the truth the scorer must find:
 * Clues Changed if any frame shows a clue other than its given, the final frame's grid, and the Action
 * Reflection the seed's rule gives on the states (counted here independently of the scorer). A null
 * state is a blank white frame (a cut), which shows no grid and is not counted.
 */
record VideoScript(String name, SudokuPuzzle puzzle, List<int[]> frames, boolean[] clue) {

    /** The frames that show a grid. */
    List<int[]> gridFrames() {
        return frames.stream().filter(java.util.Objects::nonNull).toList();
    }

    int blankFrames() {
        return frames.size() - gridFrames().size();
    }

    @Override
    public String toString() {
        return name;
    }

    int[] last() {
        List<int[]> shown = gridFrames();
        return shown.get(shown.size() - 1);
    }

    boolean clueEverChanged() {
        for (int[] f : gridFrames()) {
            for (int i = 0; i < f.length; i++) {
                if (puzzle.isGiven(i) && f[i] != puzzle.givens()[i]) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The seed's gradual-filling rule on the script's states: updates per frame counted against the
     * previous state (the posed puzzle before the first frame); mean ≤ 3 (4x4) or ≤ 5 (9x9), no frame
     * over 25% of the cells, at least 20% of frames with an update.
     */
    double actionReflection() {
        int[] prev = puzzle.givens();
        int total = 0;
        int max = 0;
        int active = 0;
        List<int[]> shown = gridFrames();
        for (int[] f : shown) {
            int u = 0;
            for (int i = 0; i < f.length; i++) {
                u += f[i] != prev[i] ? 1 : 0;
            }
            total += u;
            max = Math.max(max, u);
            active += u > 0 ? 1 : 0;
            prev = f;
        }
        double limit = puzzle.size() == 4 ? 3 : 5;
        boolean ok = total / (double) shown.size() <= limit && max <= 0.25 * puzzle.cells()
                && active >= 0.2 * shown.size();
        return ok ? 1.0 : 0.0;
    }

    /** Cell contents that change between consecutive states, plus the digits of the first state. */
    int contentChanges() {
        int[] prev = new int[puzzle.cells()];
        int changes = 0;
        for (int[] f : gridFrames()) {
            for (int i = 0; i < f.length; i++) {
                changes += f[i] != prev[i] ? 1 : 0;
            }
            prev = f;
        }
        return changes;
    }

    void write(OutputLook look, Path file) throws MediaException {
        write(frame -> look, file);
    }

    /** Each frame in the look chosen for its index (all looks on one canvas size). */
    void write(java.util.function.IntFunction<OutputLook> lookOf, Path file) throws MediaException {
        int w = lookOf.apply(0).style().canvasWidth();
        int h = lookOf.apply(0).style().canvasHeight();
        try (VideoEncoder enc = VideoEncoder.open(file, w, h, 24, VideoEncoder.Container.MP4)) {
            for (int i = 0; i < frames.size(); i++) {
                int[] f = frames.get(i);
                enc.write(f == null ? io.mmgr.stream.vision.RgbImage.filled(w, h, 0xFFFFFF)
                        : lookOf.apply(i).render(puzzle.size(), f, clue, null));
            }
        }
    }

    /** The same script with blank frames in place of frames {@code from} (inclusive) to {@code to} (exclusive). */
    VideoScript withCut(String newName, int from, int to) {
        List<int[]> out = new ArrayList<>(frames);
        for (int f = from; f < to; f++) {
            out.set(f, null);
        }
        return new VideoScript(newName, puzzle, out, clue);
    }

    // ---- scripts ----

    /** {@code lead} frames of the puzzle, then {@code perStep} blanks filled every {@code every} frames, then {@code tail} frames held. */
    static VideoScript gradual(String name, SudokuPuzzle p, int lead, int perStep, int every, int tail, Random random) {
        List<Integer> order = blanks(p, random);
        List<int[]> frames = new ArrayList<>();
        int[] state = p.givens();
        for (int i = 0; i < lead; i++) {
            frames.add(state.clone());
        }
        int[] sol = p.solution();
        for (int k = 0; k < order.size(); k += perStep) {
            for (int j = k; j < Math.min(order.size(), k + perStep); j++) {
                state[order.get(j)] = sol[order.get(j)];
            }
            for (int i = 0; i < every; i++) {
                frames.add(state.clone());
            }
        }
        for (int i = 0; i < tail; i++) {
            frames.add(state.clone());
        }
        return new VideoScript(name, p, frames, SudokuRenderer.clueMask(p));
    }

    /** The puzzle for {@code lead} frames, then the whole solution at once for {@code tail} frames. */
    static VideoScript allAtOnce(String name, SudokuPuzzle p, int lead, int tail) {
        List<int[]> frames = new ArrayList<>();
        for (int i = 0; i < lead; i++) {
            frames.add(p.givens());
        }
        for (int i = 0; i < tail; i++) {
            frames.add(p.solution());
        }
        return new VideoScript(name, p, frames, SudokuRenderer.clueMask(p));
    }

    /** A script whose frames from {@code from} on replace cell {@code cell} by {@code digit} (until {@code to}, exclusive). */
    VideoScript withCell(String newName, int cell, int digit, int from, int to) {
        List<int[]> out = new ArrayList<>();
        for (int f = 0; f < frames.size(); f++) {
            int[] s = frames.get(f) == null ? null : frames.get(f).clone();
            if (s != null && f >= from && f < to) {
                s[cell] = digit;
            }
            out.add(s);
        }
        return new VideoScript(newName, puzzle, out, clue);
    }

    static List<Integer> blanks(SudokuPuzzle p, Random random) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < p.cells(); i++) {
            if (!p.isGiven(i)) {
                order.add(i);
            }
        }
        java.util.Collections.shuffle(order, random);
        return order;
    }
}
