package io.mmgr.stream.vision;

/** An image or video that cannot be decoded or exceeds a limit; the message is the user-facing reason. */
public class MediaException extends Exception {

    public MediaException(String reason) {
        super(reason);
    }

    public MediaException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
