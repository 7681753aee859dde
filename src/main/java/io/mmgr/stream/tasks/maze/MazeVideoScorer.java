package io.mmgr.stream.tasks.maze;

import static io.mmgr.stream.tasks.maze.MazeThresholds.BLOCK;

import io.mmgr.stream.vision.LabelImage;
import io.mmgr.stream.vision.Mask;
import io.mmgr.stream.vision.RgbImage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Scores a video output frame by frame (MMGR C.5.3, video extension): the green agent is tracked
 * across frames and its accumulated path compared with the solution; layout IoU is taken per frame
 * and the minimum reported; wall crossing uses stronger erosion and a 5 % ratio; exploration
 * (Action Reflection) is read from backtracking in the tracked route. Feed frames in order with
 * {@link #accept(MazeCanvas)}, then call {@link #finish()}.
 */
public final class MazeVideoScorer {

    private MazeReference ref;
    /** Why the structure does not fit the video's first legible frame, once that is known (then frames are skipped). */
    private MazeReferenceException refused;
    private final Mask trail;
    private final List<Cell> route = new ArrayList<>();
    private int frames;
    private double minLayout = 1.0;
    private long agentPixels;
    private long crossingPixels;
    private double agentSideSum;
    private int agentFrames;
    private Double startOffset;
    /** The agent's centroid in the first frame (canonical px), null when the first frame does not show it. */
    private double[] firstStart;
    /** Per frame showing the red square: its area, deviation (canonical px) and offset (source px). */
    private final List<double[]> targetSightings = new ArrayList<>();
    private Cell current;
    private MazeGeometry lastGeometry;
    /** The last frame read from colour codes, whose walls the next frame reuses when its wall pixels are the same. */
    private final MazeCanvas.PreviousFrame previous = new MazeCanvas.PreviousFrame();
    private double[] lastCentre;

    public MazeVideoScorer(MazeReference ref) {
        this.ref = ref;
        this.trail = new Mask(ref.walls().width(), ref.walls().height());
    }

    /** Reads the next frame, reusing the previous frame's board position while its outer walls are still there. */
    public void accept(RgbImage image) {
        located(MazeCanvas.of(image, ref.rows(), ref.cols(), lastGeometry));
    }

    /** As {@link #accept(RgbImage)}, a frame decoded to raw colour codes ({@link MazePalette#lut()}). */
    public void accept(LabelImage codes) {
        located(MazeCanvas.of(codes, ref.rows(), ref.cols(), lastGeometry, previous));
    }

    private void located(MazeCanvas frame) {
        if (frame.found()) {
            lastGeometry = frame.geometry();
        }
        accept(frame);
    }

    public void accept(MazeCanvas frame) {
        if (refused != null) {
            return;
        }
        frames++;
        boolean first = frames == 1;
        if (!frame.found()) {
            minLayout = 0.0;
            return;
        }
        if (ref.unplaced()) {
            // a maze given as structure is placed as the first legible frame shows it
            try {
                ref = ref.orientedTo(frame, frame.start(), frame.target(), "output video's frame " + frames);
            } catch (MazeReferenceException e) {
                refused = e;
                return;
            }
        }
        minLayout = Math.min(minLayout, MazeImageScorer.layoutIou(ref, frame));

        Mask target = frame.target().largestComponent();
        if (!target.isEmpty()) {
            double[] t = target.centroid();
            double d = Math.hypot(t[0] - ref.targetCentre()[0], t[1] - ref.targetCentre()[1]);
            targetSightings.add(new double[] {target.count(), d, d * frame.pixelsPerCanonical()});
        }

        Mask agent = frame.start().largestComponent();
        int area = agent.count();
        if (area == 0) {
            return;
        }
        double[] c = agent.centroid();
        if (first) {
            // the task starts from the given position: the agent must be on the start square in the first frame
            firstStart = c;
            startOffset = PathMeasures.offsetPx(c, ref.startCentre(), frame.pixelsPerCanonical());
        }
        trail.orInPlace(agent);
        // accumulate the path between sampled positions too, unless the agent jumped (> 2 cells)
        if (lastCentre != null && Math.hypot(c[0] - lastCentre[0], c[1] - lastCentre[1]) <= 4 * BLOCK) {
            double half = Math.sqrt(area) / 2.0;
            trail.paintSegment(lastCentre[0] - 0.5, lastCentre[1] - 0.5, c[0] - 0.5, c[1] - 0.5, half);
        }
        lastCentre = c;
        agentPixels += area;
        crossingPixels += agentInWalls(agent, c);
        agentSideSum += Math.sqrt(area);
        agentFrames++;
        track(c);
    }

    /**
     * Agent pixels counted as crossing in one frame: all of its pixels inside the (eroded) walls when
     * its centre is inside a wall, else only those bridging a wall (a large square spilling onto a
     * one-pixel wall line beside it is not in the wall; one straddling a thin wall is).
     */
    private int agentInWalls(Mask agent, double[] centre) {
        int[] block = {(int) Math.floor(centre[1] / BLOCK), (int) Math.floor(centre[0] / BLOCK)};
        MazeLattice lattice = ref.lattice();
        boolean inner = block[0] > 0 && block[1] > 0 && block[0] < lattice.latticeRows() - 1
                && block[1] < lattice.latticeCols() - 1;
        if (inner && !lattice.isOpen(block[0], block[1])) {
            return agent.intersectionCount(ref.wallsErodedVideo());
        }
        return PathMeasures.crossingPixels(agent, agent, lattice, ref.wallsErodedVideo());
    }

    /** Moves the tracked cell with hysteresis, so a centroid hovering between two cells does not flicker. */
    private void track(double[] c) {
        Cell nearest = MazeReference.cellAt(c);
        nearest = new Cell(clamp(nearest.row(), ref.rows()), clamp(nearest.col(), ref.cols()));
        if (current == null) {
            current = nearest;
            route.add(nearest);
            return;
        }
        if (nearest.equals(current)) {
            return;
        }
        // the hysteresis is for a neighbour only: a centroid nearest to a cell further away has left the
        // current one whatever its phase (a fast agent sampled about once a step can pass every cell
        // between two of them for many frames in a row)
        double[] centre = MazeReference.blockCentre(nearest);
        double cheb = Math.max(Math.abs(c[0] - centre[0]), Math.abs(c[1] - centre[1]));
        if (current.manhattan(nearest) == 1 && cheb > MazeThresholds.CELL_SWITCH_DISTANCE) {
            return;
        }
        // fill gaps between sampled positions with the maze's own route when it is short; a step into
        // an adjacent cell through a wall is a crossing, not a gap, and is kept as it is
        if (current.manhattan(nearest) > 1) {
            List<Cell> between = ref.lattice().shortestPath(current, nearest);
            if (!between.isEmpty() && between.size() - 1 <= MazeThresholds.MAX_FILLED_STEPS) {
                route.addAll(between.subList(1, between.size() - 1));
            }
        }
        route.add(nearest);
        current = nearest;
    }

    private static int clamp(int v, int n) {
        return Math.max(0, Math.min(n - 1, v));
    }

    /**
     * The metrics of the frames seen.
     *
     * @throws MazeReferenceException when the maze, given as structure, fits no orientation of the video
     */
    public MazeMetrics finish() throws MazeReferenceException {
        if (refused != null) {
            throw refused;
        }
        if (frames == 0) {
            throw new IllegalStateException("no frames were analysed");
        }
        double crossing = agentPixels == 0 ? 0.0 : crossingPixels / (double) agentPixels;
        boolean crossWall = crossing > MazeThresholds.VIDEO_CROSSING_RATIO;
        // "Video: 1 if structure changes in any frame" and the red square must stay where it was. The
        // square is located only in frames that show most of it (the agent covers it at the end), judged
        // against the largest the video ever shows it, since models draw markers of any size.
        double largest = 0;
        for (double[] t : targetSightings) {
            largest = Math.max(largest, t[0]);
        }
        boolean targetSeen = largest > 0;
        double maxTargetDeviation = 0;
        double maxTargetOffsetPx = 0;
        for (double[] t : targetSightings) {
            if (t[0] >= MazeThresholds.VISIBLE_TARGET_FRACTION * largest) {
                maxTargetDeviation = Math.max(maxTargetDeviation, t[1]);
                maxTargetOffsetPx = Math.max(maxTargetOffsetPx, t[2]);
            }
        }
        boolean targetMoved = !targetSeen || maxTargetDeviation > MazeThresholds.MARKER_TOLERANCE;
        boolean startMoved = PathMeasures.moved(firstStart, ref.startCentre());
        boolean mazeChanged = minLayout <= MazeThresholds.LAYOUT_IOU_MIN || targetMoved;

        double side = agentFrames == 0 ? BLOCK : agentSideSum / agentFrames;
        Mask cellTrail = trail.dilate(PathMeasures.dilationFor(side));
        double[] match = PathMeasures.match(cellTrail, ref.solutionFull(), null);

        Set<Cell> visited = new HashSet<>(route);
        int hit = 0;
        for (Cell c : ref.solution()) {
            if (visited.contains(c)) {
                hit++;
            }
        }
        double achievement = hit / (double) ref.solution().size();
        int moves = 0;
        for (int i = 1; i < route.size(); i++) {
            moves += route.get(i - 1).manhattan(route.get(i));
        }
        double lengthRatio = moves / (double) (ref.solution().size() - 1);
        boolean loop = cellTrail.holes(MazeThresholds.LOOP_MIN_AREA) > 0;
        boolean excessive = loop || lengthRatio > MazeThresholds.REFLECTION_LENGTH_RATIO;
        return new MazeMetrics(minLayout, mazeChanged, startOffset, targetSeen ? maxTargetOffsetPx : null,
                startMoved, targetMoved, crossing, crossWall, match[0], match[1], match[2], achievement, loop, lengthRatio, excessive,
                backtracked(), frames);
    }

    /** Backtracking: the agent comes back to a cell it had left. */
    private boolean backtracked() {
        Set<Cell> left = new HashSet<>();
        for (int i = 1; i < route.size(); i++) {
            left.add(route.get(i - 1));
            if (left.contains(route.get(i))) {
                return true;
            }
        }
        return false;
    }

    /** How the video shows the maze (null before a legible frame placed a maze given as structure). */
    public MazeOrientation orientation() {
        return ref.orientation();
    }

    /** The tracked cells, in order (for diagnostics). */
    public List<Cell> route() {
        return List.copyOf(route);
    }
}
