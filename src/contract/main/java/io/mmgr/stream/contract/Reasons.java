package io.mmgr.stream.contract;

/**
 * User-facing reasons, bounded: the stream writes them into dead letters and scores, the {@code eval}
 * commands print them, so both sides word a failure the same way.
 */
public final class Reasons {

    /** Characters of a reason kept. */
    public static final int MAX_CHARS = 2_000;

    private Reasons() {
    }

    /** {@code s} cut to {@code max} characters, marked with the length it had. */
    public static String cut(String s, int max) {
        if (s == null || s.length() <= max) {
            return s;
        }
        String mark = "…[" + s.length() + " chars]";
        int keep = Math.max(0, max - mark.length());
        if (keep > 0 && Character.isHighSurrogate(s.charAt(keep - 1))) {
            keep--;
        }
        return s.substring(0, keep) + mark;
    }

    /** The innermost message, without stack traces or class noise, cut to {@link #MAX_CHARS}. */
    public static String describe(Throwable t) {
        Throwable root = t;
        StringBuilder sb = new StringBuilder(cut(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage(),
                MAX_CHARS));
        while (root.getCause() != null && root.getCause() != root && sb.length() < MAX_CHARS) {
            root = root.getCause();
            if (root.getMessage() != null && !sb.toString().contains(root.getMessage())) {
                sb.append(": ").append(cut(root.getMessage(), MAX_CHARS));
            }
        }
        return cut(sb.toString(), MAX_CHARS);
    }
}
