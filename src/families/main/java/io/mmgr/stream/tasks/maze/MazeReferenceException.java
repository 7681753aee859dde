package io.mmgr.stream.tasks.maze;

/** A benchmark item whose maze reference cannot be built; the message says why. */
public class MazeReferenceException extends Exception {
    public MazeReferenceException(String reason) {
        super(reason);
    }
}
