package io.mmgr.stream.vision;

/** The OCR engine cannot start (its language data is missing or unreadable); the message says how to fix it. */
public class OcrException extends RuntimeException {

    public OcrException(String reason) {
        super(reason);
    }

    public OcrException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
