package io.mmgr.stream.tasks.arc;

/** No grid could be read from an image; the message says why. */
public final class ArcDecodeException extends Exception {

    public ArcDecodeException(String reason) {
        super(reason);
    }
}
