package io.mmgr.stream.vision;

/** No grid of the expected shape in an image; the message is the user-facing reason. */
public class GridException extends Exception {

    /** Why the grid was refused. */
    public enum Kind {
        /** Nothing that looks like a ruled grid. */
        NOT_FOUND,
        /** A ruled grid, but with another number of rows or columns. */
        WRONG_SIZE
    }

    private final Kind kind;

    public GridException(Kind kind, String reason) {
        super(reason);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
