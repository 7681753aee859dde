package io.mmgr.stream.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;

/** Jackson's parse errors in words for a user. */
public final class JsonErrors {

    private JsonErrors() {
    }

    /**
     * The error without its source location and, for a broken read constraint, without the name of the
     * Java method that holds the limit: "Document nesting depth (33) exceeds the maximum allowed (32)".
     */
    public static String describe(IOException e) {
        String s = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        if (s == null) {
            return e.getClass().getSimpleName();
        }
        int nl = s.indexOf('\n');
        if (nl >= 0) {
            s = s.substring(0, nl);
        }
        return s.replaceAll(", from `[^`]*`\\)", ")").strip();
    }
}
