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
 * Scores a video output frame by frame (MMGR C.5.3, video extension): the agent is tracked across
 * frames and its accumulated path compared with the solution; layout IoU is taken per frame and the
 * minimum reported; wall crossing uses stronger erosion and a 5 % ratio; exploration (Action
 * Reflection) is read from backtracking in the tracked route. Which marker is the agent, the start and
 * the target is the item's {@link MarkerRoles} (MMGR's green agent by default); where the agent's colour
 * is not named, every marker colour but the target's is tracked and the one that moved is the agent.
 * Feed frames in order with {@link #accept(MazeCanvas)}, then call {@link #finish()}.
 */
public final class MazeVideoScorer {

    private MazeReference ref;
    private final MarkerRoles roles;
    /** Why the structure does not fit the video's first legible frame, once that is known (then frames are skipped). */
    private MazeReferenceException refused;
    /** One track per colour that may be the agent: the named one, or every marker colour but the target's. */
    private final List<Track> tracks = new ArrayList<>();
    private int frames;
    private double minLayout = 1.0;
    /** The start marker's centroid in the first frame (canonical px), null when not shown; used when it is not the agent. */
    private double[] firstStartMarker;
    private Double startMarkerOffset;
    /** Per frame showing the target: its area, deviation (canonical px), offset (source px), frame and cell. */
    private final List<double[]> targetSightings = new ArrayList<>();
    private MazeGeometry lastGeometry;
    /** The last frame read from colour codes, whose walls the next frame reuses when its wall pixels are the same. */
    private final MazeCanvas.PreviousFrame previous = new MazeCanvas.PreviousFrame();

    public MazeVideoScorer(MazeReference ref) {
        this(ref, MarkerRoles.MMGR);
    }

    public MazeVideoScorer(MazeReference ref, MarkerRoles roles) {
        this.ref = ref;
        this.roles = roles;
        tracks.add(new Track(roles.agent()));
        if (!roles.agentGiven()) {
            for (int colour = MazePalette.GREEN; colour < MazePalette.LABELS; colour++) {
                if (colour != roles.agent() && colour != roles.target()) {
                    tracks.add(new Track(colour));
                }
            }
        }
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
                ref = ref.orientedTo(frame, frame.marker(roles.start(), ref), frame.marker(roles.target(), ref),
                        "output video's frame " + frames);
            } catch (MazeReferenceException e) {
                refused = e;
                return;
            }
        }
        Mask startMarker = frame.marker(roles.start(), ref);
        Mask targetMarker = frame.marker(roles.target(), ref);
        minLayout = Math.min(minLayout, MazeImageScorer.layoutIou(ref, frame, roles));

        Mask target = targetMarker.largestComponent();
        if (!target.isEmpty()) {
            double[] t = target.centroid();
            double d = Math.hypot(t[0] - ref.targetCentre()[0], t[1] - ref.targetCentre()[1]);
            boolean inCell = MazeReference.cellAt(t).equals(ref.target());
            targetSightings.add(new double[] {target.count(), d, d * frame.pixelsPerCanonical(), frames, inCell ? 1 : 0});
        }
        if (first) {
            // a start marker apart from the agent stays where the agent sets off: it must be on the start in
            // the first frame (kept whatever the roles: which marker is the agent may be known only at the end)
            firstStartMarker = startMarker.largestComponent().centroid();
            startMarkerOffset = PathMeasures.offsetPx(firstStartMarker, ref.startCentre(), frame.pixelsPerCanonical());
        }
        for (Track t : tracks) {
            t.accept(frame, first);
        }
    }

    /**
     * One colour's marker followed through the frames, as the agent would be: its trail, the cells it
     * passed, how much of it lay in walls.
     */
    private final class Track {
        final int colour;
        final Mask trail;
        final List<Cell> route = new ArrayList<>();
        /**
         * The cells it was seen in (the route also holds the cells filled in between sightings, and for an
         * agent apart from the start marker the start it sets off from).
         */
        final Set<Cell> sighted = new HashSet<>();
        Cell current;
        double[] lastCentre;
        long pixels;
        long crossingPixels;
        double sideSum;
        int seen;
        /** Centroid in the first frame (canonical px), null when the first frame does not show it. */
        double[] first;
        Double firstOffset;
        /** The frame in which it first stood on the target cell (0: never). */
        int reachedTarget;
        /** The largest it has been seen (pixels). */
        int largest;
        /** Per frame (1-based), the area it showed (0: not seen); kept for a black agent only ({@link #hiddenInWalls}). */
        int[] areas = new int[0];
        /** Per step of the route, the frame in which it was taken (index 0: the first cell). */
        final List<Integer> stepFrames = new ArrayList<>();

        Track(int colour) {
            this.colour = colour;
            this.trail = new Mask(ref.walls().width(), ref.walls().height());
        }

        void accept(MazeCanvas frame, boolean firstFrame) {
            Mask agent = frame.marker(colour, ref).largestComponent();
            int area = agent.count();
            if (colour == MazePalette.BLACK) {
                if (areas.length <= frames) {
                    areas = java.util.Arrays.copyOf(areas, Math.max(2 * areas.length, frames + 1));
                }
                areas[frames] = area;
            }
            if (area == 0) {
                return;
            }
            largest = Math.max(largest, area);
            if (colour != roles.start() && area < MazeThresholds.VISIBLE_AGENT_FRACTION * largest) {
                // an agent apart from the start marker may leave the picture (maze-dataset's star gives way
                // to the trophy): a speck of its colour left by the codec elsewhere is not the agent
                return;
            }
            double[] c = agent.centroid();
            if (firstFrame) {
                // the task starts from the given position: the agent must be on the start square in the first frame
                first = c;
                firstOffset = PathMeasures.offsetPx(c, ref.startCentre(), frame.pixelsPerCanonical());
            }
            if (current == null && colour != roles.start()) {
                // an agent apart from the start marker sets off from the start, whether or not shown there
                current = ref.start();
                step(current);
            }
            trail.orInPlace(agent);
            // accumulate the path between sampled positions too, unless the agent jumped (> 2 cells)
            if (lastCentre != null && Math.hypot(c[0] - lastCentre[0], c[1] - lastCentre[1]) <= 4 * BLOCK) {
                double half = Math.sqrt(area) / 2.0;
                trail.paintSegment(lastCentre[0] - 0.5, lastCentre[1] - 0.5, c[0] - 0.5, c[1] - 0.5, half);
            }
            lastCentre = c;
            pixels += area;
            crossingPixels += agentInWalls(agent, c);
            sideSum += Math.sqrt(area);
            seen++;
            track(c);
            sighted.add(current);
            if (reachedTarget == 0 && ref.target().equals(current)) {
                reachedTarget = frames;
            }
        }

        /** Moves the tracked cell with hysteresis, so a centroid hovering between two cells does not flicker. */
        private void track(double[] c) {
            Cell nearest = MazeReference.cellAt(c);
            nearest = new Cell(clamp(nearest.row(), ref.rows()), clamp(nearest.col(), ref.cols()));
            if (current == null) {
                current = nearest;
                step(nearest);
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
                    between.subList(1, between.size() - 1).forEach(this::step);
                }
            }
            step(nearest);
            current = nearest;
        }

        private void step(Cell c) {
            route.add(c);
            stepFrames.add(frames);
        }

        /**
         * A black agent's pixels hidden by the black walls it crosses: around each step of its route that
         * the structure says goes through a wall, every frame from its last full sighting before to its
         * first after adds what it showed less than its usual size (the median of its sightings). A black
         * agent inside a block wall shows nothing, one half into it shows half; a coloured agent is drawn
         * over the wall and counted as it shows.
         */
        long hiddenInWalls() {
            int[] seenAreas = java.util.Arrays.stream(areas).filter(a -> a > 0).sorted().toArray();
            if (seenAreas.length == 0) {
                return 0;
            }
            int usual = seenAreas[seenAreas.length / 2];
            int firstSeen = 0;
            int lastSeen = 0;
            for (int f = 1; f < areas.length; f++) {
                if (areas[f] > 0) {
                    firstSeen = firstSeen == 0 ? f : firstSeen;
                    lastSeen = f;
                }
            }
            boolean[] counted = new boolean[areas.length];
            long hidden = 0;
            for (int i = 1; i < route.size(); i++) {
                Cell a = route.get(i - 1);
                Cell b = route.get(i);
                if (a.manhattan(b) != 1 || ref.lattice().isOpen(a.latticeRow() + b.row() - a.row(),
                        a.latticeCol() + b.col() - a.col())) {
                    continue;
                }
                int k = Math.max(firstSeen, Math.min(lastSeen, stepFrames.get(i)));
                for (int f = k - 1; f >= firstSeen && areas[f] < MazeThresholds.FULL_SIGHTING * usual; f--) {
                    hidden += counted[f] ? 0 : usual - areas[f];
                    counted[f] = true;
                }
                for (int f = k; f <= lastSeen && areas[f] < MazeThresholds.FULL_SIGHTING * usual; f++) {
                    hidden += counted[f] ? 0 : usual - areas[f];
                    counted[f] = true;
                }
            }
            return hidden;
        }
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

    private static int clamp(int v, int n) {
        return Math.max(0, Math.min(n - 1, v));
    }

    /**
     * The agent's track: the named colour's, or where none was named the one seen in the most cells (a
     * marker that stays put is seen in one), MMGR's green first among equals. Sightings, not the route:
     * a marker apart from the start that stays put elsewhere (maze-dataset's flag pole, brown, reads as
     * red) would otherwise be routed from the start to where it stands.
     */
    private Track agent() {
        Track best = tracks.get(0);
        for (Track t : tracks) {
            if (t.sighted.size() > best.sighted.size()) {
                best = t;
            }
        }
        return best;
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
        Track agent = agent();
        boolean agentIsStart = agent.colour == roles.start();
        // a black agent is partly hidden while in a black wall: what the wall hides counts as in it
        long hidden = agent.colour == MazePalette.BLACK ? agent.hiddenInWalls() : 0;
        long pixels = agent.pixels + hidden;
        double crossing = pixels == 0 ? 0.0 : (agent.crossingPixels + hidden) / (double) pixels;
        boolean crossWall = crossing > MazeThresholds.VIDEO_CROSSING_RATIO;
        // "Video: 1 if structure changes in any frame" and the red square must stay where it was. The
        // square is located only in frames that show most of it (the agent covers it at the end), judged
        // against the largest the video ever shows it, since models draw markers of any size. Once the
        // agent stands on the target, a target that changes its look (a flag turning into a trophy) is
        // judged only by whether it is still in its cell.
        double largest = 0;
        for (double[] t : targetSightings) {
            largest = Math.max(largest, t[0]);
        }
        boolean targetSeen = largest > 0;
        double maxTargetDeviation = 0;
        double maxTargetOffsetPx = 0;
        boolean leftItsCell = false;
        for (double[] t : targetSightings) {
            boolean reached = agent.reachedTarget > 0 && t[3] >= agent.reachedTarget && !agentIsStart;
            if (reached) {
                leftItsCell |= t[4] == 0;
            } else if (t[0] >= MazeThresholds.VISIBLE_TARGET_FRACTION * largest) {
                maxTargetDeviation = Math.max(maxTargetDeviation, t[1]);
                maxTargetOffsetPx = Math.max(maxTargetOffsetPx, t[2]);
            }
        }
        boolean targetMoved = !targetSeen || maxTargetDeviation > MazeThresholds.MARKER_TOLERANCE || leftItsCell;
        boolean startMoved = agentIsStart ? PathMeasures.moved(agent.first, ref.startCentre())
                : PathMeasures.moved(firstStartMarker, ref.startCentre());
        Double startOffset = agentIsStart ? agent.firstOffset : startMarkerOffset;
        boolean mazeChanged = minLayout <= MazeThresholds.LAYOUT_IOU_MIN || targetMoved;

        double side = agent.seen == 0 ? BLOCK : agent.sideSum / agent.seen;
        Mask cellTrail = agent.trail.dilate(PathMeasures.dilationFor(side));
        double[] match = PathMeasures.match(cellTrail, ref.solutionFull(), null);

        List<Cell> route = agent.route;
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
                backtracked(route), frames);
    }

    /** Backtracking: the agent comes back to a cell it had left. */
    private static boolean backtracked(List<Cell> route) {
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

    /** The colour whose marker was tracked as the agent. */
    public String agentColour() {
        return MarkerRoles.name(agent().colour);
    }

    /** The tracked cells, in order (for diagnostics). */
    public List<Cell> route() {
        return List.copyOf(agent().route);
    }
}
