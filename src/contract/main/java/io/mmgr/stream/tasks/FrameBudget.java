package io.mmgr.stream.tasks;

import java.util.Locale;

/**
 * Frames sampled per video. The seed: "192 frames at 24 fps for Veo-3, 360 frames for Sora-2, 120
 * frames for Wan-2.2"; all frames when a video has fewer. Models are matched by family name, so
 * "veo-3.1-fast" or "Wan2.2-I2V" find their budget; other models get the largest budget (360), which
 * keeps every frame of the videos these models make while bounding the work.
 */
public final class FrameBudget {

    public static final int VEO = 192;
    public static final int SORA = 360;
    public static final int WAN = 120;
    public static final int DEFAULT = 360;

    private FrameBudget() {
    }

    public static int forModel(String model) {
        String m = model == null ? "" : model.toLowerCase(Locale.ROOT);
        if (m.contains("veo")) {
            return VEO;
        }
        if (m.contains("sora")) {
            return SORA;
        }
        if (m.contains("wan")) {
            return WAN;
        }
        return DEFAULT;
    }
}
