package io.mmgr.stream.tasks.maze;

/** The kinds of answer the fixtures simulate, each with the verdict the pixel pipeline must reach. */
public enum Fault {
    /** The solution, drawn or walked correctly. */
    CORRECT,
    /** A straight route that ignores walls. */
    WALL_CROSSING,
    /** Stops at about 60 % of the solution. */
    INCOMPLETE,
    /** Leaves the solution into a side branch and ends in its dead end. */
    DEAD_END,
    /** The full solution plus an in-and-out side trip making it more than 1.3x longer. */
    DETOUR,
    /** The correct route over a maze with many inner walls erased. */
    MAZE_ALTERED,
    /** The red square redrawn elsewhere and the route led there. */
    TARGET_MOVED,
    /** The red square moved on past its place and the route drawn through the whole solution to it. */
    TARGET_MOVED_PAST,
    /** The green square redrawn a step or more before its place and the route drawn from there through the whole solution. */
    START_MOVED,
    /** No path drawn / the agent never moves. */
    NO_PATH
}
