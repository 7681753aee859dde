package io.mmgr.stream.tasks.maze;

/**
 * Every number of the maze pixel pipeline in one place. The seed (MMGR C.5.3) fixes the gate values;
 * the paper's public text is silent on the rest and MMGR's evaluation code was not found in the
 * public sources searched (code search for the paper, its authors and its metric names turned up
 * only other projects), so those are our choices, each with its reason.
 *
 * <p>All geometry is measured on a canonical grid where one lattice block is {@link #BLOCK} pixels,
 * so tolerances mean the same on a 128 px thumbnail and a 2048 px render.
 */
public final class MazeThresholds {

    /** Canonical pixels per lattice block; 8 keeps a 13x13 maze at 216 x 216 and leaves room for 1-2 px tolerances. */
    public static final int BLOCK = 8;

    /** Seed, image and video gates: "maze match IoU > 0.8". Also the maze_changed cut. */
    public static final double LAYOUT_IOU_MIN = 0.8;

    /** Seed: "target achievement > 0.95". */
    public static final double TARGET_ACHIEVEMENT_MIN = 0.95;

    /** Seed: reflection when "its length exceeds 1.3x the solution path length". */
    public static final double REFLECTION_LENGTH_RATIO = 1.3;

    /** Seed, video: "wall crossing flagged only if the crossing ratio exceeds 5%". */
    public static final double VIDEO_CROSSING_RATIO = 0.05;

    /**
     * Image crossing cut ("a small threshold", value unstated): 1 % of the path's pixels inside
     * eroded walls. One honest stroke never reaches it (anti-aliasing is absorbed by the erosion);
     * a path cutting through one wall block in a route of up to ~75 blocks exceeds it.
     */
    public static final double IMAGE_CROSSING_RATIO = 0.01;

    /** Image wall erosion before intersecting (canonical px = 1/8 block): absorbs anti-aliased edges and a 1 px misfit. */
    public static final int IMAGE_WALL_EROSION = 1;

    /** Video wall erosion (seed: "stronger erosion"): 1/4 block, for codec blur and a marker drawn slightly over a wall edge. */
    public static final int VIDEO_WALL_EROSION = 2;

    /** Start/target centroid tolerance: one block (half the distance to the next cell), in canonical px. */
    public static final double MARKER_TOLERANCE = BLOCK;

    /** Reading a reference solution image: a block this covered by the cell-width path is on the path. */
    public static final double SOLUTION_BLOCK_COVERAGE = 0.3;

    /** Reading a reference solution image: a step through a block off the drawn path costs this many steps on it. */
    public static final double OFF_PATH_COST = 25.0;

    /** A block counts as covered by the cell-width path when at least half of it is. */
    public static final double BLOCK_COVERAGE = 0.5;

    /** Loops must enclose at least one block's area, so JPEG pinholes in a thick stroke are not loops. */
    public static final int LOOP_MIN_AREA = BLOCK * BLOCK;

    /**
     * Walls are read over their line plus this share of its thickness either side (at least one
     * source pixel), so a line found a pixel off or smeared by anti-aliasing is still read whole.
     */
    public static final double WALL_BAND_MARGIN = 0.25;

    /** Marker classes need this fraction of a canonical pixel's footprint. */
    public static final double MARKER_FRACTION = 0.3;

    /** Walls need this fraction of a canonical pixel's footprint (of the line's thickness, across a wall line). */
    public static final double WALL_FRACTION = 0.5;

    /** A video target is only located in frames showing at least this share of its largest visible area (not hidden by the agent). */
    public static final double VISIBLE_TARGET_FRACTION = 0.5;

    /**
     * Video tracking of an agent apart from its start marker: a sighting smaller than this share of the
     * largest it has been is a codec speck of its colour, not the agent (MMGR's agent, its own start
     * marker, is tracked as before).
     */
    public static final double VISIBLE_AGENT_FRACTION = 0.3;

    /**
     * Video tracking of a black agent: a sighting showing less than this share of its usual size, next to
     * a step through a wall, is partly hidden by that wall (see MazeVideoScorer's hidden pixels).
     */
    public static final double FULL_SIGHTING = 0.9;

    /** Video tracking: the agent moves to a neighbouring cell once its centroid is this close (Chebyshev, canonical px) to that cell's centre (to a cell further away at once). */
    public static final double CELL_SWITCH_DISTANCE = 0.75 * BLOCK;

    /** Video tracking: gaps between sampled positions up to this many steps are filled with the maze route. */
    public static final int MAX_FILLED_STEPS = 4;

    /**
     * A maze given as structure must have, in some orientation, at least this share of the wall segments
     * between cells that the picture draws, else the reference is refused. Two unrelated perfect mazes
     * share about 40 % (a maze's segments are mostly passages); a picture of the maze itself, even with
     * walls erased, shares all of them up to misread blocks.
     */
    public static final double STRUCTURE_FIT = 0.8;

    /** Orientations whose fits (precision + recall of the wall segments) are this close are told apart by the markers. */
    public static final double ORIENTATION_TIE = 0.02;

    private MazeThresholds() {
    }
}
