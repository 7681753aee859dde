package io.mmgr.stream.contract;

import java.util.Locale;

/**
 * How expensive one evaluation is. Light work (trajectories, UI steps, text) runs at intake, on the stream
 * thread, and its result travels on the sample's plan; image and video work each have their own queue and
 * bounded pool in the evaluation worker, so images never wait behind video decoding and neither runs on a
 * stream thread. Declared by the evaluator for each event ({@link DeterministicEvaluator#costClass}).
 */
public enum CostClass {
    /**
     * Numbers, geometry and text from the event and its item: microseconds to milliseconds, bounded by the
     * input limits; no artifact is read (intake refuses the read). Runs at intake, on the stream thread.
     */
    LIGHT,
    /** One or a few images decoded (pixels, OCR): tens to hundreds of milliseconds. */
    IMAGE,
    /** A video decoded (FFmpeg), frames analysed: seconds. */
    VIDEO;

    /** Lower-case name, as in topic names, flags and metrics. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static CostClass parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown cost class '" + s + "' (light, image or video)");
        }
    }
}
